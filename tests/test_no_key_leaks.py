"""An API key goes into the kernel's memory and the Authorization header, and nowhere else.

One run with a fake key ("sk-test-" and 40 random characters) through everything that touches
it: use(), the connect widget, every kind of error (servers that echo the key back included),
retries, streaming, redirects (to a second server, on 127.0.0.2, that records what it gets), a
server that trickles its answer, the trace and its widget, a lesson's agent that saves its memory to a file,
and our server's request log. Then the key, and anything shaped like a real provider's key, is
looked for (with `errors.redact`, the one redaction the errors use) in everything that run printed, wrote or recorded, in every notebook, in the built
site (_output/) if there is one, and in every file git tracks.
"""
import contextlib
import io
import json
import secrets
import string
import subprocess
from pathlib import Path

import pytest

import agentloop
from agentloop import errors, llm, trace
from agentloop.connect import Connect
from agentloop.server import serve_in_thread
from agentloop.trace_run import text as trace_text
from agentloop.trace_widget import TraceView
from fault_server import FaultServer, Hang, Raw, Reply, Trickle, completion
from lesson_loop import lesson_definitions, run_agent

ROOT = Path(__file__).resolve().parent.parent
# Shaped like a real provider's key (see errors.KEY_SHAPED), so the shape check is tested too.
KEY = "sk-test-" + "".join(secrets.choice(string.ascii_letters + string.digits) for _ in range(39)) + "7"
REDIRECTS = [301, 302, 303, 307, 308]


def echo(status, template):
    """A careless server: puts the client's Authorization header into its answer."""
    return lambda request: Reply(status, template.replace("AUTH", request.headers.get("Authorization", "")))


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """Everything a course run does with the key; returns what it printed, raised and wrote."""
    folder = tmp_path_factory.mktemp("keyrun")
    seen = []  # every text the run produced: errors, statuses, traces, displays
    raised = []  # the errors the asks ended in
    capture = pytest.MonkeyPatch()
    capture.setattr(llm, "_current", None)
    capture.setattr(trace, "events", [])
    capture.chdir(folder)
    server, url = serve_in_thread(log=True)  # logs one line per request to stderr
    logs, redirect = io.StringIO(), contextlib.ExitStack()
    redirect.enter_context(contextlib.redirect_stdout(logs))  # all the run prints, and the server's log
    redirect.enter_context(contextlib.redirect_stderr(logs))
    sse_error = echo(200, 'data: {"error": {"message": "stream failed for AUTH"}}\n\n')
    cases = [  # (what the server does, ask's options)
        ([completion("Hello.")], {}),
        ([echo(401, '{"error": {"message": "Incorrect API key provided: AUTH"}}')], {}),
        ([echo(404, '{"error": {"message": "The model does not exist for AUTH"}}')], {}),
        ([echo(429, '{"error": {"message": "Rate limit for AUTH"}}'), completion("after a 429")], {}),
        ([echo(500, "<html>Internal error for AUTH</html>"), echo(502, "again AUTH"), echo(503, "AUTH")], {}),
        ([echo(200, '{"no": "choices", "auth": "AUTH"}')], {}),
        ([sse_error] * 3, {"stream": True}),
        ([lambda request: Reply(200, json.dumps({"echo": request.headers["Authorization"]}), cut=20)], {}),
        ([Raw(b"")], {}),
        ([Hang(5)], {}),
    ]
    elsewhere = FaultServer(*[completion("came to the wrong host")] * 20, host="127.0.0.2")
    moved = Reply(302, "<p>Moved.</p>" * 20, {"Location": elsewhere.url + "/chat/completions"})
    cases += [([Reply(status, "", {"Location": elsewhere.url + "/chat/completions"})], {"stream": stream})
              for status in REDIRECTS for stream in (False, True)]
    cases += [([Trickle(completion("slowly, one byte at a time"))], {}), ([Trickle(moved)], {})]
    try:
        with FaultServer() as fault, elsewhere:
            llm.use(fault.url, api_key=KEY, timeout=1, backoff=0.01, retries=2)
            for steps, options in cases:
                fault.add(*steps)
                try:
                    seen.append(json.dumps(agentloop.ask([{"role": "user", "content": "Hi"}], **options)))
                except errors.LLMError as error:
                    raised.append(error)
                    seen += [str(error), repr(error), error.what, error.hint, *map(str, error.args)]
            requests = fault.requests
        # The connect widget, against our server, then a closed port.
        form = Connect("Teaching model over HTTP")
        form.base_url.value, form.key.value = url, KEY
        form.test.click()
        seen += [json.dumps(w.get_state(), default=str) for w in [form.box, *form.box.children]]
        seen += [form.status.value, json.dumps(form._repr_mimebundle_(), default=str), repr(form), repr(llm.backend())]
        form.base_url.value, form.key.value = "http://127.0.0.1:9/v1", KEY
        form.test.click()
        seen.append(form.status.value)
        # Lesson 3's loop and lesson 6's memory agent, over HTTP with the key; lesson 6 saves memory.json.
        llm.use(url, api_key=KEY)
        seen.append(json.dumps(run_agent("What is (3 + 4) * 5?").messages))
        llm.use()
        lesson6 = lesson_definitions("06_memory_across_runs.ipynb")
        llm.use(url, api_key=KEY)
        seen.append(lesson6["run_agent"]("Hi! My name is Ada, I prefer tea.", [], lesson6["new_state"]()))
        seen += [trace_text(), json.dumps([e.payload for e in trace.events], default=str),
                 json.dumps(TraceView()._repr_mimebundle_(), default=str),
                 TraceView().drawing.value, TraceView().detail.value, repr(llm.backend())]
    finally:
        redirect.close()
        server.stop()
        capture.undo()
    return {"seen": seen, "requests": requests, "elsewhere": elsewhere.requests, "raised": raised, "folder": folder,
            "logs": logs.getvalue()}


def leaks(data: bytes) -> list:
    """The key, a piece of it, or anything errors.redact would hide."""
    text = data.decode("utf-8", "replace")
    found = [KEY] if KEY in text or KEY[8:30] in text else []
    return found + (["key-shaped text"] if errors.redact(text) != text else [])


def test_the_key_was_really_used(run):
    """Else the rest proves nothing: the key went out, in the header and only there."""
    auth = [r.headers.get("Authorization") for r in run["requests"]]
    assert auth and set(auth) == {"Bearer " + KEY}
    assert not any(KEY.encode() in r.body for r in run["requests"])
    assert any("***" in text for text in run["seen"]), "a server echoed the key and it was hidden"


def test_a_redirect_never_takes_the_key_elsewhere(run):
    """301, 302, 303, 307, 308, plain and streamed: each is a named error and is never followed."""
    assert run["elsewhere"] == []  # the server on 127.0.0.2 saw nothing at all, so not the key
    redirected = [error for error in run["raised"] if isinstance(error, errors.Redirected)]
    assert [error.status for error in redirected] == [status for status in REDIRECTS for _ in "ab"]
    assert all("127.0.0.2" in str(error) and "not followed" in str(error) for error in redirected)


def test_a_trickled_answer_ends_at_the_timeout(run):
    """The hang, the trickled answer and the trickled redirect: each a Timeout."""
    assert sum(isinstance(error, errors.Timeout) for error in run["raised"]) == 3


def test_nothing_the_run_produced_holds_the_key(run):
    for text in run["seen"]:
        assert not leaks(text.encode()), text[:300]


def test_nothing_the_run_printed_or_logged_holds_the_key(run):
    assert "POST /v1/chat/completions 200" in run["logs"]  # the server's log was captured
    assert not leaks(run["logs"].encode())


def test_nothing_the_run_wrote_holds_the_key(run):
    written = [p for p in run["folder"].rglob("*") if p.is_file()]
    assert any(p.name == "memory.json" for p in written), "lesson 6's agent saved its memory"
    for path in written:
        assert not leaks(path.read_bytes()), path


def test_no_notebook_holds_a_key():
    notebooks = sorted(ROOT.glob("lessons/**/*.ipynb"))
    assert notebooks
    for path in notebooks:
        assert not leaks(path.read_bytes()), path


def test_the_built_site_holds_no_key():
    site = ROOT / "_output"
    if not site.exists():
        pytest.skip("no built site (_output/): make site builds it")
    for path in site.rglob("*"):
        if path.is_file():
            assert not leaks(path.read_bytes()), path


def test_no_tracked_file_holds_a_key():
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, files.decode().split("\0")):
        path = ROOT / name
        if path.is_file():
            assert not leaks(path.read_bytes()), name


def test_the_scan_would_see_a_leak(tmp_path):
    """The scanner itself: it finds the key, a piece of it, and other providers' key shapes."""
    assert leaks(f"Authorization: Bearer {KEY}".encode())
    assert leaks(f"...{KEY[8:30]}...".encode())
    for shaped in ("sk-proj-" + "xQ3" * 14, "sk-ant-api03-" + "y7Y" * 14, "gsk_" + "z9" * 26, "AIza" + "Sw4" * 12):
        assert leaks(f'"api_key": "{shaped}"'.encode()), shaped
    assert not leaks(b"risk-assessment-of-the-whole-thing sk-... gsk_short http://host/desk-assistant/v1")


# --- issue 17: a key with a newline, a key that no header can carry, a short key ----------------

def test_a_key_read_from_a_file_keeps_no_newline(fault, tmp_path, monkeypatch):
    (tmp_path / "key.txt").write_text(KEY + "\n")
    fault.add(completion("one"), completion("two"))
    agentloop.use(fault.url, api_key=open(tmp_path / "key.txt").read(), timeout=5)
    assert agentloop.ask([{"role": "user", "content": "Hi"}])["content"] == "one"
    monkeypatch.setattr(llm, "_current", None)
    monkeypatch.setenv("LLM_BASE_URL", fault.url)
    monkeypatch.setenv("LLM_API_KEY", "  " + KEY + "\r\n")
    assert agentloop.ask([{"role": "user", "content": "Hi"}])["content"] == "two"
    assert [r.headers["Authorization"] for r in fault.requests] == ["Bearer " + KEY] * 2


@pytest.mark.parametrize("bad", [KEY[:20] + "\n" + KEY[20:], KEY[:20] + " " + KEY[20:], KEY[:20] + "é" + KEY[20:]],
                         ids=["newline", "space", "non-ascii"])
def test_a_key_no_header_can_carry_is_refused_without_being_shown(fault, bad):
    with pytest.raises(errors.AuthError) as caught:
        agentloop.use(fault.url, api_key=bad, timeout=5)
        agentloop.ask([{"role": "user", "content": "Hi"}])
    message = str(caught.value)
    assert KEY[:20] not in message and KEY[20:] not in message and "not shown" in message
    assert fault.requests == []


@pytest.mark.parametrize("short", ["abc12", "k", "ollama"])
def test_a_short_key_echoed_by_a_server_is_redacted(fault, short):
    fault.add(echo(401, '{"error": {"message": "Incorrect API key provided: AUTH."}}'))
    agentloop.use(fault.url, api_key=short, timeout=5, retries=0)
    with pytest.raises(errors.AuthError) as caught:
        agentloop.ask([{"role": "user", "content": "Hi"}])
    assert "provided: Bearer *** (" in str(caught.value)


def test_a_header_no_request_can_carry_is_refused_without_showing_its_value(fault):
    with pytest.raises(errors.BadRequest) as caught:
        agentloop.use(fault.url, headers={"x-api-key": KEY + "\nX-Evil: 1"})
        agentloop.ask([{"role": "user", "content": "Hi"}])
    assert "x-api-key" in str(caught.value) and KEY not in str(caught.value) and fault.requests == []
