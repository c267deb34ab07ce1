"""Tracing: every step of a run becomes an event you can print or step through.

`ask()` records each model request and response by itself; an agent loop records its
own steps (tool calls, tool results, the final answer) with `record(kind, payload)`.
"""
import json
import time
from dataclasses import dataclass, field


@dataclass
class Event:
    kind: str        # "request", "response", "tool_call", "tool_result", "final", ...
    payload: object  # the JSON-shaped data of that step
    time: float = field(default_factory=time.time)


events: list[Event] = []


def record(kind: str, payload) -> Event:
    """Add one event to the trace and return it."""
    event = Event(kind, payload)
    events.append(event)
    return event


def clear() -> None:
    """Forget every event (start a fresh trace)."""
    events.clear()


def summary(event: Event, width: int = 100) -> str:
    """One line: the kind and the start of its JSON."""
    text = json.dumps(event.payload, ensure_ascii=False)
    return f"{event.kind:<12} {text[:width] + ('…' if len(text) > width else '')}"


def show(selected: list[Event] | None = None, width: int = 100) -> None:
    """Print the trace, one numbered line per event (no times, so output is stable)."""
    for number, event in enumerate(events if selected is None else selected, 1):
        print(f"{number:>3}. {summary(event, width)}")
