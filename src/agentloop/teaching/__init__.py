"""The teaching model: a deterministic, rule-based stand-in for an LLM.

It is not a language model. It reads a real chat-completions request (messages, tools,
tool_choice), picks a reply with a handful of rules (skills.py, tasks.py, chat.py), and
answers in the real chat-completions response shape. The same request always gets the
same response, so every lesson runs offline, with no key, with stable outputs.

Like a real API it rejects malformed requests (raising InvalidRequest, a 400 over HTTP),
including a tool result with no tool call before it, or a tool call left unanswered.
"""
import hashlib
import json
import re

from ..tokens import count_tokens
from . import chat, quirks, skills, tasks, validate
from .skills import Reply, Turn, quoted
from .toolbox import fill, read_tools
from .quirks import TooManyRequests
from .validate import InvalidRequest

MODEL_NAME = "teaching-model"
CREATED = 1767225600  # a fixed timestamp: the same request gives the same response
SKILLS = [skills.relay_question, skills.refuse_harmful, skills.refuse_sensitive, skills.forget_fact,
          skills.answer_about_user, skills.remember_facts, tasks.weather, tasks.clock,
          tasks.schedule, tasks.research, tasks.research_step, tasks.summarise, tasks.count_letter,
          tasks.arithmetic, tasks.text_tool, chat.greet, chat.identity, chat.capital,
          chat.joke, tasks.scheduled, chat.fallback]

__all__ = ["respond", "InvalidRequest", "TooManyRequests", "MODEL_NAME"]


def text_of(message: dict) -> str:
    """A message's text, whether content is a string, null, or a list of parts."""
    content = message.get("content")
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return content or ""


def read_turn(messages: list, tools: list) -> Turn:
    """What the model needs from the conversation: see skills.Turn."""
    users = [i for i, m in enumerate(messages) if m["role"] == "user"]
    last = users[-1] if users else -1
    before = messages[:last] if last >= 0 else messages
    replies = [text_of(m) for m in before if m["role"] == "assistant" and text_of(m)]
    return Turn(
        text=text_of(messages[last]) if last >= 0 else "",
        earlier=[text_of(messages[i]) for i in users[:-1]],
        system="\n".join(text_of(m) for m in messages if m["role"] in ("system", "developer")),
        tools=tools,
        results=[text_of(m) for m in messages[last + 1:] if m["role"] == "tool"],
        last_reply=replies[-1] if replies else "")


def think(turn: Turn) -> Reply:
    return next(reply for skill in SKILLS if (reply := skill(turn)) is not None)


def respond(request: dict, seen: set | None = None) -> dict:
    """Answer one chat-completions request with a chat-completions response.

    A model name with quirks ("teaching-model+empty-ids") writes the answer with a real
    provider's accent (see quirks.py); `seen` remembers conversations already rate-limited."""
    validate.request(request)
    request, quirky = quirks.before(request, seen)
    offered = read_tools(request.get("tools"))
    choice = request.get("tool_choice", "auto")
    if choice == "none":
        offered = []
    elif isinstance(choice, dict):
        offered = [t for t in offered if t.name == choice["function"]["name"]]
    turn = read_turn(request["messages"], offered)
    reply = think(turn)
    if not reply.calls and offered and choice != "auto":  # a tool is required: use one
        numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", turn.text)]
        reply = Reply(calls=[(offered[0].name, fill(offered[0], {"text": quoted(turn.text), "numbers": numbers}))])
    if request.get("parallel_tool_calls") is False:
        reply.calls = reply.calls[:1]
    return quirks.after(quirky, envelope(request, reply))


def envelope(request: dict, reply: Reply) -> dict:
    """The chat.completion object, with ids derived from the request (deterministic)."""
    digest = hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()
    calls = [{"id": "call_" + hashlib.sha256(f"{digest}{i}".encode()).hexdigest()[:24],
              "type": "function",
              "function": {"name": name, "arguments": json.dumps(args)}}
             for i, (name, args) in enumerate(reply.calls)]
    message = {"role": "assistant", "content": None if calls else reply.text, "refusal": None}
    if calls:
        message["tool_calls"] = calls
    prompt = sum(4 + count_tokens(text_of(m)) for m in request["messages"])
    if request.get("tools"):
        prompt += count_tokens(json.dumps(request["tools"]))
    completion = count_tokens(reply.text if not calls else "") + sum(
        count_tokens(c["function"]["name"] + c["function"]["arguments"]) for c in calls)
    return {
        "id": "chatcmpl-" + digest[:24],
        "object": "chat.completion",
        "created": CREATED,
        "model": request["model"],
        "choices": [{"index": 0, "message": message, "logprobs": None,
                     "finish_reason": "tool_calls" if calls else "stop"}],
        "usage": {"prompt_tokens": prompt, "completion_tokens": completion,
                  "total_tokens": prompt + completion},
        "system_fingerprint": "teaching-model-v1",
    }
