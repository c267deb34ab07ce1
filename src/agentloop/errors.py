"""Named errors for model calls: each says what failed, where, and what to try.

A student should never see a raw traceback from deep inside urllib; they see one of
these, with a one-line hint. API keys never appear in a message (see `redact`).
"""
import re

_KEY_SHAPED = re.compile(r"(sk-or-v1-|sk-|gsk_|xai-|AIza)[A-Za-z0-9_\-]{8,}")


def redact(text: str, secret: str | None = None) -> str:
    """Remove an API key (and anything shaped like one) from text."""
    if secret and len(secret) >= 8:  # a placeholder like "x" is no secret, and hiding it garbles text
        text = text.replace(secret, "***")
    return _KEY_SHAPED.sub("***", text)


class LLMError(Exception):
    """A model call failed. `str(error)` is a full sentence with a hint."""

    hint = "check the base URL, the model name and the key."

    def __init__(self, what: str, url: str = "", hint: str | None = None, status: int | None = None):
        self.what, self.url, self.status = redact(what), redact(url), status
        self.hint = hint or self.hint
        where = f" ({self.url})" if url else ""
        super().__init__(f"{self.what}{where}. Try: {self.hint}")


class ConnectionFailed(LLMError):
    hint = "is the server running, and is the base URL right (scheme, host, port, /v1)?"


class Timeout(LLMError):
    hint = "the server did not answer in time; try again, or raise the timeout with use(..., timeout=...)."


class BadRequest(LLMError):
    hint = "the request was malformed; the message above says which part."


class AuthError(LLMError):
    hint = "the API key is missing, wrong or expired; set LLM_API_KEY or pass api_key= to use()."


class NotFound(LLMError):
    hint = "the model name or the URL is wrong; list models with GET <base_url>/models."


class RateLimited(LLMError):
    hint = "too many requests; wait a little and try again, or use a smaller model or plan."


class ServerError(LLMError):
    hint = "the provider failed on its side; try again in a moment."


class BadResponse(LLMError):
    hint = "the server answered, but not in the chat-completions format; is this an OpenAI-compatible /v1 URL?"


def for_status(status: int) -> type[LLMError]:
    """The error class for an HTTP status code."""
    if status in (401, 403):
        return AuthError
    if status == 404:
        return NotFound
    if status == 429:
        return RateLimited
    if status >= 500:
        return ServerError
    return BadRequest
