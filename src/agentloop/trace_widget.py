"""Showing a trace: step through a run's events in a widget, or read them as plain text.

`show_trace()` displays a `TraceViewer`: Previous / Next buttons and a slider, a header
(step, kind, tokens) and the step's full JSON. Its plain-text form is `trace_text()`,
which is also what the widget leaves in a saved notebook for places that cannot render
widgets (GitHub, nbval): deterministic, so a re-run gives the same text.

Only core ipywidgets (HTML, Button, IntSlider, HBox, VBox), imported when a widget is
made, so `trace_text` works even where ipywidgets is not installed.
"""
import html
import json

from . import trace, wire


def trace_text(events=None, width: int = 100) -> str:
    """The whole trace as text: a header line per step, then what the step contained."""
    events = list(trace.events if events is None else events)
    lines = []
    for number in range(1, len(events) + 1):
        lines.append(header(events, number))
        lines += ["    " + clip(line, width) for line in details(events, number)]
    return "\n".join(lines) or "(the trace is empty: run the agent first)"


def header(events, number: int) -> str:
    """`step 2/6 · response · tokens 31 in + 9 out = 40 (run so far 40)`; steps count from 1."""
    event = events[number - 1]
    line = f"step {number}/{len(events)} · {event.kind}"
    usage = tokens(event)
    if usage:
        so_far = sum(total(tokens(earlier)) for earlier in events[:number] if tokens(earlier))
        line += (f" · tokens {usage.get('prompt_tokens', 0)} in + {usage.get('completion_tokens', 0)}"
                 f" out = {total(usage)} (run so far {so_far})")
    if event.kind == "memory" and isinstance(event.payload, dict):
        size = len(event.payload)
        line += f" · {size} {'entry' if size == 1 else 'entries'}"
    return line


def tokens(event) -> dict | None:
    """The `usage` of a response event (prompt, completion, total tokens), else None."""
    usage = event.payload.get("usage") if isinstance(event.payload, dict) else None
    return usage if event.kind == "response" and isinstance(usage, dict) else None


def total(usage: dict) -> int:
    return usage.get("total_tokens") or usage.get("prompt_tokens", 0) + usage.get("completion_tokens", 0)


def details(events, number: int) -> list[str]:
    """The readable lines of one step. No ids and no times, so a re-run prints the same."""
    payload = events[number - 1].payload
    kind = events[number - 1].kind
    if kind == "request" and isinstance(payload, dict):  # the messages as the model saw them
        lines = [message_line(message) for message in payload.get("messages", [])]
        names = [tool.get("function", tool).get("name", "?") for tool in payload.get("tools", [])]
        return lines + ([f"tools offered: {', '.join(names)}"] if names else [])
    if kind == "response" and isinstance(payload, dict):
        choice = (payload.get("choices") or [{}])[0]
        return [message_line(choice.get("message") or {}), f"finish_reason: {choice.get('finish_reason')}"]
    if kind == "memory" and isinstance(payload, dict):
        return memory_lines(events, number)
    if isinstance(payload, dict) and ("function" in payload or "arguments" in payload):
        return [call_text(payload)]  # a tool call, in the OpenAI shape or as {name, arguments}
    if isinstance(payload, dict) and "content" in payload:
        return [f"{payload.get('name') or payload.get('role') or kind}: {text_of(payload['content'])}"]
    return [payload if isinstance(payload, str) else compact(payload)]


def message_line(message: dict) -> str:
    """`user: what is 2+3?`, or `assistant: → add({"a": 2, "b": 3})` for a tool call."""
    parts = [text_of(message["content"])] if message.get("content") else []
    parts += ["→ " + call_text(call) for call in message.get("tool_calls") or []]
    return f"{message.get('role', '?')}: {' '.join(parts) or '(no content)'}"


def call_text(call: dict) -> str:
    function = call.get("function", call)
    arguments = function.get("arguments", "")
    if not isinstance(arguments, str):  # some providers send an object, not a JSON string
        arguments = compact(arguments)
    return f"{function.get('name', '?')}({arguments})"


def memory_lines(events, number: int) -> list[str]:
    """A memory snapshot: its entries, or what changed since the previous snapshot."""
    now = events[number - 1].payload
    earlier = [n for n in range(1, number) if events[n - 1].kind == "memory"]
    before = events[earlier[-1] - 1].payload if earlier else None
    if not isinstance(before, dict):
        return [f"{key}: {compact(value)}" for key, value in now.items()] or ["(empty)"]
    changes = [f"+ {key}: {compact(value)}" for key, value in now.items() if key not in before]
    changes += [f"- {key}: {compact(value)}" for key, value in before.items() if key not in now]
    changes += [f"~ {key}: {compact(before[key])} -> {compact(value)}"
                for key, value in now.items() if key in before and before[key] != value]
    return [f"since step {earlier[-1]}:"] + (changes or ["(no change)"])


def text_of(content) -> str:
    if isinstance(content, (str, list)):  # text, or content parts: one reading of them, wire's
        return wire.text(content) or ""
    return compact(content)  # a tool's result recorded as data


def compact(value) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def clip(line: str, width: int) -> str:
    line = line.replace("\n", "\\n")  # one line per item, so the text stays a table
    return line if width is None or len(line) <= width else line[:width - 1] + "…"


class TraceViewer:
    """Step through events: ◀ Previous, a slider, Next ▶; the step's header and JSON below.

    The slider is the one source of truth for the step shown; the buttons move it.
    """

    def __init__(self, events=None):
        import ipywidgets as widgets  # here, so the text form above never needs ipywidgets
        self.events = list(trace.events if events is None else events)  # a snapshot of the run
        last = max(len(self.events), 1)
        self.previous = widgets.Button(description="◀ Previous", tooltip="the step before")
        self.next = widgets.Button(description="Next ▶", tooltip="the step after")
        self.slider = widgets.IntSlider(value=1, min=1, max=last, description="step",
                                        disabled=not self.events)
        self.title = widgets.HTML()
        self.body = widgets.HTML()
        self.previous.on_click(lambda _: self.go(-1))
        self.next.on_click(lambda _: self.go(+1))
        self.slider.observe(lambda _: self.render(), names="value")
        self.box = widgets.VBox([widgets.HBox([self.previous, self.slider, self.next]),
                                 self.title, self.body])
        self.render()

    @property
    def step(self) -> int:
        return self.slider.value

    def go(self, by: int) -> None:
        self.slider.value = min(max(self.slider.value + by, 1), self.slider.max)

    def render(self) -> None:
        number, count = self.slider.value, len(self.events)
        self.previous.disabled = number <= 1
        self.next.disabled = number >= count
        if not count:
            self.title.value, self.body.value = f"<b>{trace_text([])}</b>", ""
            return
        lines = details(self.events, number)
        full = json.dumps(self.events[number - 1].payload, indent=2, ensure_ascii=False, default=str)
        self.title.value = f"<b>{html.escape(header(self.events, number), quote=False)}</b>"
        self.body.value = (_pre("\n".join(lines), "12em") + "<div>the JSON of this step:</div>"
                           + _pre(full, "30em"))

    def _repr_mimebundle_(self, **kwargs):
        # The widget for Jupyter, and the text form as text/plain: what nbval compares
        # (it skips the widget's random model id) and what a notebook viewer shows.
        bundle = self.box._repr_mimebundle_(**kwargs) or {}
        return {**bundle, "text/plain": trace_text(self.events)}

    def __repr__(self):  # print(viewer), or display() outside Jupyter
        return trace_text(self.events)


def _pre(text: str, height: str) -> str:
    return (f'<pre style="max-height:{height}; overflow:auto; white-space:pre-wrap; margin:4px 0">'
            f"{html.escape(text, quote=False)}</pre>")  # < and & shown, never run


def show_trace(events=None) -> None:
    """Display the trace (default: every event recorded so far) as a widget you can step through.

    Where there is no Jupyter or no ipywidgets, print the text form instead.
    """
    try:
        from IPython.display import display
        viewer = TraceViewer(events)
    except ImportError:
        print(trace_text(events))
        return
    display(viewer)
