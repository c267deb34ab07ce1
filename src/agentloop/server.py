"""The teaching model as an OpenAI-compatible HTTP server (standard library only).

    python -m agentloop serve --port 8080

POST /v1/chat/completions answers with JSON, or with server-sent events when the request
says "stream": true; GET /v1/models lists the model. So the openai SDK, curl or a browser
page can use the teaching model exactly as they would use a provider. Lessons and tests
start it in the background with `serve_in_thread()`.
"""
import io
import ipaddress
import json
import math
import signal
import sys
import threading
import time
from collections import OrderedDict
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from . import bounded_json, teaching
from .wire import chunks

# On every answer, so that a page served from another origin (JupyterLite) may call us.
CORS = {"Access-Control-Allow-Origin": "*",
        "Access-Control-Allow-Methods": "GET, POST, OPTIONS",
        "Access-Control-Allow-Headers": "Authorization, Content-Type"}
MAX_BODY = 4 * 1024 * 1024  # bytes; a long conversation is far smaller, and this fits in memory
READ_TIMEOUT = 10  # seconds a client may stay silent before its connection is closed
REQUEST_TIME = 30  # seconds a request may take to arrive, however steadily it trickles in
SEEN_LIMIT = 4096  # conversations the rate-limit-once quirk remembers
JSON = "application/json"
MODELS = {"object": "list", "data": [
    {"id": teaching.MODEL_NAME, "object": "model", "created": 0, "owned_by": "agentloop"}]}


def read_json(raw: bytes):
    """A request's body, or InvalidRequest: not JSON, NaN or Infinity, or nested past bounded_json's cap."""
    try:
        return bounded_json.loads(raw, MAX_BODY, allow_nan=False)
    except bounded_json.TooDeep as error:
        raise teaching.InvalidRequest(f"The body {error}.") from None
    except ValueError as error:
        raise teaching.InvalidRequest(f"The body is not valid JSON: {error}") from None


def error_body(message: str, status: int = 400, param=None, code=None) -> dict:
    """An error in OpenAI's shape, which every client library knows how to read."""
    kind = "server_error" if status == 500 else "invalid_request_error"
    return {"error": {"message": message, "type": kind, "param": param, "code": code}}


def not_found_body(method: str, path: str) -> dict:
    return error_body(f"Unknown path: {method} {path}. Try POST /v1/chat/completions or GET /v1/models.", 404)


def answer_chat(raw: bytes, seen) -> tuple:
    """(status, body, content type, headers) for a POST to /v1/chat/completions, apart from the
    socket: what the server sends, and what endpoint.py's in-process stand-in answers."""
    try:
        body = read_json(raw)
    except teaching.InvalidRequest as error:
        return 400, error_body(str(error)), JSON, {}
    if not isinstance(body, dict) or not isinstance(body.get("messages"), list):
        return 400, error_body("Missing required parameter: 'messages' (a list).",
                               param="messages", code="missing_required_parameter"), JSON, {}
    # Streaming is how the answer travels, not what it says: the model never sees it, so
    # a streamed answer is the plain one cut into pieces (same ids included).
    stream, options = body.pop("stream", False), body.pop("stream_options", None)
    include_usage = isinstance(options, dict) and options.get("include_usage") is True
    try:
        response = teaching.respond(body, seen)
    except teaching.TooManyRequests as error:  # the rate-limit-once quirk
        return 429, error_body(str(error), 429, code="rate_limit_exceeded"), JSON, error.headers
    except teaching.InvalidRequest as error:
        return getattr(error, "status", 400), error_body(str(error)), JSON, {}
    except Exception as error:  # a bug in the model must not take the server down
        return 500, error_body(f"The teaching model failed: {error!r}", 500), JSON, {}
    if stream is not True:
        return 200, response, JSON, {}
    # The model answers at once, so the whole stream goes out as one body.
    pieces = teaching.quirks.restream(body["model"], chunks(response, include_usage))
    events = [f"data: {json.dumps(chunk)}\n\n" for chunk in pieces]
    return 200, ("".join(events) + "data: [DONE]\n\n").encode(), "text/event-stream", {}


class Recent:
    """A set that keeps only the `limit` most recently used items, so memory stays bounded."""

    def __init__(self, limit: int):
        self.limit, self.items, self.lock = limit, OrderedDict(), threading.Lock()

    def __contains__(self, item) -> bool:
        with self.lock:
            if item in self.items:
                self.items.move_to_end(item)
                return True
            return False

    def add(self, item) -> None:
        with self.lock:
            self.items[item] = None
            self.items.move_to_end(item)
            while len(self.items) > self.limit:
                self.items.popitem(last=False)

    def clear(self) -> None:
        with self.lock:
            self.items.clear()

    def __len__(self) -> int:
        return len(self.items)


class Deadline(io.RawIOBase):
    """The connection as a file whose reads stop at a deadline (TimeoutError), besides the silence a
    read may wait: a client sending a byte every few seconds cannot hold a thread for long."""

    def __init__(self, connection, silence: float):
        self.connection, self.silence, self.deadline = connection, silence, math.inf

    def readable(self) -> bool:
        return True

    def readinto(self, buffer) -> int:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError(f"the request took longer than {REQUEST_TIME} s to arrive")
        self.connection.settimeout(min(left, self.silence))
        return self.connection.recv_into(buffer)


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # keep-alive: the openai SDK reuses its connection
    timeout = READ_TIMEOUT  # a client that stalls mid-request must not hold a thread forever

    def setup(self):
        super().setup()
        self.rfile.close()
        self.rfile = io.BufferedReader(Deadline(self.connection, self.timeout))

    def handle_one_request(self):
        self.rfile.raw.deadline = time.monotonic() + REQUEST_TIME  # from the wait for its first byte
        super().handle_one_request()

    def do_OPTIONS(self):  # the CORS preflight a browser sends before POSTing JSON
        # Allow whatever headers the page asks for (the openai JS SDK adds x-stainless-*), and
        # a page on the public web (a hosted JupyterLite) calling this private address.
        asked = self.headers.get("Access-Control-Request-Headers")
        headers = {"Access-Control-Allow-Headers": asked or CORS["Access-Control-Allow-Headers"]}
        if self.server.private_network:
            headers["Access-Control-Allow-Private-Network"] = "true"
        self.send(204, headers=headers)

    def do_GET(self):
        if self.route() == "/v1/models":
            return self.send(200, MODELS)
        self.not_found()

    def do_POST(self):
        raw = self.read_body()
        if raw is None:
            return  # refused, and answered
        if self.route() != "/v1/chat/completions":
            return self.not_found()
        self.send(*self.server.answer(raw))

    def read_body(self):
        """The request's body, or None after answering why it cannot be read."""
        # Read the whole body first: on a kept-alive connection, unread bytes would be
        # taken for the start of the next request. When we cannot, we close the connection.
        if "chunked" in self.headers.get("Transfer-Encoding", "").lower():
            return self.refuse(501, "Chunked request bodies are not supported: send a Content-Length.")
        length = self.headers.get("Content-Length")
        if length is None:
            return self.refuse(411, "A POST needs a Content-Length header.")
        if not length.isdigit():
            return self.refuse(400, "Content-Length must be a number of bytes.")
        if int(length) > MAX_BODY:
            self.discard(int(length))
            return self.refuse(413, f"The request is {int(length):,} bytes; this server takes at most "
                                    f"{MAX_BODY // 2**20} MB. Shorten the conversation.")
        try:
            raw = self.rfile.read(int(length))
        except TimeoutError:
            raw = b""
        if len(raw) < int(length):
            return self.refuse(408, f"The body stopped before its {length} bytes arrived.")
        return raw

    def discard(self, length: int):
        # A client that is still sending (urllib, http.client) reads no answer from a socket closed
        # under it, so take in a body up to a few times the limit, then answer; a bigger one is cut off.
        if length <= 4 * MAX_BODY:
            try:
                while length > 0 and (piece := self.rfile.read(min(length, 2**16))):
                    length -= len(piece)
            except TimeoutError:
                pass

    def refuse(self, status: int, message: str):
        self.close_connection = True
        self.send(status, error_body(message, status))

    def route(self) -> str:
        return self.path.split("?")[0].rstrip("/")

    def not_found(self):
        self.send(404, not_found_body(self.command, self.route()))

    def send(self, status: int, body=None, content_type=JSON, headers=None):
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
    request_queue_size = 256  # the listen backlog: socketserver's 5 drops a class connecting at once

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seen = Recent(SEEN_LIMIT)  # conversations the rate-limit-once quirk has refused already
        self.private_network = True  # may a public web page call us? (the Private Network Access header)

    def answer(self, raw: bytes) -> tuple:
        """(status, body, content type, headers) for a chat-completions POST's body."""
        return answer_chat(raw, self.seen)

    def handle_error(self, request, client_address):
        # A client that hangs up mid-answer is normal; anything else is a bug worth a traceback.
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)

    def stop(self):
        self.shutdown()
        self.server_close()


def serve_in_thread(port: int = 0, host: str = "127.0.0.1", log: bool = False, kind=None):
    """Start a server (of class `kind`, Server by default) in a background thread; return (server,
    url). `server.stop()` stops it."""
    server = (kind or Server)((host, port), Handler)
    server.log = log
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return server, f"http://{host}:{server.server_port}/v1"


def is_loopback(host: str) -> bool:
    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name other than localhost
        return False


def main(host: str = "127.0.0.1", port: int = 8080, allow_private_network: bool = False):
    """Serve until Ctrl-C: what `python -m agentloop serve` runs."""
    try:
        server = Server((host, port), Handler)
    except OSError as error:
        sys.exit(f"Cannot listen on {host}:{port}: {error.strerror}")
    server.log = True
    if not is_loopback(host):
        server.private_network = allow_private_network
        print(f"Warning: on {host}, other machines can reach the teaching model"
              + ("." if allow_private_network else
                 "; web pages elsewhere may call it only with --allow-private-network."),
              file=sys.stderr, flush=True)
    # A shell starts background jobs with Ctrl-C ignored; we want it to stop us all the same.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    print(f"The teaching model is at http://{host}:{server.server_port}/v1 (Ctrl-C stops it)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("Stopped.", flush=True)
    finally:
        server.server_close()
