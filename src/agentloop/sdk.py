"""The official openai SDK on the course's backend: `client = agentloop.openai_client()`.

With no backend chosen, the client's `httpx` transport answers from the teaching model in
this process: no server, no key, no network, and the same bytes the server would send
(JSON, or server-sent events for `stream=True`). After `use(...)` or `connect()`, it is an
ordinary client for that base URL and key. The SDK cannot install in the browser site.
"""
import json

from . import llm, teaching, trace

try:
    import httpx  # the openai SDK's own dependency
except ImportError:  # the browser site: no SDK, and this module still imports
    httpx = None


class TeachingTransport(httpx.BaseTransport if httpx else object):
    """An httpx transport that answers chat-completions requests from the teaching model."""

    def __init__(self):
        self.seen = set()  # conversations the rate-limit-once quirk has refused already

    def handle_request(self, request):
        from .server import MODELS, error_body, read_json  # what the server answers, byte for byte
        from .wire import chunks
        path = request.url.path.rstrip("/")
        if request.method == "GET" and path.endswith("/models"):
            return _json(request, 200, MODELS)
        if request.method != "POST" or not path.endswith("/chat/completions"):
            return _json(request, 404, error_body(f"Unknown path: {request.method} {path}", 404))
        try:
            body = read_json(request.read())
        except teaching.InvalidRequest as error:
            return _json(request, 400, error_body(str(error)))
        stream, options = body.pop("stream", False), body.pop("stream_options", None) or {}
        trace.record("request", body)
        try:
            response = teaching.respond(body, self.seen)
        except teaching.TooManyRequests as error:
            return _json(request, 429, error_body(str(error), 429, code="rate_limit_exceeded"), error.headers)
        except teaching.InvalidRequest as error:
            status = getattr(error, "status", 400)
            return _json(request, status, error_body(str(error), status))
        trace.record("response", response)
        if stream is not True:
            return _json(request, 200, response)
        pieces = teaching.quirks.restream(body["model"], chunks(response, options.get("include_usage") is True))
        events = "".join(f"data: {json.dumps(chunk)}\n\n" for chunk in pieces) + "data: [DONE]\n\n"
        return httpx.Response(200, content=events.encode(), request=request,
                              headers={"Content-Type": "text/event-stream"})


def _json(request, status: int, body: dict, headers=None):
    return httpx.Response(status, content=json.dumps(body).encode(), request=request,
                          headers={"Content-Type": "application/json", **(headers or {})})


def openai_client(**settings):
    """An `openai.OpenAI` client for the backend in use: the teaching model in-process by default."""
    try:
        import openai
    except ImportError:
        raise ImportError("The openai SDK is not installed: `pip install openai` (in local Jupyter; "
                          "it cannot install in the browser site).") from None
    chosen = llm.backend()
    if chosen.base_url is not None:  # the key goes to this base URL only: a redirect is an error, as in ask()
        return openai.OpenAI(base_url=chosen.base_url, api_key=chosen.api_key or "none",
                             default_headers=chosen.headers or None, timeout=chosen.timeout,
                             max_retries=chosen.retries, **{
                                 "http_client": openai.DefaultHttpxClient(follow_redirects=False), **settings})
    return openai.OpenAI(base_url="http://teaching-model.invalid/v1", api_key="no-key-needed",
                         http_client=httpx.Client(transport=TeachingTransport()), **settings)
