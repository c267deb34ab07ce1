"""A scripted HTTP server on 127.0.0.1 that misbehaves on purpose, to test clients.

    with FaultServer(error(429, "slow down"), completion("Hi")) as server:
        use(server.url)           # http://127.0.0.1:<port>/v1
        ...                       # the 1st request gets the 429, the 2nd the completion
        server.requests           # what the client sent: method, path, headers, body

Each request takes the next step from the script. A step is one of:
  Reply(status, body, headers, cut)  an answer; `cut=n` sends only n bytes of the body
                                     (after announcing all of it), then hangs up
  Hang(seconds)                      read the request, answer nothing (for timeouts)
  Raw(data)                          write these bytes instead of HTTP, then hang up;
                                     Raw(b"") is a dropped connection
  Reset(data, early)                 write these bytes, then reset the connection (RST);
                                     early=True: right after the headers, before the body
  Trickle(reply, every)              the reply, its body one byte every `every` seconds
  EndlessStream(every)               a 200 event stream of keep-alive comments that never ends
or a function of the Request that returns a step (to echo what the client sent).
When the script runs out, every further request gets a 500 that says so.
"""
import json
import socket
import struct
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Reply:
    status: int = 200
    body: object = b""  # a dict or list is sent as JSON, a str as UTF-8
    headers: dict = field(default_factory=dict)
    cut: int | None = None


@dataclass
class Hang:
    seconds: float = 10.0


@dataclass
class Raw:
    data: bytes = b""


@dataclass
class Reset:
    data: bytes = b""
    early: bool = False


@dataclass
class Trickle:
    reply: Reply
    every: float = 0.1


@dataclass
class EndlessStream:
    every: float = 0.05


@dataclass
class Request:
    method: str
    path: str
    headers: dict
    body: bytes

    def json(self):
        return json.loads(self.body)


def error(status: int, message: str, type: str = "invalid_request_error", code=None) -> Reply:
    """An error answer in OpenAI's shape."""
    return Reply(status, {"error": {"message": message, "type": type, "param": None, "code": code}})


def completion(content: str = "Hello!", tool_calls: list | None = None, **message) -> Reply:
    """A minimal valid chat.completion answer."""
    message = {"role": "assistant", "content": content, **message}
    if tool_calls:
        message["tool_calls"] = tool_calls
    body = {"id": "chatcmpl-fault", "object": "chat.completion", "created": 0, "model": "fault-model",
            "choices": [{"index": 0, "message": message,
                         "finish_reason": "tool_calls" if tool_calls else "stop"}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}}
    return Reply(200, body)


class FaultServer(ThreadingHTTPServer):
    def __init__(self, *script, host: str = "127.0.0.1"):  # or another loopback address, 127.0.0.2
        super().__init__((host, 0), _Handler)
        self.script = list(script)
        self.requests: list[Request] = []
        self.lock = threading.Lock()
        self.closing = threading.Event()  # ends every Hang early when the test is over
        self.url = f"http://{host}:{self.server_port}/v1"
        self.thread = threading.Thread(target=self.serve_forever, kwargs={"poll_interval": 0.05},
                                       daemon=True)
        self.thread.start()

    def add(self, *steps):
        """Append steps to the script."""
        with self.lock:
            self.script.extend(steps)

    def next_step(self, request: Request):
        with self.lock:
            self.requests.append(request)
            step = self.script.pop(0) if self.script else error(500, "fault server: script exhausted")
        return step(request) if callable(step) else step

    def close(self):
        self.closing.set()
        self.shutdown()
        self.server_close()
        self.thread.join(timeout=5)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        self.answer()

    def do_POST(self):
        self.answer()

    def answer(self):
        with self.server.lock:
            upcoming = self.server.script[0] if self.server.script else None
        early = isinstance(upcoming, Reset) and upcoming.early  # the client is still sending
        body = b"" if early else self.rfile.read(int(self.headers.get("Content-Length") or 0))
        step = self.server.next_step(Request(self.command, self.path, dict(self.headers), body))
        if isinstance(step, Hang):
            self.server.closing.wait(step.seconds)
            self.close_connection = True
        elif isinstance(step, Raw):
            self.wfile.write(step.data)
            self.close_connection = True
        elif isinstance(step, Reset):
            self.wfile.write(step.data)
            self.wfile.flush()
            # SO_LINGER 0: closing sends a reset (RST) instead of an orderly goodbye (FIN)
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            self.connection.close()
            self.close_connection = True
        elif isinstance(step, Trickle):
            self.reply(step.reply, every=step.every)
        elif isinstance(step, EndlessStream):
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            self.close_connection = True
            self.drip(iter(lambda: b": keep-alive\n\n", None), step.every)
        else:
            self.reply(step)

    def drip(self, pieces, every: float):
        """Send the pieces one by one, `every` seconds apart, until the test ends or the client leaves
        (or 30 s pass: a bound on every loop)."""
        stop = time.monotonic() + 30
        for piece in pieces:
            if self.server.closing.wait(every) or time.monotonic() > stop:
                return
            try:
                self.wfile.write(piece)
                self.wfile.flush()
            except OSError:  # the client gave up: what the test wants
                return

    def reply(self, step: Reply, every: float | None = None):
        data = step.body
        if isinstance(data, (dict, list)):
            data = json.dumps(data)
        if isinstance(data, str):
            data = data.encode()
        headers = {"Content-Type": "application/json", "Content-Length": str(len(data)), **step.headers}
        self.send_response(step.status)
        for name, value in headers.items():
            self.send_header(name, value)
        self.end_headers()
        if step.cut is not None:  # announce the whole body, send a part, hang up
            data, self.close_connection = data[:step.cut], True
        if every is None:
            self.wfile.write(data)
        else:
            self.wfile.flush()
            self.close_connection = True
            self.drip((data[i:i + 1] for i in range(len(data))), every)

    def log_message(self, format, *args):  # keep test output clean
        pass
