"""Quirk modes: the teaching model with a real provider's accent, chosen by the model name.

    agentloop.use(model="teaching-model+object-arguments+empty-ids")
    agentloop.use("http://127.0.0.1:8080/v1", model="teaching-model+rate-limit-once")

Quirks combine with "+". Each reproduces one way real OpenAI-compatible servers differ on the
wire, so a client (and a lesson's loop) can be tested against all of them offline. What the
model decides is unchanged: only how the answer is written, or what the server refuses.
"""
import hashlib
import json
import math

from ..wire import new_id
from .validate import InvalidRequest

BASE = "teaching-model"
QUIRKS = {
    "object-arguments": "tool-call arguments as a JSON object, not a string (Ollama's native API; "
                        "llama.cpp for a while)",
    "empty-ids": 'tool calls with id "" (Gemini\'s OpenAI endpoint, LM Studio, llama.cpp)',
    "no-ids": "tool calls with no id at all",
    "stop-with-tools": 'finish_reason "stop" beside tool calls (OpenAI when a tool is forced; Ollama)',
    "empty-content": 'content "" beside tool calls, and a 400 for null content in a request (Ollama\'s /v1)',
    "null-content": 'a 400 for empty ("") content in a request (endpoints backed by Bedrock)',
    "invalid-json-once": "the first tool call after each question has its arguments cut short (not JSON); "
                         "when that error comes back as the tool result, the call is made again, whole",
    "rate-limit-once": "a conversation's first request gets a 429 with Retry-After; the retry succeeds",
    "index-zero-stream": "streamed tool calls all at index 0 (Gemini)",
}
RETRY_AFTER = 0.2  # seconds: short, so tests and lessons do not wait long
SEEN: set = set()  # conversations already refused once in this process (each server keeps its own)


def call_id(digest: str, index: int) -> str:
    """A tool call's id, derived from the request: wire.new_id, the one id generator."""
    return new_id(digest, index)


class TooManyRequests(Exception):
    """A 429: try again after `retry_after` seconds."""

    def __init__(self, retry_after: float = RETRY_AFTER):
        super().__init__(f"Rate limit reached for requests. Please try again in {retry_after * 1000:.0f}ms.")
        self.retry_after = retry_after
        # As OpenAI sends them: whole seconds, and milliseconds; a page may read them (CORS).
        self.headers = {"Retry-After": str(math.ceil(retry_after)), "retry-after-ms": str(round(retry_after * 1000)),
                        "Access-Control-Expose-Headers": "Retry-After, retry-after-ms"}


class UnknownModel(InvalidRequest):
    status = 404  # what a real API answers for a model it does not have


def read(model) -> list:
    """The quirks a model name asks for ([] for plain names); an unknown quirk is a 404."""
    if not isinstance(model, str) or not model.startswith(BASE + "+"):
        return []
    names = model.split("+")[1:]
    for name in names:
        if name not in QUIRKS:
            raise UnknownModel(f"The model '{model}' does not exist: there is no quirk {name!r}. "
                               f"Known quirks: {', '.join(QUIRKS)}.")
    return names


def before(request: dict, seen: set | None = None):
    """Refuse what these providers refuse; return (the request the model reads, the state for `after`)."""
    names = read(request["model"])
    state = {"names": names, "request": request, "broken": False}
    for i, message in enumerate(request["messages"]):
        if message.get("role") == "assistant" and message.get("tool_calls"):
            if "empty-content" in names and message.get("content") is None:
                raise InvalidRequest(f"invalid message content type: <nil> (messages[{i}].content)")
            if "null-content" in names and message.get("content") == "":
                raise InvalidRequest(f"The content field in the Message object at messages.{i} is empty. "
                                     "Add a ContentBlock object to the content field and try again.")
    if "rate-limit-once" in names:
        seen = SEEN if seen is None else seen
        first_user = next((i for i, m in enumerate(request["messages"]) if m["role"] == "user"), 0)
        conversation = json.dumps([request["model"], request["messages"][:first_user + 1]], sort_keys=True)
        if conversation not in seen:
            seen.add(conversation)
            raise TooManyRequests()
    if "invalid-json-once" in names:
        request, state["broken"] = forget_broken_call(request)
    return request, state


def forget_broken_call(request: dict):
    """Drop a broken call (and its error) made since the last question, so the model makes it again."""
    messages = request["messages"]
    last_user = max((i for i, m in enumerate(messages) if m["role"] == "user"), default=-1)
    broken = set()
    for message in messages[last_user + 1:]:
        calls = message.get("tool_calls") or [] if message["role"] == "assistant" else []
        if any(not parses(call.get("function", {}).get("arguments")) for call in calls):
            broken |= {call.get("id") for call in calls}
    if not broken:
        return request, False
    kept = [m for i, m in enumerate(messages) if i <= last_user or not (
        (m["role"] == "assistant" and any(c.get("id") in broken for c in m.get("tool_calls") or []))
        or (m["role"] == "tool" and m.get("tool_call_id") in broken))]
    return {**request, "messages": kept}, True


def after(state: dict, response: dict) -> dict:
    """Write the model's answer with these providers' accents."""
    names, choice = state["names"], response["choices"][0]
    message = choice["message"]
    calls = message.get("tool_calls") or []
    if calls and "invalid-json-once" in names:
        if not state["broken"]:
            calls[0]["function"]["arguments"] = calls[0]["function"]["arguments"][:-1]  # cut short
        else:  # new ids: the model's own are derived from the request it read, the broken call's too
            digest = hashlib.sha256(json.dumps(state["request"], sort_keys=True).encode()).hexdigest()
            for i, call in enumerate(calls):
                call["id"] = call_id(digest, i)
    for call in calls:
        if "object-arguments" in names and parses(call["function"]["arguments"]):
            call["function"]["arguments"] = json.loads(call["function"]["arguments"])
        if "empty-ids" in names:
            call["id"] = ""
        if "no-ids" in names:
            del call["id"]
    if calls and "stop-with-tools" in names:
        choice["finish_reason"] = "stop"
    if calls and "empty-content" in names:
        message["content"] = ""
    return response


def restream(model: str, chunks) -> list:
    """The streamed chunks, with every tool call at index 0 under `index-zero-stream`."""
    chunks = list(chunks)
    if "index-zero-stream" in read(model):
        for chunk in chunks:
            for choice in chunk["choices"]:
                for part in choice["delta"].get("tool_calls") or []:
                    part["index"] = 0
    return chunks


def parses(arguments) -> bool:
    try:
        json.loads(arguments)
        return True
    except (TypeError, ValueError):
        return False
