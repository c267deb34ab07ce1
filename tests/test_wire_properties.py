"""Property-based tests: whatever a server answers, the client gives back the one shape or one of
our named errors, never a KeyError or TypeError from deep inside.

Hypothesis makes the answers: well-formed chat completions with every accent (arguments as text,
object, null or broken JSON; ids missing, empty or repeated; content null, "", parts; any
finish_reason), the same with random damage, random JSON, random bytes, random server-sent events,
and random HTTP statuses and headers served for real by the fault server on 127.0.0.1.
"""
import json
import string

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from agentloop import errors, llm, trace, wire
from agentloop.wire import chunks
from fault_server import FaultServer, Raw, Reply

# --- strategies --------------------------------------------------------------------------------

scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=12)
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                           | st.dictionaries(st.text(max_size=8), inner, max_size=4), max_leaves=12)
names = st.text(string.ascii_letters + string.digits + "_-", min_size=1, max_size=20)
arguments = st.one_of(
    st.dictionaries(names, scalars, max_size=3).map(json.dumps),     # OpenAI: JSON text
    st.dictionaries(names, scalars, max_size=3),                      # Ollama native: an object
    st.just(""), st.none(), st.just('{"a": 1'), st.text(max_size=10))  # empty, null, broken
ids = st.one_of(st.just(""), st.none(), st.just("call_1"), st.text(string.ascii_letters, min_size=1, max_size=12))


@st.composite
def tool_calls(draw):
    call = {"type": "function", "function": {"name": draw(names), "arguments": draw(arguments)}}
    id = draw(ids)
    if id is not None or draw(st.booleans()):
        call["id"] = id
    if draw(st.booleans()):
        call["index"] = draw(st.integers(0, 3))
    return call


@st.composite
def completions(draw):
    """A chat completion as some provider might send it."""
    message = {"role": "assistant",
               "content": draw(st.one_of(st.none(), st.text(max_size=20),
                                         st.lists(st.fixed_dictionaries({"type": st.just("text"),
                                                                         "text": st.text(max_size=8)}), max_size=2)))}
    calls = draw(st.one_of(st.none(), st.lists(tool_calls(), max_size=3)))
    if calls is not None:
        message["tool_calls"] = calls
    return {"id": "chatcmpl-x", "object": "chat.completion", "created": 0, "model": "m",
            "choices": [{"index": 0, "message": message,
                         "finish_reason": draw(st.sampled_from(["stop", "tool_calls", "length", None]))}]}


@st.composite
def damaged(draw):
    """A completion with one part replaced by something random."""
    response = draw(completions())
    path = draw(st.sampled_from([(), ("choices",), ("choices", 0), ("choices", 0, "message"),
                                 ("choices", 0, "message", "content"), ("choices", 0, "message", "tool_calls")]))
    junk = draw(json_values)
    if not path:
        return junk
    target = response
    for step in path[:-1]:
        target = target[step]
    target[path[-1]] = junk
    return response


answers = st.one_of(completions(), damaged(), json_values)


def assert_one_shape(response):
    message = response["choices"][0]["message"]
    assert message["role"] == "assistant"
    assert message["content"] is None or isinstance(message["content"], str)
    calls = message.get("tool_calls")
    assert calls is None or (isinstance(calls, list) and calls)
    ids = [call["id"] for call in calls or []]
    assert all(isinstance(i, str) and i.strip() for i in ids) and len(set(ids)) == len(ids)
    for call in calls or []:
        assert call["type"] == "function" and isinstance(call["function"]["name"], str)
        assert isinstance(call["function"]["arguments"], str)


# --- the parsing functions ---------------------------------------------------------------------

@given(answers)
@settings(max_examples=400, deadline=None)
def test_reply_gives_one_shape_or_a_wire_error(response):
    try:
        normal = wire.reply(response, seed=["request"])
    except wire.WireError:
        return
    assert_one_shape(normal)
    assert wire.reply(normal, seed=["request"]) == normal  # normalising twice changes nothing more


@given(completions())
@settings(max_examples=300, deadline=None)
def test_a_well_formed_answer_always_parses(response):
    normal = wire.reply(response)
    assert_one_shape(normal)
    sent = response["choices"][0]["message"].get("tool_calls") or []
    got = normal["choices"][0]["message"].get("tool_calls") or []
    for before, after in zip(sent, got, strict=True):
        arguments = before["function"]["arguments"]
        if isinstance(arguments, (dict, list)):
            assert json.loads(after["function"]["arguments"]) == arguments
        elif arguments:
            assert after["function"]["arguments"] == arguments  # text, even broken, goes to the loop as it came
        if isinstance(before.get("id"), str) and before["id"].strip() and [c.get("id") for c in sent].count(before["id"]) == 1:
            assert after["id"] == before["id"]  # a usable id is kept
        elif after["id"] != before.get("id"):
            assert len(after["id"]) == 9 and after["id"].isalnum()


@given(completions(), st.booleans(), st.randoms(use_true_random=False))
@settings(max_examples=200, deadline=None)
def test_a_stream_joins_back_into_the_same_message(response, index_zero, random):
    normal = wire.reply(response, seed="s")
    message = normal["choices"][0]["message"]
    # The stream a server would send for the normalised answer, with Gemini's index 0 if drawn.
    parts = list(chunks(normal))
    if index_zero:
        for chunk in parts:
            for choice in chunk["choices"]:
                for part in choice["delta"].get("tool_calls") or []:
                    part["index"] = 0
    body = "".join(f"data: {json.dumps(chunk)}\n\n" for chunk in parts) + "data: [DONE]\n\n"
    joined = wire.reply(wire.join(wire.events(body)), seed="s")["choices"][0]["message"]
    assert joined.get("tool_calls", []) == [{**{k: v for k, v in c.items() if k != "index"}}
                                            for c in message.get("tool_calls", [])]
    assert (joined["content"] or "") == (message["content"] or "")


@given(st.text(max_size=300) | st.lists(json_values, max_size=5).map(
    lambda values: "".join(f"data: {json.dumps(v)}\n\n" for v in values)))
@settings(max_examples=300, deadline=None)
def test_any_stream_body_joins_or_is_a_wire_error(body):
    try:
        joined = wire.join(wire.events(body))
    except wire.WireError:
        return
    try:
        assert_one_shape(wire.reply(joined))
    except wire.WireError:
        pass


@given(st.lists(json_values | st.fixed_dictionaries({"role": st.sampled_from(["assistant", "tool", "user"])},
                                                    optional={"content": json_values, "tool_calls": json_values,
                                                              "tool_call_id": json_values}), max_size=5),
       st.sampled_from([None, ""]))
@settings(max_examples=300, deadline=None)
def test_prepare_never_fails_and_is_stable(messages, empty):
    request = {"model": "m", "messages": messages}
    prepared = wire.prepare(request, empty)
    assert wire.prepare(prepared, empty) == prepared
    assert json.loads(json.dumps(prepared)) == prepared
    assert request == {"model": "m", "messages": messages}  # the caller's list is not changed


# --- through a real socket -----------------------------------------------------------------------

@pytest.fixture(scope="module")
def fault():
    with FaultServer() as server:
        yield server
    llm._current = None  # the next test module starts from the default backend again


STATUSES = [200, 200, 200, 201, 204, 301, 400, 401, 404, 409, 422, 429, 500, 502, 503]
RETRY_AFTER = ["", "0", "abc", "-1", "1e9", "Wed, 21 Oct 2015 07:28:00 GMT", "Thu, 01 Jan 2099 00:00:00 GMT"]
bodies = st.one_of(answers.map(json.dumps), st.binary(max_size=60), st.text(max_size=60))


@given(st.sampled_from(STATUSES), bodies, st.sampled_from(RETRY_AFTER), st.sampled_from(["json", "cut", "raw"]))
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_over_http_only_named_errors(fault, status, body, retry_after, how):
    assume(not (status == 204 and how == "json"))  # a 204 has no body by definition
    llm._current = None
    trace.clear()
    llm.use(fault.url, api_key="sk-test-" + "p" * 40, timeout=1, retries=1, backoff=0.01)
    data = body if isinstance(body, bytes) else body.encode()
    step = {"json": Reply(status, data, {"Retry-After": retry_after} if retry_after else {}),
            "cut": Reply(status, data, cut=len(data) // 2),
            "raw": Raw(data)}[how]
    fault.script.clear()
    fault.add(step, step)  # the same again if the client retries
    try:
        message = llm.ask([{"role": "user", "content": "Hi"}])
    except errors.LLMError as error:
        assert "sk-test-" not in str(error)
        return
    assert 200 <= status < 300 and how == "json"
    assert_one_shape({"choices": [{"message": message}]})
