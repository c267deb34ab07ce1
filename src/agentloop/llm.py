"""Model access: messages in, the assistant's message out.

`ask(messages, tools=None, **options)` speaks the OpenAI chat-completions wire format
to one of two backends:

* the teaching model, inside this process (the default: no key, no network), or
* any OpenAI-compatible endpoint over HTTP: set LLM_BASE_URL, LLM_API_KEY and
  LLM_MODEL in the environment, or call `use(base_url, api_key, model)`.

HTTP goes through the standard library's urllib, so the same code runs in the browser
(Pyodide) once pyodide-http has patched urllib. Every request and response is recorded
in `agentloop.trace`.
"""
import http.client
import json
import os
import socket
import urllib.error
import urllib.request
from dataclasses import dataclass, field

from . import errors, teaching, trace

TEACHING_MODEL = teaching.MODEL_NAME


@dataclass
class Backend:
    """Where requests go. `base_url=None` means the in-process teaching model."""

    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)  # never printed
    model: str = TEACHING_MODEL
    timeout: float = 60.0

    def describe(self) -> str:
        where = self.base_url or "in-process (no network)"
        key = "set" if self.api_key else "none"
        return f"model={self.model!r} at {where}, key: {key}"


_current: Backend | None = None


def use(base_url: str | None = None, api_key: str | None = None,
        model: str | None = None, timeout: float = 60.0) -> Backend:
    """Choose the backend. `use()` with no arguments goes back to the teaching model."""
    global _current
    if base_url is None:
        _current = Backend(model=model or TEACHING_MODEL, timeout=timeout)
    else:
        _current = Backend(base_url.rstrip("/"), api_key, model or TEACHING_MODEL, timeout)
    return _current


def backend() -> Backend:
    """The backend in use: the last `use(...)`, else the environment, else the teaching model."""
    if _current is None:
        env = os.environ
        use(env.get("LLM_BASE_URL") or None, env.get("LLM_API_KEY") or None,
            env.get("LLM_MODEL") or None)
    return _current


def complete(messages: list, tools: list | None = None, **options) -> dict:
    """Send one chat-completions request; return the whole response (with usage)."""
    chosen = backend()
    request = {"model": chosen.model, "messages": messages, **options}
    if tools:
        request["tools"] = tools
    try:  # a real round trip through JSON, so the teaching model sees what a server would
        request = json.loads(json.dumps(request))
    except (TypeError, ValueError) as error:
        raise errors.BadRequest(f"The request cannot be sent as JSON: {error}") from None
    trace.record("request", request)
    if chosen.base_url is None:
        try:
            response = teaching.respond(request)
        except teaching.InvalidRequest as error:
            raise errors.BadRequest(f"400 from the teaching model: {error}") from None
    else:
        response = _post(chosen, "/chat/completions", request)
    if not isinstance(response, dict) or not response.get("choices"):
        where = chosen.base_url + "/chat/completions" if chosen.base_url else ""
        got = _excerpt(json.dumps(response), chosen.api_key)
        raise errors.BadResponse(f"The response has no choices: {got}", where)
    trace.record("response", response)
    return response


def ask(messages: list, tools: list | None = None, **options) -> dict:
    """Send the messages (and tools); return the assistant's message as a plain dict."""
    message = complete(messages, tools, **options)["choices"][0].get("message")
    if not isinstance(message, dict):
        raise errors.BadResponse("The first choice has no message")
    return message


def _post(chosen: Backend, path: str, body: dict) -> dict:
    url = chosen.base_url + path
    headers = {"Content-Type": "application/json"}
    if chosen.api_key:
        headers["Authorization"] = f"Bearer {chosen.api_key}"
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    key = chosen.api_key  # a server may echo it back: everything it says passes through _excerpt
    try:
        with urllib.request.urlopen(request, timeout=chosen.timeout) as reply:
            raw = reply.read()
    except urllib.error.HTTPError as error:
        detail = _error_detail(error, key)
        raise errors.for_status(error.code)(
            f"HTTP {error.code} {detail}".strip(), url, status=error.code) from None
    except (socket.timeout, TimeoutError):
        raise errors.Timeout(f"No answer within {chosen.timeout:g} s", url) from None
    except urllib.error.URLError as error:  # urllib wraps what fails while connecting or sending
        raise errors.ConnectionFailed(f"Could not connect: {error.reason}", url) from None
    except (OSError, http.client.IncompleteRead) as error:  # connected, then the server hung up
        raise errors.ConnectionFailed(
            f"The connection closed before the whole answer arrived: {error}", url,
            hint="the server hung up mid-answer; try again, and if it keeps happening, read its log.") from None
    except http.client.HTTPException as error:  # the answer is not even HTTP
        raise errors.BadResponse(f"The answer is not HTTP: {_excerpt(str(error), key)!r}", url) from None
    try:
        return json.loads(raw)
    except ValueError:
        got = _excerpt(raw.decode("utf-8", "replace"), key, 80)
        raise errors.BadResponse(f"The body is not JSON: {got!r}", url) from None


def _error_detail(error: urllib.error.HTTPError, key: str | None) -> str:
    """The provider's own error message, if the body has one (OpenAI style)."""
    try:
        raw = error.read()
        body = json.loads(raw)
        detail = body["error"]["message"] if isinstance(body["error"], dict) else body["error"]
    except (OSError, http.client.HTTPException):  # the error's body never arrived
        return ""
    except (ValueError, KeyError, TypeError):
        detail = raw.decode("utf-8", "replace")
    return _excerpt(str(detail), key)


def _excerpt(text: str, key: str | None, limit: int = 200) -> str:
    """What a server said, fit for an error message: one line, no key, not too long."""
    text = errors.redact(" ".join(text.split()), key)  # redact first: a cut key would slip through
    return text if len(text) <= limit else text[:limit] + "…"
