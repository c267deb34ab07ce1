"""The connect widget: presets, the test button's report, and the key kept out of every widget,
output and message. The buttons are pressed with .click(), the requests are real (127.0.0.1)."""
import json

import pytest

from agentloop import llm, trace
from agentloop.connect import PRESETS, Connect, connect
from agentloop.server import serve_in_thread
from fault_server import Reply, completion, error

pytestmark = pytest.mark.usefixtures("fresh_backend")  # each test chooses its own backend

ipywidgets = pytest.importorskip("ipywidgets")
KEY = "sk-test-" + "Kq7Zp2Lm9X" * 4
ADD_CALL = {"id": "call_1", "type": "function", "function": {"name": "add", "arguments": '{"a": 2, "b": 3}'}}


def widgets_in(widget):
    yield widget
    for child in getattr(widget, "children", ()):
        yield from widgets_in(child)


def everything_shown(form) -> str:
    """Every widget's synced state (what the page holds and a saved notebook keeps), the
    display bundle, and the repr."""
    states = [json.dumps(w.get_state(), default=str) for w in widgets_in(form.box)]
    return "\n".join(states + [json.dumps(form._repr_mimebundle_(), default=str), repr(form)])


def fill(form, base_url, model, key=""):
    form.base_url.value, form.model.value, form.key.value = base_url, model, key


def status(form) -> str:
    return form.status.value


def test_every_preset_fills_the_form_and_shows_its_browser_caveat():
    form = Connect()
    for name, preset in PRESETS.items():
        form.preset.value = name
        assert (form.base_url.value, form.model.value) == (preset.base_url, preset.model)
        assert "In the browser:" in form.note.value and len(preset.browser) > 20
        assert ("No key needed" in form.note.value) == (not preset.key)
    assert {"OpenAI", "OpenRouter", "Groq", "Gemini (OpenAI-compatible)", "Anthropic (OpenAI-compatible)", "Ollama",
            "LM Studio", "llama.cpp server", "vLLM", "Teaching model (offline)"} <= set(PRESETS)
    assert "OLLAMA_ORIGINS" in PRESETS["Ollama"].browser and "CORS" in PRESETS["LM Studio"].browser
    assert "Local Network Access" in PRESETS["llama.cpp server"].browser


def test_the_teaching_model_answers_the_test(capsys):
    form = Connect()
    form.test.click()
    assert "✅ teaching-model answered in" in status(form)
    assert "✅ tools: it called add(" in status(form)
    assert llm.backend().base_url is None
    assert capsys.readouterr() == ("", "")  # the form reports in the form, prints nothing


def test_a_key_is_used_and_then_gone_from_the_form(fault, capsys):
    fault.add(completion("Hello there, nice to meet you!"), completion(tool_calls=[ADD_CALL]))
    form = Connect("OpenAI")
    fill(form, fault.url, "gpt-test", KEY)
    form.test.click()
    assert "✅ gpt-test answered" in status(form) and "Hello there" in status(form)
    assert "it called add(" in status(form)
    assert [r.headers["Authorization"] for r in fault.requests] == ["Bearer " + KEY] * 2
    assert form.key.value == "" and llm.backend().api_key == KEY  # in the kernel's memory only
    shown = everything_shown(form) + json.dumps([e.payload for e in trace.events])
    assert KEY not in shown and KEY[8:24] not in shown
    assert KEY not in "".join(capsys.readouterr())


def test_an_error_is_reported_exactly_without_the_key(fault):
    fault.add(lambda request: error(401, "Incorrect API key provided: " + request.headers["Authorization"][7:]))
    form = Connect()
    fill(form, fault.url, "gpt-test", KEY)
    form.test.click()
    assert status(form).startswith('<pre style="white-space:pre-wrap; margin:0">❌ HTTP 401 Incorrect API key provided: ***')
    assert "Try: the API key is missing, wrong or expired" in status(form)
    assert KEY not in everything_shown(form)


@pytest.mark.parametrize("script, words", [
    ([error(404, "The model `gpt-9` does not exist")], "the model name is wrong"),
    ([Reply(429, {"error": {"message": "slow down"}}, {"Retry-After": "0"})] * 3, "too many requests"),
    ([], "is the server running"),  # nothing listens: the fault server is closed first
])
def test_each_problem_gets_its_hint(fault, script, words):
    url = fault.url
    fault.add(*script)
    if not script:
        fault.close()
    llm.use()
    form = Connect()
    fill(form, url, "gpt-9", KEY)
    form.test.click()
    assert "❌" in status(form) and words in status(form)


def test_use_again_keeps_the_key_and_a_new_url_drops_it(fault):
    form = Connect()
    fill(form, fault.url, "m", KEY)
    form.use.click()
    assert llm.backend().api_key == KEY and form.key.value == ""
    form.use.click()  # the field is empty now: the key set before stays
    assert llm.backend().api_key == KEY
    fill(form, "http://127.0.0.1:9/v1", "m")
    form.use.click()
    assert llm.backend().api_key is None  # a key is never sent to a URL it was not typed for
    assert "key: none" in status(form) and KEY not in everything_shown(form)


def test_our_server_over_http():
    server, url = serve_in_thread()
    try:
        form = Connect("Teaching model over HTTP")
        form.base_url.value = url
        form.test.click()
        assert "✅ teaching-model answered" in status(form) and "it called add(" in status(form)
    finally:
        server.stop()


def test_the_anthropic_preset_sends_the_browser_header():
    form = Connect("Anthropic (OpenAI-compatible)")
    form.use.click()
    assert llm.backend().headers == {"anthropic-dangerous-direct-browser-access": "true"}
    form.base_url.value = "https://example.com/v1"  # another URL: no header meant for Anthropic
    form.use.click()
    assert llm.backend().headers == {}


def test_connect_displays_the_form_and_its_text_form_names_no_key(monkeypatch):
    import IPython.display
    shown = []
    monkeypatch.setattr(IPython.display, "display", shown.append)  # what Jupyter would render
    llm.use("http://127.0.0.1:9/v1", api_key=KEY, model="m")
    assert connect() is None  # displays; returns nothing, so a cell shows it once
    [form] = shown
    bundle = form._repr_mimebundle_()
    assert "application/vnd.jupyter.widget-view+json" in bundle
    assert bundle["text/plain"].startswith("connect: Teaching model (offline)")
    assert "key: set" in bundle["text/plain"] and KEY not in everything_shown(form)


def test_even_an_unexpected_failure_is_shown_without_the_key(monkeypatch):
    def broken(*args, **kwargs):  # a bug somewhere that puts the key in its message
        raise RuntimeError(f"unexpected state with {llm.backend().api_key}")
    monkeypatch.setattr(llm, "ask", broken)
    form = Connect()
    fill(form, "http://127.0.0.1:9/v1", "m", KEY)
    form.test.click()
    assert "❌ Unexpected RuntimeError: unexpected state with ***" in status(form)
    assert KEY not in everything_shown(form)


def test_a_key_with_a_line_break_inside_is_refused_without_showing_it(fault):
    form = Connect()
    fill(form, fault.url, "gpt-test", KEY[:20] + "\n" + KEY[20:])
    form.test.click()
    assert "❌" in status(form) and "line break" in status(form)
    assert KEY[:20] not in everything_shown(form) and KEY[20:] not in everything_shown(form)
    assert fault.requests == [] and form.key.value == ""


def test_a_pasted_key_with_a_newline_works(fault):
    fault.add(completion("Hello!"), completion(tool_calls=[ADD_CALL]))
    form = Connect()
    fill(form, fault.url, "gpt-test", " " + KEY + "\n")
    form.test.click()
    assert "✅" in status(form)
    assert [r.headers["Authorization"] for r in fault.requests] == ["Bearer " + KEY] * 2
