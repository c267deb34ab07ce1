"""The trace and its one view: events recorded, read into model calls, drawn, and printed as text.

The oracle is the events themselves: a real run of the lesson loop on the teaching model, whose
responses' usage and tool calls the text form, the totals and the drawing must add up to. The
widget is a real ipywidgets object; its buttons are pressed with `.click()`, the handlers a
browser click runs. The last tests run notebooks in a real kernel, as nbval does.
"""
import html.parser
import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from lesson_loop import run_agent

import agentloop
from agentloop import trace, trace_run
from agentloop.trace import Event
from agentloop.trace_widget import TraceView, show_trace

LESSONS = Path(__file__).resolve().parent.parent / "lessons"


def call(id_, name, arguments):
    return {"id": id_, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}


def response(content=None, calls=(), tokens=(10, 2), finish=None):
    message = {"role": "assistant", "content": content, **({"tool_calls": list(calls)} if calls else {})}
    return Event("response", {"id": "chatcmpl-x", "created": 1700000000, "choices": [{
        "index": 0, "finish_reason": finish or ("tool_calls" if calls else "stop"), "message": message}],
        "usage": {"prompt_tokens": tokens[0], "completion_tokens": tokens[1], "total_tokens": sum(tokens)}})


def request(*messages, tools=("add",)):
    return Event("request", {"model": "teaching-model", "messages": list(messages),
                             "tools": [{"type": "function", "function": {"name": n, "parameters": {}}} for n in tools]})


SYSTEM = {"role": "system", "content": "Be <b>brief</b> & kind."}
USER = {"role": "user", "content": "What is 2+3 and 4+5?"}
TWO = [call("c1", "add", {"a": 2, "b": 3}), call("c2", "add", {"a": 4, "b": 5})]


def two_calls_in_one_turn():
    """Two tool calls side by side, their results sent back in the other order; then the answer."""
    first = {"role": "assistant", "content": None, "tool_calls": TWO}
    results = [{"role": "tool", "tool_call_id": "c2", "content": "9"}, {"role": "tool", "tool_call_id": "c1", "content": "5"}]
    return [request(SYSTEM, USER), response(calls=TWO, tokens=(31, 9)),
            Event("memory", {"name": "Ada"}),
            request({**SYSTEM, "content": "Be <b>brief</b> & kind.\nMemory: name=Ada"}, USER, first, *results),
            response("5 and 9", tokens=(50, 7))]


@pytest.fixture(autouse=True)
def fresh_trace():
    trace.clear()
    yield
    trace.clear()


@pytest.fixture
def lesson_run():
    """A real run of the lesson's loop on the teaching model: its events, and the loop's own record."""
    run = run_agent("What is (3 + 4) * 5?")
    return list(trace.events), run


# --- recording --------------------------------------------------------------------------

def test_record_appends_an_event_and_clear_forgets_them():
    first = trace.record("final", "done")
    second = trace.record("memory", {"name": "Ada"})
    assert trace.events == [first, second]
    assert (first.kind, first.payload) == ("final", "done")
    assert second.time >= first.time > 0
    trace.clear()
    assert trace.events == []


# --- a run read into model calls --------------------------------------------------------

def test_a_real_run_reads_as_its_responses_say(lesson_run):
    events, run = lesson_run
    responses = [e.payload for e in events if e.kind == "response"]
    calls, before = trace_run.read(events)
    assert len(calls) == len(responses) == run.turns >= 3 and before == []
    for model_call, answer in zip(calls, responses):
        assert (model_call.tokens_in, model_call.tokens_out) == (answer["usage"]["prompt_tokens"], answer["usage"]["completion_tokens"])
        sent = answer["choices"][0]["message"].get("tool_calls") or []
        assert [(t.name, t.arguments) for t in model_call.tools] == [(c["function"]["name"], c["function"]["arguments"]) for c in sent]
    assert [(t.name, t.arguments, t.result) for c in calls for t in c.tools] == run.calls  # the loop's own record
    assert calls[-1].reply == run.answer and calls[-1].finish == "stop"


def test_totals_add_up_the_responses_usage(lesson_run):
    events, run = lesson_run
    usage = [e.payload["usage"] for e in events if e.kind == "response"]
    totals = agentloop.trace_totals(events)
    assert totals == {"model_calls": run.turns, "tool_calls": len(run.calls),
                      "prompt_tokens": sum(u["prompt_tokens"] for u in usage),
                      "completion_tokens": sum(u["completion_tokens"] for u in usage),
                      "total_tokens": sum(u["total_tokens"] for u in usage)}
    assert agentloop.trace_totals() == totals  # default: the recorded trace


def test_each_request_shows_what_it_added():
    calls, _ = trace_run.read(two_calls_in_one_turn())
    assert calls[0].anew and calls[0].added == [SYSTEM, USER]
    assert not calls[1].anew and [m["role"] for m in calls[1].added] == ["assistant", "tool", "tool"]
    assert calls[1].system == ["added: Memory: name=Ada"]  # the memory injected, marked where it changed
    assert [(t.name, t.result) for t in calls[0].tools] == [("add", "5"), ("add", "9")]  # by id, not by order
    assert calls[0].notes == ["memory: name = Ada"]


def test_a_new_conversation_is_not_read_as_a_continuation():
    events = [request(SYSTEM, USER), response("5"), request(SYSTEM, {"role": "user", "content": "hi"}), response("hello")]
    calls, _ = trace_run.read(events)
    assert calls[1].anew and calls[1].added == events[2].payload["messages"] and calls[1].system == []


def test_a_request_without_a_system_prompt_is_compared_from_its_first_message():
    events = [request(USER), response("9"), request({"role": "user", "content": "hi"}), response("hello"),
              request({"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}, USER), response("9")]
    calls, _ = trace_run.read(events)
    assert calls[1].anew and calls[1].added == [{"role": "user", "content": "hi"}]
    assert not calls[2].anew and calls[2].added == [{"role": "assistant", "content": "hello"}, USER]


def test_results_after_the_last_call_come_from_the_loops_events():
    events = [request(USER), response(calls=TWO), Event("tool_result", {"name": "add", "content": "5"}),
              Event("tool_result", {"name": "add", "content": "9"})]
    calls, _ = trace_run.read(events)
    assert [t.result for t in calls[0].tools] == ["5", "9"]
    calls, _ = trace_run.read(events[:2])
    assert [t.result for t in calls[0].tools] == [None, None]


def test_memory_changes_between_snapshots():
    events = [Event("memory", {"name": "Ada", "city": "Paris", "tz": 1}), request(USER), response("ok"),
              Event("memory", {"name": "Ada", "city": "Rome", "pet": "cat"}),
              Event("memory", {"name": "Ada", "city": "Rome", "pet": "cat"})]
    calls, before = trace_run.read(events)
    assert before == ["memory: name = Ada, city = Paris, tz = 1"]
    assert calls[0].notes == ["memory: added pet = cat, changed city = Rome, removed tz", "memory: (no change)"]


def test_provider_quirks_are_shown_not_crashed_on():
    quirky = {"choices": [{"finish_reason": "stop", "message": {"role": "assistant", "content": None,
              "tool_calls": [{"id": "", "function": {"name": "add", "arguments": {"a": 1}}}]}}]}
    text = trace_run.text([Event("response", quirky), Event("response", {}), Event("odd", {1, 2}), Event("task", {"content": "x"})])
    assert 'tool add({"a": 1})' in text  # arguments as an object, not a string
    assert "model call 2: 0 in, 0 out, finish None" in text
    assert "odd: " in text and text.endswith("task: x")


# --- the text form ----------------------------------------------------------------------

def test_text_form_of_a_run():
    assert trace_run.text(two_calls_in_one_turn()) == """\
2 model calls, 2 tool calls, 97 tokens (81 in, 16 out)
system: Be <b>brief</b> & kind.
user: What is 2+3 and 4+5?
model call 1: 31 in, 9 out, finish tool_calls, offered add
  tool add({"a": 2, "b": 3}) -> 5
  tool add({"a": 4, "b": 5}) -> 9
memory: name = Ada
system prompt changed:
  added: Memory: name=Ada
model call 2: 50 in, 7 out, finish stop
assistant: 5 and 9"""


def test_text_form_of_a_real_run_counts_what_the_events_hold(lesson_run):
    events, run = lesson_run
    lines = trace_run.text(events).splitlines()
    assert lines[0] == trace_run.totals_line(agentloop.trace_totals(events))
    model_lines = [line for line in lines if line.startswith("model call ")]
    assert len(model_lines) == run.turns and len([line for line in lines if line.startswith("  tool ")]) == len(run.calls)
    for line, event in zip(model_lines, [e for e in events if e.kind == "response"]):
        usage = event.payload["usage"]
        assert f"{usage['prompt_tokens']} in, {usage['completion_tokens']} out" in line


def test_text_form_is_stable_no_times_no_ids(lesson_run):
    events, _ = lesson_run
    run_agent("What is (3 + 4) * 5?")  # the same run again, later
    again = [Event(e.kind, json.loads(json.dumps(e.payload)), e.time) for e in trace.events[len(events):]]
    for event in again:  # as a real provider would answer it: other ids, another clock
        if event.kind == "response":
            event.payload.update(id="chatcmpl-other", created=event.payload["created"] + 60)
    assert again[0].time > events[0].time
    assert trace_run.text(events) == trace_run.text(again)
    assert "chatcmpl" not in trace_run.text(events)


def test_text_form_says_when_the_trace_is_empty_and_clips_long_lines():
    assert trace_run.text() == "(the trace is empty: run the agent first)"
    trace.record("final", "x" * 500)
    assert trace_run.text() == "0 model calls, 0 tool calls, 0 tokens (0 in, 0 out)\nfinal: " + "x" * 102 + "…"


# --- the widget -------------------------------------------------------------------------

class Boxes(html.parser.HTMLParser):
    """The drawing's boxes, in document order: (class, attributes, text)."""

    def __init__(self, markup):
        super().__init__()
        self.found, self.open = [], None
        self.feed(markup)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        kind = next((k for k in ("al-call", "al-tool", "al-user", "al-reply", "al-memory") if k in (attrs.get("class") or "").split()), None)
        if kind:
            self.found.append([kind, attrs, ""])
        if tag == "section":
            self.found.append(["step", attrs, ""])

    def handle_data(self, data):
        if self.found:
            self.found[-1][2] += data


def test_the_drawing_has_a_box_per_model_call_and_per_tool_call_in_order(lesson_run):
    events, run = lesson_run
    boxes = Boxes(TraceView(events).drawing.value).found
    model_calls = [b for b in boxes if b[0] == "al-call"]
    usage = [e.payload["usage"] for e in events if e.kind == "response"]
    assert [(int(b[1]["data-in"]), int(b[1]["data-out"])) for b in model_calls] == \
        [(u["prompt_tokens"], u["completion_tokens"]) for u in usage]
    assert [f"model call {n}" in b[2] for n, b in enumerate(model_calls, 1)] == [True] * run.turns
    tools = [b for b in boxes if b[0] == "al-tool"]
    assert [(b[1]["data-name"], b[2].rsplit("← ", 1)[1]) for b in tools] == [(name, result) for name, _, result in run.calls]
    order = [b[0] for b in boxes if b[0] in ("al-call", "al-tool")]
    asked = [len(e.payload["choices"][0]["message"].get("tool_calls") or []) for e in events if e.kind == "response"]
    assert order == [kind for n in asked for kind in ["al-call"] + ["al-tool"] * n]  # each tool after the call that asked


def test_stepping_moves_the_current_call_and_stays_in_bounds(lesson_run):
    events, run = lesson_run
    view = TraceView(events)

    def current():
        steps = [b for b in Boxes(view.drawing.value).found if b[0] == "step" and b[1].get("aria-current") == "step"]
        assert len(steps) == 1
        return int(steps[0][1]["data-step"])
    assert (view.step, current(), view.slider.max) == (1, 1, run.turns)
    assert view.previous.disabled and not view.next.disabled
    view.previous.click()  # already at the first: stays
    assert current() == 1
    view.next.click()
    assert (view.step, current()) == (2, 2) and f"Model call 2 of {run.turns}" in view.detail.value
    view.slider.value = run.turns  # the slider, as its arrow keys move it in the page
    assert current() == run.turns and view.next.disabled and not view.previous.disabled
    for _ in range(5):
        view.next.click()
    assert current() == run.turns


def test_a_step_shows_what_its_request_added_and_the_json_folded():
    view = TraceView(two_calls_in_one_turn())
    view.next.click()
    detail = view.detail.value
    assert "What the request added since model call 1" in detail
    assert detail.count("<li>") == 3 and "<li>tool: 9</li>" in detail
    assert "so far: 2 model calls, 2 tool calls, 97 tokens" in detail
    assert "<details><summary>" in detail and "<details open" not in detail  # the JSON, one click away
    assert "Be &lt;b&gt;brief&lt;/b&gt; &amp; kind." in detail and "<b>brief" not in detail  # shown, never run
    assert "added: Memory: name=Ada" in view.drawing.value


def test_the_widget_keeps_a_snapshot_and_handles_an_empty_trace():
    trace.record("final", "one")
    view = TraceView()
    trace.record("final", "two")  # a later run does not change a view already shown
    assert len(view.events) == 1 and view.slider.max == 1
    empty = TraceView([])
    assert empty.previous.disabled and empty.next.disabled and empty.slider.disabled
    assert "the trace is empty" in empty.detail.value


def test_display_bundle_is_the_widget_plus_the_text_form():
    view = TraceView(two_calls_in_one_turn())
    bundle = view._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == view.box.model_id
    assert bundle["text/plain"] == trace_run.text(view.events) == repr(view)


def test_show_trace_outside_jupyter_prints_the_text_form(capsys):
    for event in two_calls_in_one_turn():
        trace.record(event.kind, event.payload)
    assert show_trace() is None  # displays; returns nothing, so a cell shows it once
    assert capsys.readouterr().out == trace_run.text() + "\n"


def test_show_trace_without_ipywidgets_prints_the_text_form(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ipywidgets", None)  # how Python marks a module as absent
    with pytest.raises(ImportError):
        TraceView(two_calls_in_one_turn())
    show_trace(two_calls_in_one_turn())
    assert capsys.readouterr().out == trace_run.text(two_calls_in_one_turn()) + "\n"


# --- in a real kernel, as nbval runs it -------------------------------------------------

def test_widget_cell_compares_stably_under_nbval(tmp_path):
    """A cell that shows the view passes nbval on a re-run (new model id, same text),
    and fails if the run it shows has changed: nbval compares the text/plain."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "import agentloop\n"
        "agentloop.ask([{'role': 'user', 'content': 'What is 2 + 3?'}])\n"
        "agentloop.show_trace()")])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    import nbclient  # run it once, as saving it from JupyterLab would
    nbclient.NotebookClient(notebook, kernel_name="python3").execute()
    [output] = notebook.cells[0].outputs
    assert output["output_type"] == "display_data"
    assert "model_id" in output["data"]["application/vnd.jupyter.widget-view+json"]
    assert output["data"]["text/plain"].startswith("1 model call, 0 tool calls, ")
    nbformat.write(notebook, tmp_path / "same.ipynb")
    output["data"]["text/plain"] = output["data"]["text/plain"].replace("model call 1", "model call 2")
    nbformat.write(notebook, tmp_path / "changed.ipynb")

    run = subprocess.run([sys.executable, "-m", "pytest", "--nbval", "--nbval-current-env", "-q", "-rA",
                          "-p", "no:cacheprovider", "same.ipynb", "changed.ipynb"],
                         cwd=tmp_path, capture_output=True, text=True)
    assert "PASSED same.ipynb::Cell 0" in run.stdout, run.stdout  # a new model id is no difference
    assert "FAILED changed.ipynb::Cell 0" in run.stdout, run.stdout  # a different run is


def test_lesson_5s_trace_prints_the_same_text_run_after_run(tmp_path):
    """Lesson 5 run twice in a fresh kernel: its trace cell's text is the committed one both times."""
    import nbclient
    committed = nbformat.read(LESSONS / "05_state_and_tracing.ipynb", as_version=4)

    def trace_text(notebook):
        [cell] = [c for c in notebook.cells if c.source == "agentloop.show_trace()"]
        [output] = cell.outputs
        return output["data"]["text/plain"]
    texts = []
    for _ in range(2):
        notebook = nbformat.read(LESSONS / "05_state_and_tracing.ipynb", as_version=4)
        nbclient.NotebookClient(notebook, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
        texts.append(trace_text(notebook))
    assert texts[0] == texts[1] == trace_text(committed)
    assert texts[0].startswith("3 model calls, 2 tool calls, ")
