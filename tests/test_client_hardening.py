"""The client's promises under a hostile or broken server (issue 9), each against real sockets on
loopback: a redirect never carries the key, `timeout` bounds the whole call, a streamed answer keeps
its usage, redaction hides keys and nothing else, null versus "" content is learnt only from a known
refusal, a streamed call is one call, a refusal survives, connect() keeps use()'s settings, and a
reset connection is called a reset."""
import json
import time

import pytest

from agentloop import errors, llm, trace, transport, wire
from lesson_loop import lesson_definitions
from fault_server import EndlessStream, FaultServer, Reply, Reset, Trickle, completion, error

pytestmark = pytest.mark.usefixtures("fresh_backend")

KEY = "sk-proj-" + "R4nd0mK3yTa1l" * 4
HI = [{"role": "user", "content": "Hi"}]
REDIRECTS = [301, 302, 303, 307, 308]


def connect(fault, **settings):
    return llm.use(fault.url, api_key=KEY, model="fault-model", **{"timeout": 2, "backoff": 0.05, **settings})


# --- 1. redirects ------------------------------------------------------------------------------

@pytest.mark.parametrize("stream", [False, True])
@pytest.mark.parametrize("status", REDIRECTS)
def test_a_redirect_is_never_followed_with_the_key(fault, status, stream):
    with FaultServer(completion("stolen"), host="127.0.0.2") as elsewhere:
        target = elsewhere.url + "/chat/completions"
        fault.add(Reply(status, "", {"Location": target}))
        connect(fault)
        with pytest.raises(errors.Redirected) as caught:
            llm.ask(HI, stream=stream)
        assert elsewhere.requests == []  # not even without the key: a redirect is not followed
    text = str(caught.value)
    assert f"HTTP {status}" in text and target in text and "/v1" in text and "https" in text
    assert len(fault.requests) == 1 and KEY not in text


# --- 2. one deadline for the whole call ---------------------------------------------------------

@pytest.mark.parametrize("step", [Trickle(completion("A slow answer, one byte at a time.")),
                                  Trickle(Reply(500, "a slow error page " * 20)),
                                  EndlessStream()], ids=["trickle", "trickled-error", "endless-stream"])
def test_timeout_bounds_a_slow_or_endless_answer(fault, step):
    fault.add(step, step, step)
    connect(fault, timeout=1)
    started = time.monotonic()
    with pytest.raises(errors.Timeout, match="No answer within 1 s"):
        llm.ask(HI, stream=isinstance(step, EndlessStream))
    assert time.monotonic() - started < 2


def test_timeout_bounds_retries_and_a_trickle_together(fault):
    fault.add(error(500, "busy"), Trickle(completion("slow")))
    connect(fault, timeout=1, backoff=0.3)
    started = time.monotonic()
    with pytest.raises(errors.Timeout):
        llm.ask(HI)
    assert time.monotonic() - started < 2 and len(fault.requests) == 2


# --- 3. a streamed answer keeps its usage ---------------------------------------------------------

@pytest.mark.parametrize("where", ["in-process", "http"])
def test_streamed_usage_equals_the_plain_usage(server_url, where):
    if where == "http":
        llm.use(server_url, timeout=5)
    question = [{"role": "user", "content": "What is 2 + 3? Answer in a sentence."}]
    plain, streamed = llm.complete(question), llm.complete(question, stream=True)
    assert plain["usage"]["total_tokens"] > 0
    assert streamed["usage"] == plain["usage"]
    assert streamed["choices"][0]["message"]["content"] == plain["choices"][0]["message"]["content"]


def lesson_state_after_a_question(lesson, stream, url):
    """Lessons 5 and 9 count tokens from `usage`: the state their agent ends with."""
    definitions = lesson_definitions(lesson)
    llm.use(url, timeout=5, **({"stream": True} if stream else {}))  # sent with every request
    state = definitions["new_state"]()  # both lessons' run_agent takes lesson 5's state
    definitions["run_agent"]("What is (3 + 4) * 5?", [], state)
    return state


@pytest.mark.parametrize("where", ["in-process", "http"])
@pytest.mark.parametrize("lesson", ["05_state_and_tracing.ipynb", "09_the_whole_thing.ipynb"])
def test_lessons_count_the_same_tokens_when_streaming(server_url, lesson, where):
    url = server_url if where == "http" else None
    plain, streamed = (lesson_state_after_a_question(lesson, stream, url) for stream in (False, True))
    assert streamed == plain and any(value > 0 for key, value in plain.items() if "tokens" in key)


def test_streaming_asks_for_usage(fault):
    fault.add(Reply(200, 'data: {"id": "c", "choices": [{"index": 0, "delta": {"content": "Hi"}}]}\n\n'
                         'data: {"id": "c", "choices": [], "usage": {"total_tokens": 3}}\n\ndata: [DONE]\n\n',
                    {"Content-Type": "text/event-stream"}))
    connect(fault)
    assert llm.complete(HI, stream=True)["usage"] == {"total_tokens": 3}
    assert fault.requests[0].json()["stream_options"] == {"include_usage": True}


# --- 4. redaction hides keys and nothing else ---------------------------------------------------------

@pytest.mark.parametrize("text", ["http://host/desk-assistant/v1", "llama-3-risk-assessment",
                                  "http://ask-me.example/task-scheduler-service-for-everyone/v1",
                                  "sk-learning-assistant-for-everyone", "gsk_the_whole_of_it_in_words_here"])
def test_redaction_leaves_words_alone(text):
    assert errors.redact(text) == text
    assert text in str(errors.NotFound(f"model {text} not found", text))


@pytest.mark.parametrize("key", ["sk-" + "T3stK3yAbCdEfGh" * 3, "sk-proj-" + "aB3_dE6-gH9" * 8,
                                 "sk-ant-api03-" + "xY7zW2" * 15, "sk-or-v1-" + "0f9e8d7c6b5a" * 5,
                                 "gsk_" + "Qw3rTy" * 9, "xai-" + "Zx8Cv7" * 14, "AIza" + "SyB4-xK9_pL2" * 3,
                                 "hf_" + "AbCdEfGhIj1" * 3])
def test_redaction_still_hides_every_provider_key_shape(key):
    for text in (f"Incorrect API key provided: {key}.", f'{{"key":"{key}"}}', f"Bearer {key}"):
        assert key not in errors.redact(text) and "***" in errors.redact(text)


# --- 5. null versus "" content, learnt from known refusals only ----------------------------------------

CALL = {"id": "call_1", "type": "function", "function": {"name": "add", "arguments": '{"a": 3, "b": 4}'}}
HISTORY = [{"role": "user", "content": "What is 3 + 4?"}, {"role": "assistant", "content": None, "tool_calls": [CALL]},
           {"role": "tool", "tool_call_id": "call_1", "content": "7"}]
OLLAMA_REFUSAL = error(400, "invalid message content type: <nil>")
BEDROCK_REFUSAL = error(400, "The content field in the Message object at messages.1 is empty. Add a ContentBlock "
                             "object to the content field and try again.")


def sent_content(request):
    return request.json()["messages"][1]["content"]


LLAMA_CPP_PYTHON_REFUSAL = error(500, 'can only concatenate str (not "NoneType") to str', "server_error")
# llama-cpp-python 0.3's server validates the request first (pydantic), as the real-model tier sees it:
LLAMA_CPP_PYTHON_VALIDATION = error(500, (
    "7 validation errors:\n  {'type': 'literal_error', 'loc': ('body', 'messages', 1, 'ChatCompletionRequestSystemMessage', "
    "'role'), 'msg': \"Input should be 'system'\", 'input': 'assistant'}\n  {'type': 'string_type', 'loc': ('body', "
    "'messages', 1, 'ChatCompletionRequestAssistantMessage', 'content'), 'msg': 'Input should be a valid string', "
    "'input': None}\n"), "internal_server_error")


@pytest.mark.parametrize("refusal, first, learnt", [(OLLAMA_REFUSAL, None, ""), (LLAMA_CPP_PYTHON_REFUSAL, None, ""),
                                                    (LLAMA_CPP_PYTHON_VALIDATION, None, ""),
                                                    (BEDROCK_REFUSAL, "", None)])
def test_a_known_refusal_switches_the_form_and_is_remembered(fault, refusal, first, learnt):
    history = [HISTORY[0], {**HISTORY[1], "content": first}, HISTORY[2]]
    fault.add(refusal, completion("3 + 4 = 7."), completion("Again 7."))
    chosen = connect(fault)
    if first == "":  # a server that took "" before: the next request goes out as ""
        transport.learnt[(chosen.base_url, chosen.model)] = ""
    assert llm.ask(history)["content"] == "3 + 4 = 7."
    assert [sent_content(r) for r in fault.requests] == [first, learnt]
    assert transport.learnt == {(fault.url, "fault-model"): learnt}
    assert not hasattr(chosen, "empty_content") and "empty" not in repr(chosen)
    llm.ask(history)  # right the first time now
    assert sent_content(fault.requests[-1]) == learnt and len(fault.requests) == 3


@pytest.mark.parametrize("message", [
    "Invalid Content-Type header: expected application/json",
    "Your request was rejected by our content policy.",
    "This model's maximum context length is exceeded: content too long",
    "Request content-length exceeds the limit of 1 MB"])
def test_a_400_that_merely_mentions_content_changes_nothing(fault, message):
    fault.add(error(400, message))
    connect(fault)
    with pytest.raises(errors.BadRequest, match="ontent"):
        llm.ask(HISTORY)
    assert len(fault.requests) == 1 and transport.learnt == {}


def test_nothing_is_learnt_when_the_other_form_fails_too(fault):
    fault.add(OLLAMA_REFUSAL, BEDROCK_REFUSAL)
    connect(fault)
    with pytest.raises(errors.BadRequest):
        llm.ask(HISTORY)
    assert [sent_content(r) for r in fault.requests] == [None, ""] and transport.learnt == {}


# --- 10. a streamed call is one call; a refusal survives; connect() keeps use(); a reset ----------------

def delta(**call):
    return {"choices": [{"index": 0, "delta": {"tool_calls": [call]}}]}


def test_a_name_repeated_in_every_delta_is_one_call():
    parts = ['{"a": ', '3, "b"', ': 4}']
    stream = [{"id": "c", "choices": [{"index": 0, "delta": {"role": "assistant"}}]},
              *[delta(index=0, function={"name": "add", "arguments": part}) for part in parts]]
    [call] = wire.reply(wire.join(stream))["choices"][0]["message"]["tool_calls"]
    assert json.loads(call["function"]["arguments"]) == {"a": 3, "b": 4}


def test_two_whole_calls_at_one_index_without_ids_stay_two():
    stream = [delta(index=0, function={"name": "add", "arguments": '{"a": 1}'}),
              delta(index=0, function={"name": "add", "arguments": '{"a": 2}'})]
    calls = wire.join(stream)["choices"][0]["message"]["tool_calls"]
    assert [json.loads(c["function"]["arguments"]) for c in calls] == [{"a": 1}, {"a": 2}]


def test_a_refusal_survives_plain_streamed_and_in_parts():
    said = "I can't help with that."
    plain = {"choices": [{"index": 0, "message": {"role": "assistant", "content": None, "refusal": said}}]}
    parts = {"choices": [{"index": 0, "message": {"role": "assistant",
                                                  "content": [{"type": "refusal", "refusal": said}]}}]}
    streamed = wire.join([{"id": "c", "choices": [{"index": 0, "delta": {"refusal": piece}}]}
                          for piece in wire.pieces(said)])
    for response in (plain, parts, streamed):
        assert wire.reply(response)["choices"][0]["message"]["refusal"] == said


def test_connect_keeps_what_use_set(server_url):
    pytest.importorskip("ipywidgets")
    from agentloop.connect import Connect
    llm.use(timeout=7, retries=0, backoff=0.5, headers={"X-Team": "blue"}, temperature=0)
    form = Connect("Teaching model over HTTP")
    form.base_url.value = server_url
    chosen = form.apply()
    assert (chosen.timeout, chosen.retries, chosen.backoff) == (7, 0, 0.5)
    assert chosen.options == {"temperature": 0} and chosen.headers == {"X-Team": "blue"}
    form.preset.value = "Anthropic (OpenAI-compatible)"
    assert "anthropic-dangerous-direct-browser-access" in form.apply().headers
    form.preset.value = "OpenAI"  # another provider: Anthropic's header is not sent there
    assert form.apply().headers == {"X-Team": "blue"}


def test_a_reset_mid_answer_is_called_a_reset(fault):
    head = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n"
    fault.add(Reset(head + b'{"id": "chatcmpl-1", "choices": ['))
    connect(fault)
    with pytest.raises(errors.ConnectionFailed, match="reset while the answer was arriving") as caught:
        llm.ask(HI)
    assert "Could not connect" not in str(caught.value)


def test_a_reset_before_the_answer_is_not_could_not_connect(fault):
    fault.add(Reset())
    connect(fault)
    with pytest.raises(errors.ConnectionFailed) as caught:
        llm.ask(HI)
    assert "reset" in str(caught.value) and "Could not connect" not in str(caught.value)


def test_a_reset_while_sending_is_not_could_not_connect(fault):
    fault.add(Reset(early=True))
    connect(fault)
    with pytest.raises(errors.ConnectionFailed) as caught:
        llm.ask([{"role": "user", "content": "x" * 4_000_000}])  # still sending when the reset comes
    assert "reset" in str(caught.value) and "Could not connect" not in str(caught.value)


# --- issue 17: nothing a server sends parses without a bound ------------------------------------

DEEP = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize("reply, stream", [
    (Reply(200, '{"choices": ' + DEEP + "}"), False),
    (Reply(400, '{"error": {"message": ' + DEEP + "}}"), False),
    (Reply(200, "data: " + DEEP + "\n\n", {"Content-Type": "text/event-stream"}), True),
    (Reply(200, "data: " + json.dumps({"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {
        "name": "add", "arguments": DEEP[:60_000]}}]}}]}) + "\n\n" + "data: " + json.dumps({"choices": [{
            "index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"name": "add", "arguments": "x"}}]}}]})
        + "\n\ndata: [DONE]\n\n", {"Content-Type": "text/event-stream"}), True),
], ids=["answer", "error-body", "sse-event", "streamed-arguments"])
def test_json_nested_100000_deep_is_a_named_error_not_a_recursion_error(fault, reply, stream):
    fault.add(reply)
    connect(fault, retries=0)
    if "arguments" in str(reply.body):  # a streamed call's arguments are text: joined as they came
        assert llm.ask(HI, stream=stream)["tool_calls"][0]["function"]["arguments"].endswith("x")
        return
    with pytest.raises(errors.LLMError) as caught:
        llm.ask(HI, stream=stream)
    assert KEY not in str(caught.value) and len(str(caught.value)) < 2000


def test_an_answer_over_the_size_cap_is_a_bad_response_read_no_further(fault, monkeypatch):
    monkeypatch.setattr(transport, "MAX_ANSWER", 1_000_000, raising=False)
    fault.add(completion("x" * 2_000_000))
    connect(fault)
    with pytest.raises(errors.BadResponse, match="over 1,000,000 bytes.*not read further"):
        llm.ask(HI)


def test_a_request_nested_100000_deep_is_a_bad_request_in_the_kernel():
    nested = []
    for _ in range(100_000):
        nested = [nested]
    with pytest.raises(errors.BadRequest, match="deep"):
        llm.ask([{"role": "user", "content": "Hi", "extra": nested}])
