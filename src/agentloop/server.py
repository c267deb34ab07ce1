"""The teaching model as an OpenAI-compatible HTTP server (standard library only).

    python -m agentloop serve --port 8080

POST /v1/chat/completions answers with JSON, or with server-sent events when the request
says "stream": true; GET /v1/models lists the model. So the openai SDK, curl or a browser
page can use the teaching model exactly as they would use a provider. Lessons and tests
start it in the background with `serve_in_thread()`.
"""
import json
import signal
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from . import teaching
from .wire import chunks

# On every answer, so that a page served from another origin (JupyterLite) may call us.
CORS = {"Access-Control-Allow-Origin": "*",
        "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
        "Access-Control-Allow-Headers": "Authorization, Content-Type"}
MODELS = {"object": "list", "data": [
    {"id": teaching.MODEL_NAME, "object": "model", "created": 0, "owned_by": "agentloop"}]}


def error_body(message: str, status: int = 400, param=None, code=None) -> dict:
    """An error in OpenAI's shape, which every client library knows how to read."""
    kind = "server_error" if status == 500 else "invalid_request_error"
    return {"error": {"message": message, "type": kind, "param": param, "code": code}}


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: the openai SDK reuses its connection

    def do_OPTIONS(self):  # the CORS preflight a browser sends before POSTing JSON
        # Allow whatever headers the page asks for (the openai JS SDK adds x-stainless-*), and
        # a page on the public web (a hosted JupyterLite) calling this private address.
        asked = self.headers.get("Access-Control-Request-Headers")
        self.send(204, headers={"Access-Control-Allow-Headers": asked or CORS["Access-Control-Allow-Headers"],
                                "Access-Control-Allow-Private-Network": "true"})

    def do_GET(self):
        if self.route() == "/v1/models":
            return self.send(200, MODELS)
        self.not_found()

    def do_POST(self):
        # Read the whole body first: on a kept-alive connection, unread bytes would be
        # taken for the start of the next request.
        length = self.headers.get("Content-Length") or "0"
        if not length.isdigit():
            self.close_connection = True  # we cannot tell where this body ends
            return self.send(400, error_body("Content-Length must be a number of bytes."))
        raw = self.rfile.read(int(length))
        if self.route() != "/v1/chat/completions":
            return self.not_found()
        try:
            body = json.loads(raw)
        except ValueError as error:
            return self.send(400, error_body(f"The body is not valid JSON: {error}"))
        if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
            return self.send(400, error_body("Missing required parameter: 'messages' (a list).",
                                             param="messages", code="missing_required_parameter"))
        # Streaming is how the answer travels, not what it says: the model never sees it, so
        # a streamed answer is the plain one cut into pieces (same ids included).
        stream, options = body.pop("stream", False), body.pop("stream_options", None)
        include_usage = isinstance(options, dict) and options.get("include_usage") is True
        try:
            response = teaching.respond(body, self.server.seen)
        except teaching.TooManyRequests as error:  # the rate-limit-once quirk
            return self.send(429, error_body(str(error), 429, code="rate_limit_exceeded"), headers=error.headers)
        except teaching.InvalidRequest as error:
            return self.send(getattr(error, "status", 400), error_body(str(error)))
        except Exception as error:  # a bug in the model must not take the server down
            return self.send(500, error_body(f"The teaching model failed: {error!r}", 500))
        if stream is not True:
            return self.send(200, response)
        # The model answers at once, so the whole stream goes out as one body.
        pieces = teaching.quirks.restream(body["model"], chunks(response, include_usage))
        events = [f"data: {json.dumps(chunk)}\n\n" for chunk in pieces]
        self.send(200, ("".join(events) + "data: [DONE]\n\n").encode(), "text/event-stream")

    def route(self) -> str:
        return self.path.split("?")[0].rstrip("/")

    def not_found(self):
        self.send(404, error_body(f"Unknown path: {self.command} {self.route()}. "
                                  "Try POST /v1/chat/completions or GET /v1/models."))

    def send(self, status: int, body=None, content_type="application/json", headers=None):
        data = body if isinstance(body, bytes) else b"" if body is None else json.dumps(body).encode()
        self.send_response(status)
        headers = {**CORS, "Content-Type": content_type, "Content-Length": len(data), **(headers or {})}
        for name, value in headers.items():
            self.send_header(name, str(value))
        self.end_headers()
        self.wfile.write(data)

    def send_error(self, code, message=None, explain=None):
        # The base class answers a garbled request or an unknown method itself, in HTML: use
        # JSON. It has not read the body, so the connection cannot be reused.
        self.close_connection = True
        self.send(int(code), error_body(message or self.responses[code][0], int(code)))

    def log_request(self, code="-", size="-"):
        if self.server.log:  # one line, no body, no headers (an Authorization header is a key)
            path = getattr(self, "path", "").split("?")[0]  # a query string may carry a key too
            print(f"{self.command} {path} {code}", file=sys.stderr, flush=True)

    def log_message(self, format, *args):  # the client already got the error; keep the console quiet
        pass


class Server(ThreadingHTTPServer):
    log = False  # print one line per request?

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seen = set()  # conversations the rate-limit-once quirk has refused already

    def handle_error(self, request, client_address):
        # A client that hangs up mid-answer is normal; anything else is a bug worth a traceback.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)

    def stop(self):
        self.shutdown()
        self.server_close()


def serve_in_thread(port: int = 0, host: str = "127.0.0.1", log: bool = False):
    """Start a server in a background thread; return (server, url). `server.stop()` stops it."""
    server = Server((host, port), Handler)
    server.log = log
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return server, f"http://{host}:{server.server_port}/v1"


def main(host: str = "127.0.0.1", port: int = 8080):
    """Serve until Ctrl-C: what `python -m agentloop serve` runs."""
    try:
        server = Server((host, port), Handler)
    except OSError as error:
        sys.exit(f"Cannot listen on {host}:{port}: {error.strerror}")
    server.log = True
    # A shell starts background jobs with Ctrl-C ignored; we want it to stop us all the same.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    print(f"The teaching model is at http://{host}:{server.server_port}/v1 (Ctrl-C stops it)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("Stopped.", flush=True)
    finally:
        server.server_close()
