"""Named errors for model calls: each says what failed, where, and what to try.

A student should never see a raw traceback from deep inside urllib; they see one of
these, with a one-line hint. API keys never appear in a message (see `redact`).
"""
import re

# A provider's key: OpenAI (sk-, sk-proj-), Anthropic (sk-ant-), OpenRouter (sk-or-v1-), Groq (gsk_),
# xAI (xai-), Hugging Face (hf_), Google (AIza), then a long random tail. Only a whole word that
# starts with the prefix counts ("desk-assistant" is no key), and the tail must hold a digit or a
# capital, as random keys do (so a lowercase name like "sk-learning-assistant-demo" is no key).
KEY_SHAPED = re.compile(r"(?<![A-Za-z0-9_\-])(?:sk-|gsk_|xai-|hf_|AIza)(?=[A-Za-z0-9_\-]*[A-Z0-9])"
                        r"[A-Za-z0-9_\-]{20,}")


def redact(text: str, secret: str | None = None) -> str:
    """Remove an API key (and anything shaped like one) from text, and nothing else."""
    if secret and len(secret) >= 8:
        text = text.replace(secret, "***")
    elif secret:  # a short key ("x", "ollama") is hidden where it stands alone, so "x-small" stays readable
        text = re.sub(rf"(?<![A-Za-z0-9_\-]){re.escape(secret)}(?![A-Za-z0-9_\-])", "***", text)
    return KEY_SHAPED.sub("***", text)


class LLMError(Exception):
    """A model call failed. `str(error)` is a full sentence with a hint."""

    hint = "check the base URL, the model name and the key."

    def __init__(self, what: str, url: str = "", hint: str | None = None, status: int | None = None,
                 retry_after: float | None = None):
        self.what, self.url, self.status = redact(what), redact(url), status
        self.hint = redact(hint or self.hint)
        self.retry_after = retry_after  # seconds the server asked us to wait (429, 503)
        where = f" ({self.url})" if url else ""
        super().__init__(f"{self.what.rstrip('.')}{where}. Try: {self.hint}")


class ConnectionFailed(LLMError):
    hint = "is the server running, and is the base URL right (scheme, host, port, /v1)?"


HUNG_UP = "the server hung up mid-answer; try again, and if it keeps happening, read its log."

# In the browser a refused request is one opaque "network error": the browser hides why.
BROWSER_HINT = ("the browser blocked or lost the request. It may be CORS (the server does not allow "
                "this site: see the provider notes), Local Network Access (allow this site to reach "
                "localhost when the browser asks), a rate limit or server error the browser hides, or "
                "a timeout; the browser console (F12) names the reason.")


class Timeout(LLMError):
    hint = "the server did not answer in time; try again, or raise the timeout with use(..., timeout=...)."


class Redirected(LLMError):
    hint = ("the base URL is not the API's address (a redirect is never followed: it would carry the "
            "key elsewhere). Fix the base URL: usually a missing /v1, or http where https is needed.")


class BadRequest(LLMError):
    hint = "the request was malformed; the message above says which part."


class AuthError(LLMError):
    hint = "the API key is missing, wrong or expired; set LLM_API_KEY or pass api_key= to use()."


class NotFound(LLMError):
    hint = "the model name or the URL is wrong; list models with GET <base_url>/models."
    model_hint = "the model name is wrong; list the server's models with GET <base_url>/models."
    url_hint = ("the URL is wrong; the base URL ends in /v1 (or the provider's equivalent, e.g. "
                "/v1beta/openai for Gemini, /api/v1 for OpenRouter) without /chat/completions.")


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
    if 300 <= status < 400:
        return Redirected
    if status in (404, 405):
        return NotFound
    if status == 429:
        return RateLimited
    if status >= 500:
        return ServerError
    return BadRequest
