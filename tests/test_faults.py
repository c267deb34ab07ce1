"""Lesson 3's loop against a server that fails on purpose (tests/fault_server.py), on 127.0.0.1.

Each fault ends in a clear outcome: the right answer (the client retried, or absorbed the
quirk), or one named error whose message names the URL and ends with a one-line hint. Then the
retry rules themselves: which statuses, how long (Retry-After in its three spellings, backoff),
how often, and never past the timeout. Last, the browser: pyodide-http returns error statuses
instead of raising them, and a fetch the browser refuses is a JavaScript NetworkError.
"""
import email.utils
import http.client
import time
import urllib.parse
import urllib.request

import pytest

from agentloop import errors, llm, trace, transport
from fault_server import EndlessStream, Hang, Raw, Reply, Trickle, completion, error
from lesson_loop import run_agent

pytestmark = pytest.mark.usefixtures("fresh_backend")  # each test chooses its own backend

KEY = "sk-test-" + "Zx81Qw27Lm" * 4
ADD_CALL = {"id": "call_1", "type": "function", "function": {"name": "add", "arguments": '{"a": 3, "b": 4}'}}


def connect(fault, **settings):
    return llm.use(fault.url, api_key=KEY, model="fault-model", **{"timeout": 2, "backoff": 0.05, **settings})


def assert_clear(error, fault, words):
    text = str(error)
    assert isinstance(error, errors.LLMError) and fault.url in text and words in text
    assert text.endswith(". Try: " + error.hint)
    assert KEY not in text and KEY[8:24] not in text


# --- the loop against each fault ---------------------------------------------------------------

LOOP_FAULTS = {  # name: (script, expected error or None for the answer, words in the message, requests)
    "401 bad key": ([error(401, "Incorrect API key provided: sk-test-****Lm", code="invalid_api_key")],
                    errors.AuthError, "Incorrect API key", 1),
    "404 wrong model": ([error(404, "The model `gpt-9` does not exist or you do not have access to it.")],
                        errors.NotFound, "does not exist", 1),
    "404 wrong URL": ([Reply(404, "<html><body>404 page not found</body></html>", {"Content-Type": "text/html"})],
                      errors.NotFound, "404 page not found", 1),
    "429 then 200": ([error(429, "Rate limit reached"), completion(tool_calls=[ADD_CALL]),
                      completion("3 + 4 = 7.")], None, "3 + 4 = 7.", 3),
    "500 then 200": ([error(500, "The server had an error", "server_error"), completion("Hello.")],
                     None, "Hello.", 2),
    "500 every time": ([error(500, "The server had an error", "server_error")] * 3,
                       errors.ServerError, "tried 3 times", 3),
    "hang": ([Hang(10)], errors.Timeout, "No answer within 0.5 s", 1),
    "trickle": ([Trickle(completion("One byte every 100 ms."))], errors.Timeout, "No answer within 0.5 s", 1),
    "endless stream": ([EndlessStream()], errors.Timeout, "No answer within 0.5 s", 1),
    "dropped connection": ([Raw(b"")], errors.ConnectionFailed, "The connection", 1),
    "truncated body": ([Reply(200, completion("A long answer that never ends").body, cut=40)],
                       errors.ConnectionFailed, "closed", 1),
    "400 not retried": ([error(400, "'messages' must contain the word 'json'")], errors.BadRequest, "json", 1),
}


@pytest.mark.parametrize("name", LOOP_FAULTS)
def test_the_loop_ends_clearly_on_each_fault(fault, name):
    script, expected, words, requests = LOOP_FAULTS[name]
    fault.add(*script)
    timeout = 0.5 if expected is errors.Timeout else 2
    connect(fault, timeout=timeout)
    started = time.monotonic()
    if expected is None:
        assert run_agent("What is 3 + 4?").answer == words
    else:
        with pytest.raises(expected) as caught:
            run_agent("What is 3 + 4?")
        assert_clear(caught.value, fault, words)
    assert len(fault.requests) == requests
    assert time.monotonic() - started < (timeout + 1 if expected is errors.Timeout else 3)


def test_each_wrong_setting_gets_its_own_hint(fault):
    fault.add(error(401, "Invalid API Key"), error(404, "model 'gpt-9' not found"),
              Reply(404, "Not Found", {"Content-Type": "text/plain"}))
    hints = []
    for _ in range(3):
        connect(fault)
        with pytest.raises(errors.LLMError) as caught:
            llm.ask([{"role": "user", "content": "Hi"}])
        hints.append(caught.value.hint)
    assert "API key" in hints[0] and "model name is wrong" in hints[1] and "ends in /v1" in hints[2]


def test_a_quirky_server_through_the_whole_loop(fault):
    # Ollama-style object arguments with no id, a 503 on the way, then the answer.
    call = {"function": {"name": "add", "arguments": {"a": 3, "b": 4}}}
    first = completion("", tool_calls=[call])
    first.body["choices"][0]["finish_reason"] = "stop"
    fault.add(first, Reply(503, "busy", {"Retry-After": "0"}), completion("7"))
    connect(fault)
    run = run_agent("What is 3 + 4?")
    assert run.answer == "7" and run.calls == [("add", '{"a": 3, "b": 4}', "7")]
    sent = fault.requests[-1].json()["messages"]
    assistant, tool = sent[-2], sent[-1]
    [sent_call] = assistant["tool_calls"]
    assert sent_call["function"]["arguments"] == '{"a": 3, "b": 4}'  # a string on the way back
    assert len(sent_call["id"]) == 9 and sent_call["id"].isalnum() and tool["tool_call_id"] == sent_call["id"]
    assert tool["name"] == "add" and assistant["content"] is None  # OpenAI's form, until a server refuses it


# --- retry rules -------------------------------------------------------------------------------

def timed_ask(fault, **settings):
    connect(fault, **settings)
    started = time.monotonic()
    try:
        return llm.ask([{"role": "user", "content": "Hi"}]), time.monotonic() - started
    except errors.LLMError as caught:
        return caught, time.monotonic() - started


@pytest.mark.parametrize("status", [429, 500, 502, 503, 504])
def test_retried_statuses(fault, status):
    fault.add(Reply(status, {"error": {"message": "try later"}}), completion("ok"))
    message, _ = timed_ask(fault)
    assert message["content"] == "ok" and len(fault.requests) == 2
    assert [e.kind for e in trace.events] == ["request", "retry", "response"]


@pytest.mark.parametrize("status", [400, 401, 403, 404, 422])
def test_not_retried_statuses(fault, status):
    fault.add(Reply(status, {"error": {"message": "no"}}), completion("never sent"))
    caught, _ = timed_ask(fault)
    assert caught.status == status and len(fault.requests) == 1


@pytest.mark.parametrize("header", [
    {"Retry-After": "1"},                                        # seconds
    {"retry-after-ms": "1000", "Retry-After": "30"},             # OpenAI's milliseconds come first
    "date",                                                      # an HTTP date
])
def test_retry_after_is_honoured(fault, header):
    if header == "date":
        header = {"Retry-After": email.utils.formatdate(time.time() + 2, usegmt=True)}  # 1-2 s, whole seconds
    fault.add(Reply(429, {"error": {"message": "slow down"}}, header), completion("ok"))
    message, took = timed_ask(fault, timeout=5)
    assert message["content"] == "ok"
    assert 0.9 <= took < 2.5 and len(fault.requests) == 2  # the second request after the pause


def test_backoff_doubles_and_the_count_is_bounded(fault):
    fault.add(*[error(503, "overloaded", "server_error")] * 5)
    caught, took = timed_ask(fault, retries=3, backoff=0.1, timeout=5)
    assert isinstance(caught, errors.ServerError) and "tried 4 times" in str(caught)
    assert len(fault.requests) == 4
    assert 0.7 <= took < 2.5  # 0.1 + 0.2 + 0.4 of pauses (and four quick requests)
    assert [e.payload["wait"] for e in trace.events if e.kind == "retry"] == [0.1, 0.2, 0.4]


def test_retries_never_run_past_the_timeout(fault):
    fault.add(Reply(429, {"error": {"message": "slow down"}}, {"Retry-After": "20"}), completion("too late"))
    caught, took = timed_ask(fault, timeout=3)
    assert isinstance(caught, errors.RateLimited) and took < 1  # no point waiting 20 s
    assert "asks to wait 20 s, past the 3 s timeout" in str(caught) and len(fault.requests) == 1


def test_backoff_never_runs_past_the_timeout(fault):
    fault.add(*[error(500, "down", "server_error")] * 10)
    caught, took = timed_ask(fault, retries=10, backoff=0.2, timeout=1)
    assert isinstance(caught, errors.ServerError) and 0.6 <= took < 1.1  # 0.2 + 0.4; 0.8 more would pass 1 s
    assert len(fault.requests) == 3 and "tried 3 times" in str(caught)


def test_retries_can_be_switched_off(fault):
    fault.add(error(429, "slow down"), completion("ok"))
    caught, _ = timed_ask(fault, retries=0)
    assert isinstance(caught, errors.RateLimited) and len(fault.requests) == 1


def test_a_streamed_answer_is_joined(fault):
    chunks = ['{"id":"c1","choices":[{"index":0,"delta":{"role":"assistant","content":""}}]}',
              '{"id":"c1","choices":[{"index":0,"delta":{"content":"Hel"}}]}',
              '{"id":"c1","choices":[{"index":0,"delta":{"content":"lo."},"finish_reason":"stop"}]}']
    body = "".join(f"data: {chunk}\n\n" for chunk in chunks) + "data: [DONE]\n\n"
    fault.add(Reply(200, body, {"Content-Type": "text/event-stream"}), completion("plain"))
    connect(fault)
    assert llm.ask([{"role": "user", "content": "Hi"}], stream=True)["content"] == "Hello."
    assert fault.requests[0].json()["stream"] is True
    assert llm.ask([{"role": "user", "content": "Hi"}], stream=True)["content"] == "plain"  # a server that ignores it


def test_an_error_inside_a_stream_is_a_server_error(fault):
    overloaded = Reply(200, 'data: {"error": {"message": "overloaded"}}\n\n', {"Content-Type": "text/event-stream"})
    fault.add(overloaded, overloaded)
    connect(fault, retries=1)
    with pytest.raises(errors.ServerError) as caught:
        llm.ask([{"role": "user", "content": "Hi"}], stream=True)
    assert_clear(caught.value, fault, "error in the stream: overloaded")
    assert len(fault.requests) == 2  # retried, as a 5xx would be


# --- the browser -------------------------------------------------------------------------------

def pyodide_style_urlopen(request, timeout=None):
    """urlopen as pyodide-http patches it: a real request, and the answer whatever its status
    (it never raises HTTPError)."""
    url = urllib.parse.urlsplit(request.full_url)
    connection = http.client.HTTPConnection(url.hostname, url.port, timeout=timeout)
    connection.request(request.get_method(), url.path, request.data, dict(request.header_items()))
    return connection.getresponse()


def test_in_the_browser_an_error_status_is_returned_not_raised(fault, monkeypatch):
    monkeypatch.setattr(urllib.request, "urlopen", pyodide_style_urlopen)
    monkeypatch.setattr(transport, "IN_BROWSER", True)
    fault.add(error(401, "Invalid API key"), error(429, "slow"), completion("ok"))
    connect(fault)
    with pytest.raises(errors.AuthError) as caught:
        llm.ask([{"role": "user", "content": "Hi"}])
    assert_clear(caught.value, fault, "Invalid API key")
    assert llm.ask([{"role": "user", "content": "Hi"}])["content"] == "ok"  # the 429 retried


class JsException(Exception):
    """What Pyodide raises when the browser refuses a fetch (CORS, Local Network Access, offline)."""


def test_in_the_browser_a_refused_fetch_says_it_may_be_cors(fault, monkeypatch):
    def refused(request, timeout=None):
        raise JsException("NetworkError: Failed to execute 'send' on 'XMLHttpRequest': "
                          f"Failed to load '{request.full_url}'.")
    monkeypatch.setattr(urllib.request, "urlopen", refused)
    monkeypatch.setattr(transport, "IN_BROWSER", True)
    connect(fault)
    with pytest.raises(errors.ConnectionFailed) as caught:
        llm.ask([{"role": "user", "content": "Hi"}])
    assert_clear(caught.value, fault, "The browser could not fetch it")
    for words in ("CORS", "Local Network Access", "rate limit", "server error", "timeout"):
        assert words in caught.value.hint
    monkeypatch.setattr(transport, "IN_BROWSER", False)  # outside a browser, an unknown error is a bug: shown as is
    monkeypatch.setattr(transport._OPENER, "open", refused)
    with pytest.raises(JsException):
        llm.ask([{"role": "user", "content": "Hi"}])


def test_in_the_browser_status_0_is_no_answer(fault, monkeypatch):
    # An XMLHttpRequest the browser stopped reports status 0 and an empty body, which no HTTP
    # server can send; pyodide-http hands it on as a response.
    class Blocked:
        status, headers = 0, {}

        def read(self, size=-1):
            return b""

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            pass
    monkeypatch.setattr(urllib.request, "urlopen", lambda request, timeout=None: Blocked())
    monkeypatch.setattr(transport, "IN_BROWSER", True)
    connect(fault)
    with pytest.raises(errors.ConnectionFailed) as caught:
        llm.ask([{"role": "user", "content": "Hi"}])
    assert_clear(caught.value, fault, "The browser got no answer")
    assert "CORS" in caught.value.hint
