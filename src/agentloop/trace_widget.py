"""The trace view: a run drawn as a sequence, in lanes for the user, the model and the tools.

Each model call is a box (tokens in and out, finish reason, tools offered), its tool calls
boxes beside it in the tools lane, the system prompt's changes (the memory injected) marked.
Step or play through the calls (buttons, or the slider's arrow keys); each step shows what
its request added, the full JSON one click away. Plain HTML from core ipywidgets, nothing
fetched; where widgets cannot render, the run prints as `trace_run.text()`.
"""
import html
import json

from . import trace, trace_run

STYLE = """<style>
.al-trace { font: 13px/1.35 var(--jp-ui-font-family, sans-serif); }
.al-lanes { display: grid; grid-template-columns: 1fr 1.2fr 1.6fr; column-gap: 6px; align-items: stretch; }
.al-lanes > div { padding: 2px 0; }
.al-lanes > div + div { border-left: 1px dashed var(--jp-border-color2, #bbb); padding-left: 6px; }  /* lifelines */
.al-head { font-weight: bold; border-bottom: 1px solid var(--jp-border-color1, #888); }
.al-box { border: 1px solid var(--jp-border-color1, #888); border-radius: 4px; padding: 3px 6px; overflow-wrap: anywhere; }
.al-now .al-call { border: 3px double var(--jp-brand-color1, #1565c0); }
.al-tools { display: flex; flex-wrap: wrap; gap: 6px; }
.al-tool { flex: 1 1 12em; }
.al-memory, .al-note { border-style: dashed; }
.al-later { opacity: 0.6; }
.al-detail pre { max-height: 24em; overflow: auto; white-space: pre-wrap; }
</style>"""


def escape(text: str, width: int = 240) -> str:
    return html.escape(text if len(text) <= width else text[:width - 1] + "…", quote=False)


def lanes(user: str = "", model: str = "", tools: str = "") -> str:
    return f'<div class="al-lanes"><div>{user}</div><div>{model}</div><div>{tools}</div></div>'


def drawing(calls: list, before: list, step: int) -> str:
    """The whole run in lanes, a section per model call; the one at `step` marked as now."""
    notes = [lanes(model=f'<div class="al-box al-note">{escape(note)}</div>') for note in before]
    sections = [section(call, step) for call in calls]
    return (f'{STYLE}<div class="al-trace" role="group" aria-label="the run, drawn">'
            f'{lanes("user", "model", "tools").replace("al-lanes", "al-lanes al-head")}{"".join(notes + sections)}</div>')


def section(call, step: int) -> str:
    """One model call: what the user said, the system prompt's changes, the call and its tools, the reply."""
    now = call.number == step
    said = [m for m in call.added if m.get("role") in ("system", "user")]
    rows = [lanes(f'<div class="al-box al-user">{escape(trace_run.message_line(m))} →</div>') for m in said]
    if call.system:
        changes = "<br>".join(escape(line) for line in call.system)
        rows.append(lanes(model=f'<div class="al-box al-memory"><b>system prompt changed</b><br>{changes}</div>'))
    tools = "".join(f'<div class="al-box al-tool" data-name="{html.escape(t.name)}">→ <b>{escape(t.name)}</b>'
                    f'({escape(t.arguments)})<br>← {escape("(no result)" if t.result is None else t.result)}</div>'
                    for t in call.tools)
    box = (f'<div class="al-box al-call" data-in="{call.tokens_in}" data-out="{call.tokens_out}">'
           f'{"▶ now: " if now else ""}<b>model call {call.number}</b><br>{call.tokens_in} tokens in, '
           f'{call.tokens_out} out<br>finish: {escape(call.finish)}<br>offered: '
           f'{escape(", ".join(call.offered) or "no tools")}</div>')
    rows.append(lanes(model=box, tools=f'<div class="al-tools">{tools}</div>'))
    if call.reply:
        rows.append(lanes(f'<div class="al-box al-reply">← assistant: {escape(call.reply)}</div>'))
    rows += [lanes(model=f'<div class="al-box al-note">{escape(note)}</div>') for note in call.notes]
    kind = "al-step al-now" if now else "al-step al-later" if call.number > step else "al-step"
    current = ' aria-current="step"' if now else ""
    return f'<section class="{kind}"{current} data-step="{call.number}">{"".join(rows)}</section>'


def detail(events: list, calls: list, step: int) -> str:
    """The step shown: the running total, what its request added, and its JSON (collapsed)."""
    call = calls[step - 1]
    so_far = trace_run.totals_line(trace_run.totals(events[:call.upto]))
    since = "(a new conversation)" if call.anew else f"since model call {step - 1}"
    added = "".join(f"<li>{escape(trace_run.message_line(m), 400)}</li>" for m in call.added) or "<li>nothing</li>"
    full = json.dumps({"request": call.request, "response": call.response}, indent=2, ensure_ascii=False, default=str)
    return (f'<div class="al-detail al-trace" aria-live="polite"><p><b>Model call {step} of {len(calls)}</b>'
            f' · so far: {so_far}</p><p>What the request added {since}:</p><ol>{added}</ol><details>'
            f"<summary>The full request and response (JSON)</summary><pre>{html.escape(full, quote=False)}</pre>"
            "</details></div>")


class TraceView:
    """The run drawn, with ◀ Previous, Play, a slider and Next ▶ to step through its model calls.

    The slider is the one source of truth for the step shown; the buttons and Play move it.
    """

    def __init__(self, events=None):
        import ipywidgets as widgets  # here, so the text form never needs ipywidgets
        self.events = list(trace.events if events is None else events)  # a snapshot of the run
        self.calls, self.before = trace_run.read(self.events)
        last = max(len(self.calls), 1)
        self.previous = widgets.Button(description="◀ Previous", tooltip="the model call before")
        self.next = widgets.Button(description="Next ▶", tooltip="the next model call")
        self.play = widgets.Play(value=1, min=1, max=last, interval=1500, description="Play", show_repeat=False)
        self.slider = widgets.IntSlider(value=1, min=1, max=last, description="model call",
                                        disabled=not self.calls, continuous_update=False)
        widgets.jslink((self.play, "value"), (self.slider, "value"))  # in the page: plays while the kernel is busy
        self.drawing, self.detail = widgets.HTML(), widgets.HTML()
        self.previous.on_click(lambda _: self.go(-1))
        self.next.on_click(lambda _: self.go(+1))
        self.slider.observe(lambda _: self.render(), names="value")
        self.box = widgets.VBox([widgets.HBox([self.previous, self.play, self.slider, self.next]),
                                 self.drawing, self.detail])
        self.render()

    @property
    def step(self) -> int:
        return self.slider.value

    def go(self, by: int) -> None:
        self.slider.value = min(max(self.slider.value + by, 1), self.slider.max)

    def render(self) -> None:
        self.previous.disabled = self.step <= 1
        self.next.disabled = self.step >= len(self.calls)
        self.drawing.value = drawing(self.calls, self.before, self.step)
        self.detail.value = detail(self.events, self.calls, self.step) if self.calls else \
            f"<p>{escape(trace_run.text(self.events))}</p>"

    def _repr_mimebundle_(self, **kwargs):
        # The widget for Jupyter, the text form as text/plain: what nbval compares (it ignores the
        # widget's random model id) and what a notebook viewer without widgets shows.
        return {**(self.box._repr_mimebundle_(**kwargs) or {}), "text/plain": repr(self)}

    def __repr__(self):  # print(view), or display() outside Jupyter
        return trace_run.text(self.events)


def show_trace(events=None) -> None:
    """Draw the run (default: every event recorded so far) and step through its model calls.

    Where there is no Jupyter or no ipywidgets, print the text form instead.
    """
    try:
        from IPython.display import display
        view = TraceView(events)
    except ImportError:
        print(trace_run.text(events))
        return
    display(view)
