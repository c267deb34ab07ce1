"""Model access: messages in, the assistant's message out.

`ask(messages, tools=None, **options)` speaks the OpenAI chat-completions wire format
to one of two backends:

* the teaching model, inside this process (the default: no key, no network), or
* any OpenAI-compatible endpoint over HTTP: set LLM_BASE_URL, LLM_API_KEY and
  LLM_MODEL in the environment, or call `use(base_url, api_key, model)`.

Whatever the provider's accent, the message comes back in one shape (see `wire`): string
arguments, an id on every tool call. A 429 or 5xx is tried again after a pause (the server's
Retry-After if it sends one), within `retries` and the `timeout`, which bounds the whole call
(a server that trickles bytes or streams forever included). A redirect is never followed.
Every failure is one of the named errors in `errors`, with a hint.

How the answer is fetched (in-process or over HTTP, retries, timeouts) is in `transport`.
Every request and response is recorded in `agentloop.trace`.
"""
import json
import os
import re
from dataclasses import dataclass, field

from . import bounded_json, errors, teaching, trace, transport, wire

TEACHING_MODEL = teaching.MODEL_NAME
VISIBLE_ASCII = re.compile(r"[\x21-\x7e]+")  # what an Authorization header's token, or a header's name, can hold
HEADER_VALUE = re.compile(r"[\x20-\x7e]*")


@dataclass
class Backend:
    """Where requests go. `base_url=None` means the in-process teaching model."""

    base_url: str | None = None
    api_key: str | None = field(default=None, repr=False)  # never printed
    model: str = TEACHING_MODEL
    timeout: float = 60.0  # seconds one ask() may take, retries included
    retries: int = 2       # how many times a 429 or 5xx is tried again
    backoff: float = 1.0   # the first pause before trying again (doubled each time) if the server names none
    headers: dict = field(default_factory=dict)  # extra headers, e.g. the one Anthropic wants from a browser
    options: dict = field(default_factory=dict)  # sent with every request, e.g. temperature=0

    def describe(self) -> str:
        where = self.base_url or "in-process (no network)"
        key = "set" if self.api_key else "none"
        return f"model={self.model!r} at {where}, key: {key}"


_current: Backend | None = None


def use(base_url: str | None = None, api_key: str | None = None, model: str | None = None,
        timeout: float = 60.0, retries: int = 2, backoff: float = 1.0, headers: dict | None = None,
        **options) -> Backend:
    """Choose the backend. `use()` with no arguments goes back to the teaching model.

    `options` go with every request unless a call sets its own: temperature=0, max_tokens=200,
    or tool_choice="auto" for llama-cpp-python's server, which ignores tools without it (tool
    options are only sent when tools are)."""
    global _current
    if model is not None and not isinstance(model, str):  # NaN, a list: what a server refuses with a 400
        raise errors.BadRequest(str(teaching.validate.wrong_type("model", "a string", model)))
    headers = {name: str(value).strip() for name, value in (headers or {}).items()}
    for name, value in headers.items():  # a header may carry a key too: its value is never shown
        if not (isinstance(name, str) and VISIBLE_ASCII.fullmatch(name) and HEADER_VALUE.fullmatch(value)):
            raise errors.BadRequest(f"The header {name!r} cannot be sent: a name is printable ASCII without "
                                    "spaces, and a value printable ASCII on one line (the value is not shown here)")
    settings = dict(model=model or TEACHING_MODEL, timeout=timeout, retries=retries, backoff=backoff,
                    headers=headers, options=options)
    if base_url is None:
        _current = Backend(**settings)
    else:  # a pasted endpoint ("…/v1/chat/completions") is a base URL too
        base_url = base_url.strip().rstrip("/").removesuffix("/chat/completions")
        _current = Backend(base_url, usable_key(api_key) or None, **settings)
    return _current


def usable_key(key: str | None) -> str | None:
    """The key as it can go in a header: without the spaces and line break a pasted or read key brings
    (open(path).read() ends in one); a key that still holds one is refused without being shown."""
    key = key.strip() if isinstance(key, str) else key
    if key and not VISIBLE_ASCII.fullmatch(key):
        raise errors.AuthError("The API key holds a space, a line break or a character outside ASCII, which "
                               "an Authorization header cannot carry (the key is not shown here)",
                               hint="copy the key again, exactly as the provider shows it.")
    return key


def backend() -> Backend:
    """The backend in use: the last `use(...)`, else the environment, else the teaching model."""
    if _current is None:
        env = os.environ
        use(env.get("LLM_BASE_URL") or None, env.get("LLM_API_KEY") or None,
            env.get("LLM_MODEL") or None)
    return _current


def complete(messages: list, tools: list | None = None, **options) -> dict:
    """Send one chat-completions request; return the whole response (with usage).

    `stream=True` asks the server to stream and joins the pieces: the result is the same
    whole response (ask() is synchronous; it never hands back half a message)."""
    chosen = backend()
    if options.get("stream") not in (None, False, True):
        raise errors.BadRequest(f"stream must be True or False, not {options['stream']!r}")
    defaults = {k: v for k, v in chosen.options.items() if tools or k not in ("tool_choice", "parallel_tool_calls")}
    request = {"model": chosen.model, "messages": messages, **defaults, **options}
    if tools:
        request["tools"] = tools
    if request.get("stream"):  # else a streamed answer comes without its usage
        request.setdefault("stream_options", {"include_usage": True})
    try:  # a real round trip through JSON, so the teaching model sees what a server would
        request = wire.prepare(bounded_json.loads(json.dumps(request)), transport.empty_content(chosen))
    except (bounded_json.TooDeep, bounded_json.TooLarge) as error:
        raise errors.BadRequest(f"The request {error}") from None
    except RecursionError:  # json.dumps, on lists or dicts nested thousands deep
        raise errors.BadRequest("The request cannot be sent as JSON: it nests lists and dicts thousands deep") from None
    except (TypeError, ValueError) as error:
        raise errors.BadRequest(f"The request cannot be sent as JSON: {error}") from None
    trace.record("request", request)
    raw = transport.answer(chosen, request)
    try:
        response = wire.reply(raw, seed=request)
    except wire.WireError as error:
        where = chosen.base_url + "/chat/completions" if chosen.base_url else ""
        raise errors.BadResponse(f"{error}: {transport.excerpt(json.dumps(raw), chosen.api_key)}", where) from None
    trace.record("response", raw)  # as it came: the trace shows each provider's accent
    return response


def ask(messages: list, tools: list | None = None, **options) -> dict:
    """Send the messages (and tools); return the assistant's message as a plain dict."""
    return complete(messages, tools, **options)["choices"][0]["message"]
