"""The teaching model: a deterministic, rule-based stand-in for an LLM. Its design: docs/teaching_model.md.

It is not a language model. It reads a real chat-completions request and answers in the real
response shape, in three stages: understand.py (the user's text -> intents with slots, by a small
written grammar), plan.py and tasks.py (intents + the offered tools' schemas -> tool calls or an
answer) and say.py (the words). The same request always gets the same response. Like a real API it
rejects malformed requests (InvalidRequest, a 400 over HTTP); quirks.py gives it providers' accents.
"""
import hashlib
import json
import re

from .. import wire
from ..tokens import count_tokens
from . import grammar, plan, quirks, rules, say, validate
from .quirks import TooManyRequests
from .toolbox import Missing, fill, read_tools
from .understand import quoted
from .validate import InvalidRequest

MODEL_NAME = "teaching-model"
CREATED = 1767225600  # a fixed timestamp: the same request gives the same response
# What it reads of the user's message: its grammar is not linear in the numbers of a question, so one
# request must not hold a CPU (8,000 numbers took 10 s). A real model has a context window too.
MAX_TEXT = 20_000  # characters
MAX_NUMBERS = 200

__all__ = ["respond", "InvalidRequest", "TooManyRequests", "MODEL_NAME"]


def text_of(message: dict) -> str:
    return wire.text(message.get("content")) or ""


def read_turn(messages: list, tools: list) -> plan.Turn:
    """What the model needs from the conversation: see plan.Turn."""
    users = [i for i, m in enumerate(messages) if m["role"] == "user"]
    last = users[-1] if users else -1
    before = messages[:last] if last >= 0 else messages
    replies = [i for i, m in enumerate(before) if m["role"] == "assistant" and text_of(m)]
    since = users[-2] if len(users) > 1 else -1
    system = "\n".join(text_of(m) for m in messages if m["role"] in ("system", "developer"))
    usable = rules.allowed(tools, system)
    return plan.Turn(
        text=grammar.spelled_right(text_of(messages[last])) if last >= 0 else "",  # rule 380: "forgt" is "forget"
        earlier=[grammar.spelled_right(text_of(messages[i])) for i in users[:-1]],
        system=system,
        tools=usable,
        results=[text_of(m) for m in messages[last + 1:] if m["role"] == "tool"],
        calls=[[arguments(c) | {"": c["function"]["name"]} for c in m["tool_calls"]] for m in messages[last + 1:]
               if m["role"] == "assistant" and m.get("tool_calls")],
        last_reply=text_of(before[replies[-1]]) if replies else "",
        asked_because=" ".join(text_of(m) for m in before[since + 1:] if m["role"] == "tool"),
        withheld=[t for t in tools if t not in usable],
        replies=[text_of(before[i]) for i in replies],
        exchanges=[(text_of(messages[i]), [text_of(m) for m in messages[i + 1:after] if m["role"] == "tool"])
                   for i, after in zip(users, users[1:])])


def arguments(call: dict) -> dict:
    """A tool call's arguments as a dict ({} when they are not a JSON object)."""
    try:
        parsed = json.loads(call["function"].get("arguments") or "{}")
    except (TypeError, ValueError):
        return {}
    return parsed if isinstance(parsed, dict) else {}


def respond(request: dict, seen: set | None = None) -> dict:
    """Answer one chat-completions request with a chat-completions response.

    A model name with quirks ("teaching-model+empty-ids") writes the answer with a real
    provider's accent (see quirks.py); `seen` remembers conversations already rate-limited."""
    validate.request(request)
    request, quirky = quirks.before(request, seen)
    offered = read_tools(request.get("tools"))
    choice = request.get("tool_choice") or "auto"  # null means auto, as it does for OpenAI
    if choice == "none":
        offered = []
    elif isinstance(choice, dict):
        offered = [t for t in offered if t.name == choice["function"]["name"]]
    messages = request["messages"]
    if answer_now(messages):  # out of steps, the loop asked for the answer: the question, from the results so far
        messages, offered = messages[:-1], []
    turn = read_turn(messages, offered)
    text, calls = too_much(turn.text) or answer(turn)
    if not calls and offered and choice != "auto":  # a tool is required: use one
        numbers = [float(n) for n in re.findall(r"-?\d+(?:\.\d+)?", turn.text)]
        try:
            text, calls = None, [(offered[0].name, fill(offered[0], {"text": quoted(turn.text), "numbers": numbers}))]
        except Missing as missing:
            text = say.missing(offered[0].kind, missing.param)
    if request.get("parallel_tool_calls") is False:
        calls = calls[:1]
    return quirks.after(quirky, envelope(request, text, calls))


FINISH = (r"\b(?:answer|reply|respond|finish|wrap up)\b.*\b(?:now|what you have|so far)\b|\bfinal answer\b|\bbest answer\b|"
          r"\b(?:stop|no more|without|don't|do not)\b.*\b(?:tools?|calls?|steps?)\b|\bout of (?:steps|turns|time)\b")


def answer_now(messages: list) -> bool:
    """A user message right after tool results that asks for the answer as it stands (smolagents' final step)."""
    return (len(messages) > 2 and messages[-1].get("role") == "user" and messages[-2].get("role") == "tool"
            and re.search(FINISH, text_of(messages[-1]), re.I) is not None)


def too_much(text: str) -> tuple | None:
    """An honest reply, with no tool call, to a message longer than the model reads."""
    numbers = len(re.findall(r"\d+", text))
    if numbers > MAX_NUMBERS:
        return (f"Your message has {numbers:,} numbers, and I work with at most {MAX_NUMBERS} in one question. "
                "Please split it up, or give your agent a tool that takes a list."), []
    if len(text) > MAX_TEXT:
        return (f"Your message is {len(text):,} characters long, and I read at most {MAX_TEXT:,} in one "
                "message. Please send a shorter one."), []
    return None


def answer(turn: plan.Turn) -> tuple:
    """plan.answer, or an honest reply where its grammar would go too deep."""
    try:
        return plan.answer(turn)
    except RecursionError:
        return "That question is nested too deeply for me to read. Please ask it in smaller steps.", []


def envelope(request: dict, text: str | None, calls: list) -> dict:
    """The chat.completion object, with ids derived from the request (deterministic)."""
    digest = hashlib.sha256(json.dumps(request, sort_keys=True).encode()).hexdigest()
    calls = [{"id": quirks.call_id(digest, i), "type": "function",
              "function": {"name": name, "arguments": json.dumps(args)}}
             for i, (name, args) in enumerate(calls)]
    message = {"role": "assistant", "content": None if calls else text, "refusal": None}
    if calls:
        message["tool_calls"] = calls
    prompt = sum(4 + count_tokens(text_of(m)) for m in request["messages"])
    if request.get("tools"):
        prompt += count_tokens(json.dumps(request["tools"]))
    completion = count_tokens(text if not calls else "") + sum(
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
