"""trace and trace_widget: recording events, the text form, and the step-through widget.

The widget is a real ipywidgets object; its buttons are pressed with `.click()`, which
runs the same handlers a browser click does. The last test runs real notebooks in a
real kernel under nbval, to prove the widget's cell output compares stably.
"""
import html
import json
import subprocess
import sys

import nbformat
import pytest

from agentloop import trace
from agentloop.trace import Event
from agentloop.trace_widget import TraceViewer, show_trace, trace_text

CALL = {"id": "call_1", "type": "function", "function": {"name": "add", "arguments": '{"a": 2, "b": 3}'}}


def a_run():
    """The events of one small run, as the lessons record them (memory before and after)."""
    return [
        Event("memory", {"name": "Ada"}),
        Event("request", {"model": "teaching-model", "messages": [
            {"role": "system", "content": "Be <b>brief</b> & kind.\nMemory: name=Ada"},
            {"role": "user", "content": "What is 2+3? I like tea."}],
            "tools": [{"type": "function", "function": {"name": "add", "parameters": {}}}]}),
        Event("response", {"id": "chatcmpl-1", "object": "chat.completion", "created": 1700000000,
                           "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {
                               "role": "assistant", "content": None, "tool_calls": [CALL]}}],
                           "usage": {"prompt_tokens": 31, "completion_tokens": 9, "total_tokens": 40}}),
        Event("tool_call", CALL),
        Event("tool_result", {"role": "tool", "tool_call_id": "call_1", "name": "add", "content": "5"}),
        Event("response", {"id": "chatcmpl-2", "created": 1700000001, "choices": [{
            "index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "5"}}],
            "usage": {"prompt_tokens": 50, "completion_tokens": 7, "total_tokens": 57}}),
        Event("final", "5"),
        Event("memory", {"name": "Ada", "likes": "tea"}),
    ]


@pytest.fixture(autouse=True)
def fresh_trace():
    trace.clear()
    yield
    trace.clear()


# --- trace: recording -------------------------------------------------------------------

def test_record_appends_an_event_and_clear_forgets_them():
    first = trace.record("final", "done")
    second = trace.record("memory", {"name": "Ada"})
    assert trace.events == [first, second]
    assert (first.kind, first.payload) == ("final", "done")
    assert second.time >= first.time > 0
    trace.clear()
    assert trace.events == []


def test_summary_is_one_line_clipped_at_width():
    event = Event("request", {"messages": [{"role": "user", "content": "é" * 300}]})
    line = trace.summary(event, width=60)
    assert line.startswith("request ") and line.endswith("…") and "\n" not in line
    assert "é" in line  # not \u-escaped
    assert len(line) == 12 + 1 + 60 + 1  # the kind padded to 12, a space, 60 characters, …
    assert not trace.summary(Event("final", "ok")).endswith("…")


def test_show_prints_numbered_lines_without_times(capsys):
    for event in a_run()[:3]:
        trace.record(event.kind, event.payload)
    trace.show()
    lines = capsys.readouterr().out.splitlines()
    assert [line[:15] for line in lines] == ["  1. memory    ", "  2. request   ", "  3. response  "]
    assert str(trace.events[0].time) not in "".join(lines)
    trace.show(trace.events[1:2])
    assert capsys.readouterr().out.startswith("  1. request")


# --- the text form ----------------------------------------------------------------------

def test_text_form_of_a_run():
    assert trace_text(a_run()) == """\
step 1/8 · memory · 1 entry
    name: "Ada"
step 2/8 · request
    system: Be <b>brief</b> & kind.\\nMemory: name=Ada
    user: What is 2+3? I like tea.
    tools offered: add
step 3/8 · response · tokens 31 in + 9 out = 40 (run so far 40)
    assistant: → add({"a": 2, "b": 3})
    finish_reason: tool_calls
step 4/8 · tool_call
    add({"a": 2, "b": 3})
step 5/8 · tool_result
    add: 5
step 6/8 · response · tokens 50 in + 7 out = 57 (run so far 97)
    assistant: 5
    finish_reason: stop
step 7/8 · final
    5
step 8/8 · memory · 2 entries
    since step 1:
    + likes: "tea\""""


def test_text_form_is_deterministic_no_times_no_ids():
    run, rerun = a_run(), a_run()
    for event in rerun:  # another run: other clock, other ids from a real provider
        event.time += 3600
        if isinstance(event.payload, dict) and "id" in event.payload:
            event.payload["id"] = "other-" + event.payload["id"]
        if isinstance(event.payload, dict) and "created" in event.payload:
            event.payload["created"] += 60
    assert trace_text(run) == trace_text(rerun)
    assert "chatcmpl" not in trace_text(run) and "call_1" not in trace_text(run)


def test_text_form_defaults_to_the_recorded_trace_and_says_when_empty():
    assert trace_text() == "(the trace is empty: run the agent first)"
    trace.record("final", "hello")
    assert trace_text() == "step 1/1 · final\n    hello"


def test_text_form_clips_long_lines_but_not_when_width_is_none():
    events = [Event("final", "x" * 500)]
    assert trace_text(events, width=50).splitlines()[1] == "    " + "x" * 49 + "…"
    assert trace_text(events, width=None).splitlines()[1] == "    " + "x" * 500


def test_memory_changes_between_snapshots():
    events = [Event("memory", {"name": "Ada", "city": "Paris", "tz": 1}),
              Event("memory", {"name": "Ada", "city": "Rome", "pet": "cat"}),
              Event("memory", {"name": "Ada", "city": "Rome", "pet": "cat"})]
    text = trace_text(events)
    assert "+ pet: \"cat\"" in text and "- tz: 1" in text and '~ city: "Paris" -> "Rome"' in text
    assert text.endswith("step 3/3 · memory · 3 entries\n    since step 2:\n    (no change)")
    assert trace_text([Event("memory", {})]).endswith("(empty)")


def test_provider_quirks_are_shown_not_crashed_on():
    quirky = {"choices": [{"finish_reason": "stop", "message": {"role": "assistant", "content": None,
              "tool_calls": [{"id": "", "function": {"name": "add", "arguments": {"a": 1}}}]}}]}
    empty = {"choices": [{"finish_reason": "stop", "message": {"role": "assistant", "content": None}}]}
    text = trace_text([Event("response", quirky), Event("response", empty), Event("odd", {1, 2})])
    assert 'add({"a": 1})' in text  # arguments as an object, not a string
    assert "assistant: (no content)" in text
    assert "step 3/3 · odd" in text  # not JSON at all: shown with str()


# --- the widget -------------------------------------------------------------------------

def test_widget_starts_at_step_one():
    viewer = TraceViewer(a_run())
    assert viewer.step == 1 and viewer.slider.value == 1
    assert (viewer.slider.min, viewer.slider.max) == (1, 8)
    assert "step 1/8 · memory" in viewer.title.value
    assert viewer.previous.disabled and not viewer.next.disabled


def test_buttons_and_slider_stay_in_sync_within_bounds():
    viewer = TraceViewer(a_run())
    viewer.previous.click()  # already at the first step: stays there
    assert viewer.step == 1
    viewer.next.click()
    assert viewer.slider.value == 2 and "step 2/8 · request" in viewer.title.value
    viewer.slider.value = 6  # dragging the slider moves the view and the buttons' state
    assert "step 6/8 · response" in viewer.title.value
    assert not viewer.previous.disabled and not viewer.next.disabled
    viewer.previous.click()
    assert viewer.slider.value == 5 and "step 5/8 · tool_result" in viewer.title.value
    for _ in range(20):  # far past the end
        viewer.next.click()
    assert viewer.slider.value == 8 and viewer.next.disabled and not viewer.previous.disabled
    assert "step 8/8 · memory" in viewer.title.value


def test_each_step_shows_its_full_json_escaped():
    events = a_run()
    viewer = TraceViewer(events)
    for number, event in enumerate(events, 1):
        viewer.slider.value = number
        pretty = json.dumps(event.payload, indent=2, ensure_ascii=False)
        assert html.escape(pretty, quote=False) in viewer.body.value
    viewer.slider.value = 2
    assert "Be &lt;b&gt;brief&lt;/b&gt; &amp; kind." in viewer.body.value  # the text as the model saw it
    assert "<b>brief" not in viewer.body.value  # never rendered as HTML


def test_token_counts_in_the_header_of_responses_only():
    viewer = TraceViewer(a_run())
    viewer.slider.value = 3
    assert "tokens 31 in + 9 out = 40 (run so far 40)" in viewer.title.value
    viewer.slider.value = 6
    assert "tokens 50 in + 7 out = 57 (run so far 97)" in viewer.title.value
    viewer.slider.value = 2
    assert "tokens" not in viewer.title.value


def test_widget_keeps_a_snapshot_of_the_events():
    trace.record("final", "one")
    viewer = TraceViewer()  # default: the recorded trace
    trace.record("final", "two")  # a later run does not change a widget already shown
    assert viewer.slider.max == 1 and len(viewer.events) == 1


def test_empty_trace_widget():
    viewer = TraceViewer([])
    assert viewer.previous.disabled and viewer.next.disabled and viewer.slider.disabled
    assert "empty" in viewer.title.value and viewer.body.value == ""


def test_display_bundle_is_the_widget_plus_the_text_form():
    events = a_run()
    viewer = TraceViewer(events)
    bundle = viewer._repr_mimebundle_()
    assert bundle["application/vnd.jupyter.widget-view+json"]["model_id"] == viewer.box.model_id
    assert bundle["text/plain"] == trace_text(events) == repr(viewer)


def test_show_trace_outside_jupyter_prints_the_text_form(capsys):
    for event in a_run():
        trace.record(event.kind, event.payload)
    assert show_trace() is None  # displays; returns nothing, so a cell shows it once
    assert capsys.readouterr().out == trace_text(trace.events) + "\n"


def test_show_trace_without_ipywidgets_prints_the_text_form(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ipywidgets", None)  # how Python marks a module as absent
    with pytest.raises(ImportError):
        TraceViewer(a_run())
    show_trace(a_run())
    assert capsys.readouterr().out == trace_text(a_run()) + "\n"


# --- in a real kernel, under nbval ------------------------------------------------------

def test_widget_cell_compares_stably_under_nbval(tmp_path):
    """A cell that shows the widget passes nbval on a re-run (new model id, same text),
    and fails if the trace it shows has changed: nbval compares the text/plain."""
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        "from agentloop.trace import Event\n"
        "from agentloop.trace_widget import show_trace\n"
        "show_trace([Event('request', {'messages': [{'role': 'user', 'content': 'hi'}]}),\n"
        "            Event('response', {'choices': [{'message': {'role': 'assistant', 'content': 'hello'}}],\n"
        "                               'usage': {'prompt_tokens': 3, 'completion_tokens': 1}}), ])")])
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    import nbclient  # run it once, as saving it from JupyterLab would
    nbclient.NotebookClient(notebook, kernel_name="python3").execute()
    [output] = notebook.cells[0].outputs
    assert output["output_type"] == "display_data"
    assert "model_id" in output["data"]["application/vnd.jupyter.widget-view+json"]
    assert output["data"]["text/plain"].startswith("step 1/2 · request")
    nbformat.write(notebook, tmp_path / "same.ipynb")
    output["data"]["text/plain"] = output["data"]["text/plain"].replace("hello", "bye")
    nbformat.write(notebook, tmp_path / "changed.ipynb")

    run = subprocess.run([sys.executable, "-m", "pytest", "--nbval", "--nbval-current-env", "-q", "-rA",
                          "-p", "no:cacheprovider", "same.ipynb", "changed.ipynb"],
                         cwd=tmp_path, capture_output=True, text=True)
    assert "PASSED same.ipynb::Cell 0" in run.stdout, run.stdout  # a new model id is no difference
    assert "FAILED changed.ipynb::Cell 0" in run.stdout, run.stdout  # a different trace is
