"""The teaching model at a URL, for lesson 1's hand-written POST.

`start()` returns a base URL that `urllib.request.urlopen` can POST chat-completions requests to.
In local Jupyter it is a real server on 127.0.0.1 (server.serve_in_thread): the request travels
over a socket. A browser page (Pyodide) has no sockets and no server threads, so there `start()`
makes urllib answer that one URL in this process, with the code the server runs
(server.answer_chat), and hands every other URL on unchanged. So the student's
`urlopen(Request(...))` is the same line in both places, and gets the same answer.

Why urlopen and not an opener's handler: in Pyodide, pyodide-http replaces urllib.request.urlopen
(and OpenerDirector.open) with its own, which never consults an installed opener.

`received` keeps the last request bodies answered and `answered` counts them all (checks read
both); headers, and so the key, are never kept.
"""
import collections
import http
import http.client
import io
import json
import sys
import urllib.error
import urllib.parse
import urllib.request
import urllib.response

from . import server

IN_BROWSER = sys.platform == "emscripten"
IN_PROCESS = IN_BROWSER  # the default for start(); the grader sets it, as it turns the network off
STAND_IN = "http://127.0.0.1:8080/v1"  # where `python -m agentloop serve` listens by default
received = collections.deque(maxlen=50)  # the last request bodies answered, newest last
answered = 0  # requests answered in all: how many of `received` are new since a count taken before
seen = server.Recent(server.SEEN_LIMIT)  # conversations the rate-limit-once quirk refused already
_urls: dict = {}  # in_process -> the base URL it serves


def start(in_process: bool | None = None) -> str:
    """The teaching model's base URL (`<base>/chat/completions` takes the POST); started once."""
    in_process = IN_PROCESS if in_process is None else in_process
    if in_process not in _urls:
        _urls[in_process] = _stand_in() if in_process else _serve()
    return _urls[in_process]


def answer(raw: bytes) -> tuple:
    """(status, body, content type, headers) for a POSTed body, recorded in `received`."""
    global answered
    answered += 1
    try:
        received.append(json.loads(raw))
    except ValueError:
        received.append(None)  # not JSON: the answer says so
    return server.answer_chat(raw, seen)


class _Recording(server.Server):
    def answer(self, raw: bytes) -> tuple:
        # This module as it is now: the grader (and a test) may load agentloop afresh, and the
        # checks read the `received` of the copy they were loaded with.
        return sys.modules[__name__].answer(raw)


def _serve() -> str:
    return server.serve_in_thread(kind=_Recording)[1]


def _stand_in() -> str:
    previous = urllib.request.urlopen

    def urlopen(url, data=None, *args, **kwargs):
        request = url if isinstance(url, urllib.request.Request) else urllib.request.Request(url)
        if not request.full_url.startswith(STAND_IN + "/"):
            return previous(url, data, *args, **kwargs)
        if data is not None:
            request.data = data
        return sys.modules[__name__]._reply(request)  # as in _Recording.answer

    urllib.request.urlopen = urlopen
    return STAND_IN


def _reply(request: urllib.request.Request):
    """What the server would send for this request, as urllib returns it (or raises it)."""
    method, path = request.get_method(), urllib.parse.urlsplit(request.full_url).path.rstrip("/")
    if method == "POST" and path == "/v1/chat/completions":
        status, body, content_type, extra = answer(request.data or b"")
    elif method == "GET" and path == "/v1/models":
        status, body, content_type, extra = 200, server.MODELS, server.JSON, {}
    else:
        status, body, content_type, extra = 404, server.not_found_body(method, path), server.JSON, {}
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    headers = http.client.HTTPMessage()
    for name, value in {**server.CORS, "Content-Type": content_type, "Content-Length": len(data), **extra}.items():
        headers[name] = str(value)
    if status >= 400:  # as urllib raises an error status it got over a socket
        raise urllib.error.HTTPError(request.full_url, status, http.HTTPStatus(status).phrase, headers, io.BytesIO(data))
    return urllib.response.addinfourl(io.BytesIO(data), headers, request.full_url, status)
