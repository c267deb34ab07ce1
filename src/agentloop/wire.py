"""The wire: what OpenAI-compatible servers really send, made into one shape.

Every provider speaks "chat completions", each with an accent. `ask()` passes each answer
through `reply()` and each request through `prepare()`, so a lesson's loop sees one shape:

* a tool call's `arguments` is always a JSON string (Ollama's native API sends an object);
* every tool call has an id: a missing or empty one (Gemini, LM Studio, llama.cpp) gets a
  9-character alphanumeric id, the one format every provider accepts;
* `tool_calls` present means tool calls, whatever `finish_reason` says (OpenAI says "stop"
  when a tool is forced, Ollama always does); an empty list means none;
* content sent as a list of parts is joined into text, and an answer with neither text nor
  tool calls has content ""; the legacy `function_call` beside tool calls (llama-cpp-python
  sends both) is dropped.

Going out, an assistant message's empty content takes the form the server accepts (null, or
"" for servers such as Ollama's /v1 that refuse null), its arguments become JSON strings, and
a tool message gets the `name` of the call it answers (Gemini wants it). `join()` turns a
streamed answer back into one response, even when every call arrives at index 0 (Gemini).
`chunks()` cuts a response into the chunks a provider streams. Whatever is not a chat
completion at all raises `WireError`.
"""
import hashlib
import json
import re
import string

from . import bounded_json

ALPHABET = string.ascii_letters + string.digits


class WireError(ValueError):
    """The answer is not a chat completion; the message says what is missing."""


class StreamError(WireError):
    """The server reported an error in the middle of a stream."""


def new_id(*seed) -> str:
    """A 9-character alphanumeric tool-call id, the same for the same seed."""
    number = int(hashlib.sha256(json.dumps(seed, sort_keys=True, default=str).encode()).hexdigest(), 16)
    return "".join(ALPHABET[number // 62 ** i % 62] for i in range(9))


def reply(response, seed=None) -> dict:
    """The response, its first choice's message in the one shape described above."""
    if not isinstance(response, dict):
        raise WireError("The answer is not a JSON object")
    choices = response.get("choices")
    if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
        raise WireError("The response has no choices")
    message = choices[0].get("message")
    if not isinstance(message, dict):
        raise WireError("The first choice has no message")
    refusal = message.get("refusal") or refusal_part(message.get("content"))
    message = {**message, "role": "assistant", "content": text(message.get("content"))}
    if refusal:  # the model declined (OpenAI); a part of type "refusal" would be lost in the text
        message["refusal"] = refusal
    calls = message.pop("tool_calls", None) or []
    if not isinstance(calls, list):
        raise WireError("'tool_calls' is not a list")
    seen, calls = set(), [tool_call(call) for call in calls]  # new dicts: the trace keeps what came
    for i, call in enumerate(calls):
        if not call["id"] or call["id"] in seen:  # none, or two calls that could not be told apart
            call["id"] = new_id(seed, response, i)
        seen.add(call["id"])
    if calls:
        message["tool_calls"] = calls
        message.pop("function_call", None)  # the legacy field, beside tool calls (llama-cpp-python)
    elif message["content"] is None:
        message["content"] = ""  # no calls and no text: an empty answer, still text
    return {**response, "choices": [{**choices[0], "message": message}, *choices[1:]]}


def text(content):
    """Content as text (or None): a list of parts is joined."""
    if content is None or isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text") or "" for part in content
                       if isinstance(part, dict) and isinstance(part.get("text"), (str, type(None))))
    raise WireError(f"The message content is a {type(content).__name__}, not text")


def refusal_part(content):
    """The refusal in content sent as a list of parts, if any."""
    parts = content if isinstance(content, list) else []
    return "".join(p["refusal"] for p in parts if isinstance(p, dict) and isinstance(p.get("refusal"), str)) or None


def tool_call(call) -> dict:
    """One tool call with a string id (maybe empty, for now), type and JSON-string arguments."""
    function = call.get("function") if isinstance(call, dict) else None
    if not isinstance(function, dict) or not isinstance(function.get("name"), str) or not function["name"]:
        raise WireError("A tool call has no function name")
    arguments = function.get("arguments")
    if arguments is None or arguments == "":
        arguments = "{}"
    elif not isinstance(arguments, str):
        arguments = json.dumps(arguments)
    id = call.get("id")  # other keys stay: Gemini wants its "extra_content" back
    return {**call, "id": id if isinstance(id, str) and id.strip() else "", "type": "function",
            "function": {**function, "arguments": arguments}}


def prepare(request: dict, empty_content=None) -> dict:
    """The request as this server wants it; `empty_content` is None or "". The caller's messages
    are not changed, and what is malformed is left for the server to refuse."""
    names = {}  # tool-call id: the function's name
    messages = [prepare_message(m, names, empty_content) if isinstance(m, dict) else m
                for m in request.get("messages") or []]
    return {**request, "messages": messages} if "messages" in request else request


def prepare_message(message: dict, names: dict, empty_content) -> dict:
    role, calls, content = message.get("role"), message.get("tool_calls"), message.get("content")
    if role == "assistant" and calls:
        if isinstance(calls, list):
            calls = [text_arguments(call) for call in calls]
            names.update((call["id"], call["function"].get("name")) for call in calls if isinstance(call, dict)
                         and isinstance(call.get("id"), str) and isinstance(call.get("function"), dict))
        return {**message, "tool_calls": calls, "content": empty_content if content in (None, "") else content}
    if role == "assistant" and content is None:
        return {**message, "content": ""}  # an answer with no text is "" (null goes with tool calls)
    call_id = message.get("tool_call_id")
    if role == "tool" and "name" not in message and isinstance(call_id, str) and isinstance(names.get(call_id), str):
        return {**message, "name": names[call_id]}  # Gemini wants it
    return message


def text_arguments(call):
    """A tool call whose arguments are JSON text (a message from Ollama's native API has an object)."""
    function = call.get("function") if isinstance(call, dict) else None
    if isinstance(function, dict) and isinstance(function.get("arguments"), (dict, list)):
        return {**call, "function": {**function, "arguments": json.dumps(function["arguments"])}}
    return call


def events(body: str):
    """The JSON objects of a server-sent-events body (a streamed answer), up to [DONE]."""
    for line in body.splitlines():
        if line.startswith("data:"):
            data = line[5:].strip()
            if data == "[DONE]":
                return
            try:
                yield bounded_json.loads(data)
            except bounded_json.TooDeep as error:
                raise WireError(f"A streamed event {error}") from None
            except ValueError:
                raise WireError(f"A streamed event is not JSON: {data[:80]!r}") from None


def join(chunks) -> dict:
    """Streamed chat.completion.chunk objects joined into one chat.completion."""
    first, pieces, refusal, calls, finish, usage = None, [], [], [], None, None
    for chunk in chunks:
        if not isinstance(chunk, dict):
            raise WireError("A streamed event is not a JSON object")
        if "error" in chunk:
            problem = chunk["error"].get("message") if isinstance(chunk["error"], dict) else chunk["error"]
            raise StreamError(f"The server reported an error in the stream: {problem}")
        first, usage = first or chunk, chunk.get("usage") or usage
        for choice in chunk.get("choices") or []:
            if not isinstance(choice, dict) or choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta") if isinstance(choice.get("delta"), dict) else {}
            finish = choice.get("finish_reason") or finish
            if isinstance(delta.get("content"), str):
                pieces.append(delta["content"])
            if isinstance(delta.get("refusal"), str):
                refusal.append(delta["refusal"])
            for part in delta.get("tool_calls") or []:
                add_delta(calls, part)
    if first is None:
        raise WireError("The stream ended before its first event: the server may not stream this "
                        "request (llama-cpp-python cannot with tools); ask without stream=True")
    message = {"role": "assistant", "content": "".join(pieces) if pieces else None}
    if refusal:
        message["refusal"] = "".join(refusal)
    if calls:
        message["tool_calls"] = [{key: value for key, value in call.items() if key != "index"} for call in calls]
    return {"id": first.get("id"), "object": "chat.completion", "created": first.get("created"),
            "model": first.get("model"), "usage": usage,
            "choices": [{"index": 0, "message": message, "finish_reason": finish}]}


def add_delta(calls: list, part) -> None:
    """Add one tool-call delta: it starts a new call, or continues the last one at its index."""
    if not isinstance(part, dict):
        raise WireError("A streamed tool call is not an object")
    function = part.get("function") if isinstance(part.get("function"), dict) else {}
    index, id, name = part.get("index", 0), part.get("id"), function.get("name")
    same = [call for call in calls if call["index"] == index]
    last = same[-1] if same else None
    if last is None or (id != last["id"] if id else starts_call(last["function"], name)):
        last = {"index": index, "id": "", "type": "function", "function": {"name": "", "arguments": ""}}
        calls.append(last)
    last["id"] = id if isinstance(id, str) and id else last["id"]
    last["function"]["name"] = name if isinstance(name, str) and name else last["function"]["name"]
    arguments = function.get("arguments")
    if arguments is not None:
        last["function"]["arguments"] += arguments if isinstance(arguments, str) else json.dumps(arguments)


def starts_call(last: dict, name) -> bool:
    """Whether a delta without an id starts a new call after `last` at the same index. Gemini sends
    every call at index 0, and some servers repeat the name in every delta of one call: the same
    name starts a new call only once the last call's arguments are whole JSON."""
    if not name or not last["name"] or name != last["name"]:
        return bool(name and last["name"])
    try:
        bounded_json.loads(last["arguments"])
        return True
    except ValueError:
        return False  # the last call is not finished: this delta continues it


def pieces(text):
    """Cut text into word-sized deltas that join back into exactly the same text."""
    return re.findall(r"\S+\s*|\s+", text) if isinstance(text, str) else [text]


def chunks(response: dict, include_usage: bool = False):
    """The chat.completion.chunk objects a provider would stream for this response."""
    head = {"id": response["id"], "object": "chat.completion.chunk",
            "created": response["created"], "model": response["model"]}
    tail = {"usage": None} if include_usage else {}  # OpenAI sends usage: null until the end

    def chunk(index, delta, finish_reason=None):
        choice = {"index": index, "delta": delta, "logprobs": None, "finish_reason": finish_reason}
        return {**head, "choices": [choice], **tail}

    for choice in response["choices"]:
        n, message = choice["index"], choice["message"]
        content = message.get("content")
        yield chunk(n, {"role": "assistant", "content": "" if isinstance(content, str) else None})
        for piece in pieces(content or ""):
            yield chunk(n, {"content": piece})
        for i, call in enumerate(message.get("tool_calls") or []):
            # A call's first delta carries its id and name; its arguments follow in fragments.
            name, arguments = call["function"]["name"], call["function"].get("arguments") or ""
            yield chunk(n, {"tool_calls": [{"index": i, "id": call.get("id"), "type": "function",
                                            "function": {"name": name, "arguments": ""}}]})
            for piece in pieces(arguments):
                yield chunk(n, {"tool_calls": [{"index": i, "function": {"arguments": piece}}]})
        yield chunk(n, {}, choice["finish_reason"])
    if include_usage:
        yield {**head, "choices": [], "usage": response.get("usage")}
