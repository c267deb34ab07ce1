"""A run read from its trace events: the model calls in order, what each was sent and what it did.

A model call is a request and its response (`ask` and `complete` record both). Its tool calls
come from the response, their results from the next request (matched by id) or, after the last
call, from the `tool_result` events the loop recorded. A `tool_call` or `final` event that repeats
what the response shows is not drawn twice; any other event (memory, task, retry) is a note after
the call it followed. `text()` is the run as short lines that a re-run repeats.
"""
import json
from dataclasses import dataclass, field

from . import trace, wire


@dataclass
class ToolCall:
    id: str
    name: str
    arguments: str       # as the model sent them: JSON text
    result: str | None   # what the agent sent back; None if it never did


@dataclass
class Call:
    number: int
    anew: bool           # the request starts a conversation: nothing carried from the one before
    added: list          # the messages this request added to the one before (all, if it starts anew)
    system: list         # how the system prompt changed since the request before: "added: line", "removed: line"
    offered: list        # the names of the tools offered
    tokens_in: int
    tokens_out: int
    finish: str
    reply: str           # the text the model answered ("" when it only called tools)
    tools: list
    request: dict
    response: dict
    upto: int            # how many of the run's events had happened once this call answered
    notes: list = field(default_factory=list)  # what else was recorded before the next call


def read(events=None) -> tuple[list, list]:
    """The model calls of a run, and the notes recorded before the first of them."""
    calls, before, request, previous, memory = [], [], {}, {}, None
    for index, event in enumerate(trace.events if events is None else events):
        payload = event.payload if isinstance(event.payload, dict) else {}
        notes = calls[-1].notes if calls else before
        if event.kind == "request":
            request = payload
        elif event.kind == "response":
            calls.append(model_call(len(calls) + 1, previous, request, payload, index + 1))
            previous, request = request or previous, {}
        elif event.kind == "tool_result":
            waiting = [t for t in calls[-1].tools if t.result is None and t.name == payload.get("name")] if calls else []
            if waiting:
                waiting[0].result = text_of(payload.get("content"))
        elif event.kind == "tool_call" and calls and any(t.name == payload.get("name") for t in calls[-1].tools):
            pass  # the loop's record of a call the response already shows: drawn once, as the tool line
        elif event.kind == "final" and calls and text_of(payload.get("content")) == calls[-1].reply:
            pass  # the loop's record of the answer the last response already shows
        elif event.kind == "memory" and isinstance(event.payload, dict):
            notes.append("memory: " + memory_change(memory, event.payload))
            memory = event.payload
        else:
            notes.append(f"{event.kind}: {text_of(payload.get('content', event.payload))}")
    for call, after in zip(calls, calls[1:]):  # a result as the next request carried it to the model
        sent = {m.get("tool_call_id"): m.get("content") for m in after.added if m.get("role") == "tool"}
        for tool in call.tools:
            tool.result = text_of(sent[tool.id]) if tool.id in sent else tool.result
    return calls, before


def model_call(number: int, previous: dict, request: dict, response: dict, upto: int) -> Call:
    """One request and its response, set against the request before it."""
    messages, earlier = request.get("messages", []), previous.get("messages", [])
    # The same conversation, carried on: the earlier messages again (a system prompt may differ).
    system = 1 if earlier and messages and earlier[0].get("role") == messages[0].get("role") == "system" else 0
    goes_on = bool(earlier) and [key(m) for m in messages[system:len(earlier)]] == [key(m) for m in earlier[system:]]
    choice = (response.get("choices") or [{}])[0]
    message, usage = choice.get("message") or {}, response.get("usage") or {}
    tools = [ToolCall(call.get("id"), call.get("function", {}).get("name", "?"), arguments(call), None)
             for call in message.get("tool_calls") or []]
    return Call(number, not goes_on, messages[len(earlier):] if goes_on else messages,
                system_change(earlier, messages) if goes_on else [],
                [tool.get("function", tool).get("name", "?") for tool in request.get("tools", [])],
                usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0), str(choice.get("finish_reason")),
                text_of(message.get("content")), tools, request, response, upto)


def totals(events=None) -> dict:
    """The running total of a run: model calls, tool calls and tokens (from each response's usage)."""
    calls, _ = read(events)
    tokens_in, tokens_out = sum(c.tokens_in for c in calls), sum(c.tokens_out for c in calls)
    return {"model_calls": len(calls), "tool_calls": sum(len(c.tools) for c in calls),
            "prompt_tokens": tokens_in, "completion_tokens": tokens_out, "total_tokens": tokens_in + tokens_out}


def totals_line(total: dict) -> str:
    """`3 model calls, 2 tool calls, 1341 tokens (1308 in, 33 out)`."""
    def count(n, what):
        return f"{n} {what}{'' if n == 1 else 's'}"
    return (f"{count(total['model_calls'], 'model call')}, {count(total['tool_calls'], 'tool call')}, "
            f"{total['total_tokens']} tokens ({total['prompt_tokens']} in, {total['completion_tokens']} out)")


def text(events=None, width: int = 110) -> str:
    """The run as text: the totals, then what the user said, each model call, its tools and answer."""
    events = list(trace.events if events is None else events)
    calls, before = read(events)
    if not calls and not before:
        return "(the trace is empty: run the agent first)"
    lines, offered = [totals_line(totals(events)), *before], None
    for call in calls:
        lines += [message_line(m) for m in call.added if m.get("role") in ("system", "user")]
        lines += ["system prompt changed:", *(f"  {change}" for change in call.system)] if call.system else []
        lines.append(f"model call {call.number}: {call.tokens_in} in, {call.tokens_out} out, finish {call.finish}"
                     + (f", offered {', '.join(call.offered) or 'no tools'}" if call.offered != offered else ""))
        offered = call.offered
        lines += [f"  tool {t.name}({t.arguments}) -> {'(no result)' if t.result is None else t.result}" for t in call.tools]
        lines += [f"assistant: {call.reply}"] if call.reply else []
        lines += call.notes
    return "\n".join(clip(line, width) for line in lines)


def message_line(message: dict) -> str:
    """`user: what is 2+3?`, or `assistant: → add({"a": 2, "b": 3})` for a tool call."""
    parts = [text_of(message.get("content"))] if message.get("content") else []
    parts += [f"→ {c.get('function', {}).get('name', '?')}({arguments(c)})" for c in message.get("tool_calls") or []]
    return f"{message.get('role', '?')}: {' '.join(parts) or '(no content)'}"


def key(message: dict) -> str:
    return json.dumps(message, sort_keys=True, default=str)


def system_change(earlier: list, messages: list) -> list:
    """The lines the system prompt gained ("added: ...") and lost ("removed: ...") between two requests."""
    def lines(messages):
        first = messages[0] if messages else {}
        text = text_of(first.get("content")) if first.get("role") == "system" else ""
        return [line for line in text.splitlines() if line.strip()]
    old, new = lines(earlier), lines(messages)
    return [f"added: {line}" for line in new if line not in old] + [f"removed: {line}" for line in old if line not in new]


def memory_change(before: dict | None, now: dict) -> str:
    """A memory snapshot as what changed since the one before it (all of it, for the first)."""
    if before is None:
        return ", ".join(f"{k} = {text_of(v)}" for k, v in now.items()) or "(empty)"
    changes = [f"added {k} = {text_of(v)}" for k, v in now.items() if k not in before]
    changes += [f"changed {k} = {text_of(v)}" for k, v in now.items() if k in before and before[k] != v]
    changes += [f"removed {k}" for k in before if k not in now]
    return ", ".join(changes) or "(no change)"


def arguments(call: dict) -> str:
    return wire.text_arguments(call).get("function", {}).get("arguments", "")


def text_of(content) -> str:
    """Message content (text or text parts), or a value recorded as data, as text."""
    if isinstance(content, str) or content is None:
        return content or ""
    if isinstance(content, list) and all(isinstance(part, dict) and part.get("type") == "text" for part in content):
        return wire.text(content)
    return json.dumps(content, ensure_ascii=False, default=str)


def clip(line: str, width: int) -> str:
    line = line.replace("\n", "\\n")  # one line per item, so the text stays a list
    return line if len(line) <= width else line[:width - 1] + "…"
