"""Fetching an answer: from the teaching model in this process, or from a server over HTTP.

`answer(backend, request)` sends one chat-completions request and returns the raw reply. A
429 or 5xx is tried again after a pause (the server's Retry-After if it sends one, else a
doubling backoff), within the backend's `retries` and its `timeout`, which bounds the whole
call, even when the answer trickles in (it is read in pieces against the deadline). A redirect
is never followed (it would carry the key elsewhere). A server whose known refusal says it
takes no null (or no "") assistant content gets the other form once, and that form is learnt
once it worked. Every failure is one of the named errors in `errors`, and nothing a server
says reaches a message before the key is removed from it.

HTTP goes through the standard library's urllib, so the same code runs in the browser
(Pyodide), where pyodide-http sends urllib's requests through the page.
"""
import email.utils
import http.client
import json
import socket
import sys
import time
import urllib.error
import urllib.request

from . import bounded_json, errors, teaching, trace, wire

IN_BROWSER = sys.platform == "emscripten"  # Pyodide

if IN_BROWSER:  # no sockets in a browser: pyodide-http makes urllib send through the page's XHR
    try:
        import pyodide_http
        pyodide_http.patch_all()
    except ImportError:  # a Pyodide without it: requests fail with ConnectionFailed and its hint
        pass


# What each server accepts as an assistant's empty content beside tool calls (None or ""), learnt
# from its refusal; kept here, by (base URL, model), not in the user's settings.
learnt: dict = {}

# The exact refusals (lowercase) and the form each one refuses.
REFUSALS = {
    "invalid message content type: <nil>": None,                  # Ollama's /v1
    "can only concatenate str (not \"nonetype\") to str": None,   # llama-cpp-python's chat templates
    "'chatcompletionrequestassistantmessage', 'content'), 'msg': 'input should be a valid string', 'input': none":
        None,                                                     # llama-cpp-python 0.3's request validation
    "the content field in the message object at messages.": "",   # endpoints backed by Bedrock
    "the text field in the contentblock object at messages.": "",  # Bedrock, too
    "text content blocks must be non-empty": "",                  # Anthropic
}


_NONE = object()  # neither None nor "": no known refusal, nothing switched


def empty_content(chosen):
    """The form of empty content this backend accepts: None until it refused it."""
    return learnt.get((chosen.base_url, chosen.model))


def answer(chosen, request: dict):
    """The backend's answer, trying again after a 429 or 5xx, or in the other form of empty
    content if the server refused the one we sent."""
    started = time.monotonic()
    deadline, attempt, switched = started + chosen.timeout, 0, _NONE
    while True:
        try:
            raw = _once(chosen, request, deadline)
            if switched is not _NONE:  # the other form worked: remember it for the next request
                learnt[(chosen.base_url, chosen.model)] = switched
            return raw
        except errors.LLMError as error:
            failure = error
        refused = _refused_form(failure)
        if switched is _NONE and refused is not _NONE and _has_empty_content(request, refused):
            switched = "" if refused is None else None
            request = wire.prepare(request, switched)
            trace.record("retry", {"because": failure.what, "empty content now": switched})
            continue
        if not isinstance(failure, (errors.RateLimited, errors.ServerError)):
            raise failure
        attempt += 1
        wait = failure.retry_after if failure.retry_after is not None else chosen.backoff * 2 ** (attempt - 1)
        too_late = time.monotonic() + wait > deadline
        if attempt > chosen.retries or too_late:
            notes = [f"tried {attempt} times in {time.monotonic() - started:.1f} s"] if attempt > 1 else []
            if too_late and failure.retry_after is not None:
                notes.append(f"the server asks to wait {wait:g} s, past the {chosen.timeout:g} s timeout")
            if not notes:
                raise failure
            raise type(failure)(f"{failure.what} ({'; '.join(notes)})", failure.url, failure.hint,
                                failure.status, failure.retry_after) from None
        trace.record("retry", {"because": failure.what, "wait": round(wait, 3)})
        time.sleep(wait)


def _refused_form(error: errors.LLMError):
    """The form of empty content (None or "") a known refusal names, else _NONE."""
    if not isinstance(error, (errors.BadRequest, errors.ServerError)) or error.status not in (None, 400, 422, 500):
        return _NONE
    said = getattr(error, "detail", error.what).lower()
    return next((form for words, form in REFUSALS.items() if words in said), _NONE)


def _has_empty_content(request: dict, form) -> bool:
    return any(isinstance(m, dict) and m.get("role") == "assistant" and m.get("tool_calls")
               and m.get("content") == form
               for m in request.get("messages") or [])


def _once(chosen, request: dict, deadline: float):
    if chosen.base_url is not None:
        return _post(chosen, "/chat/completions", request, deadline)
    body = {k: v for k, v in request.items() if k not in ("stream", "stream_options")}
    try:
        response = teaching.respond(body)
    except teaching.TooManyRequests as error:
        raise errors.RateLimited(f"429 from the teaching model: {error}", status=429,
                                 retry_after=error.retry_after) from None
    except teaching.InvalidRequest as error:
        status = getattr(error, "status", 400)  # 404 for a model name it does not know
        hint = errors.NotFound.model_hint if status == 404 else None
        raise errors.for_status(status)(f"{status} from the teaching model: {error}", hint=hint) from None
    except Exception as error:  # a bug in the teaching model: the 500 its server answers, named
        raise errors.ServerError(f"500 from the teaching model, which failed on this request: {error!r}",
                                 hint="a bug in the teaching model: please report it with this request.",
                                 status=500) from None
    if request.get("stream"):  # the same answer, cut into pieces as the server sends it, joined again
        usage = (request.get("stream_options") or {}).get("include_usage") is True
        response = wire.join(teaching.quirks.restream(body["model"], wire.chunks(response, usage)))
    return response


class _RefuseRedirects(urllib.request.HTTPRedirectHandler):
    """A 3xx comes back as itself: following it would send the key to wherever it points."""

    def redirect_request(self, *args, **kwargs):
        return None


# In the browser, pyodide-http sends urllib's requests through the page (the browser follows a
# redirect itself, and drops Authorization when it leads to another origin).
_OPENER = urllib.request.build_opener(_RefuseRedirects)
CHUNK = 16384  # bytes read at a time, so the deadline is checked between reads
MAX_ANSWER = bounded_json.MAX_BYTES  # bytes an answer may have: a long streamed one is a few MB


def _post(chosen, path: str, body: dict, deadline: float):
    url = chosen.base_url + path
    headers = {"Content-Type": "application/json", **chosen.headers}
    if chosen.api_key:
        headers["Authorization"] = f"Bearer {chosen.api_key}"
    request = urllib.request.Request(url, json.dumps(body).encode(), headers, method="POST")
    key = chosen.api_key  # a server may echo it back: everything it says passes through excerpt
    late = errors.Timeout(f"No answer within {chosen.timeout:g} s", url)
    reset = "The connection was reset while the answer was arriving"
    if deadline <= time.monotonic():
        raise late
    try:
        opener = urllib.request.urlopen if IN_BROWSER else _OPENER.open
        with opener(request, timeout=deadline - time.monotonic()) as reply:
            status, reply_headers, raw = reply.status, reply.headers, _read(reply, deadline)
    except urllib.error.HTTPError as error:  # an error status, or a redirect (never followed)
        with error:
            status, reply_headers = error.code, error.headers
            try:
                raw = _read_quietly(error, deadline)
            except TimeoutError:
                raise late from None
    except (socket.timeout, TimeoutError):
        raise late from None
    except bounded_json.TooLarge:
        raise errors.BadResponse(f"The answer is over {MAX_ANSWER:,} bytes, more than a chat answer can be; "
                                 "it was not read further", url) from None
    except urllib.error.URLError as error:  # urllib wraps what fails while connecting or sending
        if isinstance(error.reason, (socket.timeout, TimeoutError)):
            raise late from None
        if isinstance(error.reason, (ConnectionResetError, BrokenPipeError)):
            raise errors.ConnectionFailed("The connection was reset while the request was being sent", url,
                                          hint=errors.HUNG_UP) from None
        raise errors.ConnectionFailed(f"Could not connect: {error.reason}", url) from None
    except ConnectionResetError:
        raise errors.ConnectionFailed(reset, url, hint=errors.HUNG_UP) from None
    except (OSError, http.client.IncompleteRead) as error:  # connected, then the server hung up
        raise errors.ConnectionFailed(f"The connection closed before the whole answer arrived: {error}", url,
                                      hint=errors.HUNG_UP) from None
    except http.client.HTTPException as error:  # the answer is not even HTTP
        raise errors.BadResponse(f"The answer is not HTTP: {excerpt(str(error), key)!r}", url) from None
    except Exception as error:  # in Pyodide, a refused fetch is a JavaScript NetworkError
        if not IN_BROWSER:
            raise
        raise errors.ConnectionFailed(f"The browser could not fetch it: {excerpt(str(error), key)}", url,
                                      hint=errors.BROWSER_HINT) from None
    if status == 0:  # a browser's XMLHttpRequest that got no answer at all (blocked, or offline)
        raise errors.ConnectionFailed("The browser got no answer", url, hint=errors.BROWSER_HINT)
    if status >= 300:  # urllib raises for these; pyodide-http's urlopen returns them
        detail = _error_detail(raw, key, limit=4000)
        if 300 <= status < 400:
            where = excerpt(str(reply_headers.get("Location") if reply_headers else None), key)
            detail = f"redirected to {where}, not followed {detail}"
        kind = errors.for_status(status)
        hint = None
        if kind is errors.NotFound:
            hint = kind.model_hint if "model" in detail.lower() else kind.url_hint
        short = detail if len(detail) <= 200 else detail[:200] + "…"
        error = kind(f"HTTP {status} {short}".strip(), url, hint, status, _retry_after(reply_headers))
        error.detail = detail  # all the server said (without the key), for the content check
        raise error from None
    text = raw.decode("utf-8", "replace")
    try:
        streamed = "event-stream" in (reply_headers.get("Content-Type") or "") if reply_headers else False
        if body.get("stream") and (streamed or text.lstrip().startswith(("data:", ":", "event:"))):
            return wire.join(wire.events(text))
        return bounded_json.loads(text)
    except wire.WireError as error:
        kind = errors.ServerError if isinstance(error, wire.StreamError) else errors.BadResponse
        raise kind(excerpt(str(error), key), url) from None
    except bounded_json.TooDeep as error:
        raise errors.BadResponse(f"The answer {error}", url) from None
    except ValueError:
        raise errors.BadResponse(f"The body is not JSON: {excerpt(text, key, 80)!r}", url) from None


def _read(reply, deadline: float) -> bytes:
    """The whole body, read in pieces: a server that trickles bytes or streams keep-alive comments
    forever is stopped at the deadline (TimeoutError), as each read waits only for the time left,
    and one that sends more than MAX_ANSWER bytes at that size (TooLarge)."""
    inner = getattr(reply, "fp", None)
    if isinstance(inner, http.client.HTTPResponse):  # an HTTPError wraps the response
        inner = inner.fp
    sock = getattr(getattr(inner, "raw", None), "_sock", None)  # CPython's socket (none in Pyodide)
    read = getattr(reply, "read1", reply.read)
    parts, size = [], 0
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError
        if sock is not None:
            sock.settimeout(left)
        part = read(CHUNK)
        if not part:
            if getattr(reply, "length", None):  # fewer bytes than announced: the server hung up
                raise http.client.IncompleteRead(b"".join(parts), reply.length)
            return b"".join(parts)
        size += len(part)
        if size > MAX_ANSWER:
            raise bounded_json.TooLarge(f"is over {MAX_ANSWER:,} bytes")
        parts.append(part)


def _read_quietly(error: urllib.error.HTTPError, deadline: float):
    """An error's body, or None if the connection broke or the body is too large (TimeoutError at
    the deadline)."""
    try:
        return _read(error, deadline)
    except TimeoutError:
        raise
    except (OSError, http.client.HTTPException, bounded_json.TooLarge):
        return None


def _retry_after(headers) -> float | None:
    """How long the server asks us to wait: retry-after-ms (OpenAI), or Retry-After in seconds or as a date."""
    if headers is None:
        return None
    try:
        if headers.get("retry-after-ms"):
            return max(0.0, float(headers["retry-after-ms"]) / 1000)
        value = headers.get("Retry-After")
        if not value:
            return None
        try:
            return max(0.0, float(value))
        except ValueError:
            return max(0.0, email.utils.parsedate_to_datetime(value).timestamp() - time.time())
    except (TypeError, ValueError, OverflowError):
        return None


def _error_detail(raw: bytes | None, key: str | None, limit: int = 200) -> str:
    """The provider's own error message, if the body has one (OpenAI style)."""
    if raw is None:  # the error's body never arrived
        return ""
    try:
        body = bounded_json.loads(raw)
        detail = body["error"]["message"] if isinstance(body["error"], dict) else body["error"]
    except (ValueError, KeyError, TypeError):
        detail = raw.decode("utf-8", "replace")
    return excerpt(str(detail), key, limit)


def excerpt(text: str, key: str | None, limit: int = 200) -> str:
    """What a server said, fit for an error message: one line, no key, not too long."""
    text = errors.redact(" ".join(text.split()), key)  # redact first: a cut key would slip through
    return text if len(text) <= limit else text[:limit] + "…"
