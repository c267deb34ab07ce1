"""Tracing: every step of a run becomes an event; `agentloop.show_trace()` draws them.

`ask()` records each model request and response by itself; an agent loop records its
own steps (tool results, memory, tasks) with `record(kind, payload)`.
"""
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
