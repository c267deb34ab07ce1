"""The teaching model's wire format, its validation, and how it reacts to loop mistakes."""

import hashlib
import json

import pytest
from tools_for_tests import ADD, MULTIPLY, run_tool

import agentloop
from agentloop import errors, teaching, wire
from agentloop.tokens import count_tokens


def request(*messages, tools=None, **extra):
    body = {"model": "teaching-model", "messages": list(messages), **extra}
    if tools:
        body["tools"] = tools
    return body


def user(text):
    return {"role": "user", "content": text}


def test_plain_reply_is_exactly_the_chat_completions_shape():
    body = request(user("Hello!"))
    response = teaching.respond(body)
    assert set(response) == {"id", "object", "created", "model", "choices", "usage", "system_fingerprint"}
    assert response["object"] == "chat.completion"
    assert response["id"].startswith("chatcmpl-") and len(response["id"]) == 33
    assert response["created"] == teaching.CREATED and response["model"] == "teaching-model"
    assert response["choices"] == [{
        "index": 0, "logprobs": None, "finish_reason": "stop",
        "message": {"role": "assistant", "refusal": None,
                    "content": "Hello! I'm the teaching model, a rule-based stand-in for an LLM. "
                               "Ask me some arithmetic, give me tools, or tell me about yourself."}}]
    usage = response["usage"]
    assert usage["prompt_tokens"] == 4 + count_tokens("Hello!") == 6
    assert usage["completion_tokens"] == count_tokens(response["choices"][0]["message"]["content"])
    assert usage["total_tokens"] == usage["prompt_tokens"] + usage["completion_tokens"]


def test_tool_call_shape_has_string_arguments_and_call_ids():
    body = request(user("What is 2 + 3?"), tools=[ADD])
    response = teaching.respond(body)
    choice = response["choices"][0]
    assert choice["finish_reason"] == "tool_calls"
    assert choice["message"]["content"] is None
    [call] = choice["message"]["tool_calls"]
    assert call["type"] == "function" and call["function"] == {"name": "add", "arguments": '{"a": 2, "b": 3}'}
    assert call["id"] == wire.new_id(hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest(), 0)


def test_same_request_same_response_and_different_requests_different_ids():
    first = teaching.respond(request(user("What is 2 + 3?"), tools=[ADD]))
    again = teaching.respond(request(user("What is 2 + 3?"), tools=[ADD]))
    other = teaching.respond(request(user("What is 2 + 4?"), tools=[ADD]))
    assert first == again
    assert first["id"] != other["id"]
    assert first["choices"][0]["message"]["tool_calls"][0]["id"] != other["choices"][0]["message"]["tool_calls"][0]["id"]


def test_parallel_calls_get_distinct_ids():
    weather = {"type": "function", "function": {"name": "get_weather", "parameters": {
        "type": "object", "properties": {"city": {"type": "string"}}}}}
    message = teaching.respond(request(user("Weather in Paris and London?"), tools=[weather]))["choices"][0]["message"]
    ids = [c["id"] for c in message["tool_calls"]]
    assert len(ids) == 2 and len(set(ids)) == 2


@pytest.mark.parametrize("body, says", [
    ({"messages": [user("hi")]}, "model parameter"),
    ({"model": "teaching-model"}, "'messages' must be a non-empty array"),
    ({"model": "teaching-model", "messages": []}, "'messages' must be a non-empty array"),
    ({"model": "teaching-model", "messages": [{"role": "robot", "content": "hi"}]}, "messages[0].role"),
    ({"model": "teaching-model", "messages": [{"role": "user", "content": 42}]}, "messages[0].content"),
    ({"model": "teaching-model", "messages": [{"role": "user"}]}, "needs content"),
    ({"model": "teaching-model", "messages": [user("hi"), {"role": "tool", "tool_call_id": "x", "content": "1"}]},
     "must be a response to a preceding message with 'tool_calls'"),
    ({"model": "teaching-model", "messages": [user("hi")], "tool_choice": "required"}, "only allowed when 'tools'"),
    ({"model": "teaching-model", "messages": [user("hi")], "tools": [{"type": "function", "function": {"name": "bad name"}}]},
     "tools[0].function.name"),
    ({"model": "teaching-model", "messages": [user("hi")], "tools": [{"name": "add"}]}, "tools[0]"),
    ({"model": "teaching-model", "messages": [user("hi")], "tools": [ADD],
      "tool_choice": {"type": "function", "function": {"name": "nope"}}}, "no tool named 'nope'"),
    ({"model": "teaching-model", "messages": [user("hi")], "tools": [ADD], "tool_choice": "always"}, "tool_choice"),
    ("not an object", "JSON object"),
])
def test_malformed_requests_are_rejected_like_a_real_api(body, says):
    with pytest.raises(teaching.InvalidRequest, match=None) as raised:
        teaching.respond(body)
    assert says in str(raised.value)


def test_a_tool_call_left_without_its_result_is_a_400_naming_the_id():
    reply = teaching.respond(request(user("What is 2 + 3?"), tools=[ADD]))["choices"][0]["message"]
    with pytest.raises(teaching.InvalidRequest) as raised:
        teaching.respond(request(user("What is 2 + 3?"), reply, tools=[ADD]))
    assert reply["tool_calls"][0]["id"] in str(raised.value)


def loop(messages, tools, max_turns, append_results=True):
    """The lesson 3 loop, with a switch to make the classic mistake."""
    for turn in range(1, max_turns + 1):
        message = agentloop.ask(messages, tools)
        if not message.get("tool_calls"):
            return turn, message["content"]
        if append_results:
            messages.append(message)
            messages += [{"role": "tool", "tool_call_id": c["id"], "content": run_tool(c)}
                         for c in message["tool_calls"]]
    return max_turns, None


def test_the_loop_needs_one_turn_per_step_and_ends_with_the_answer():
    turns, answer = loop([user("What is (3 + 4) * 5?")], [ADD, MULTIPLY], max_turns=5)
    assert (turns, answer) == (3, "The answer is 35.")


def test_a_loop_that_forgets_the_results_calls_the_tool_forever_until_max_turns():
    agentloop.trace.clear()
    turns, answer = loop([user("What is 2 + 3?")], [ADD], max_turns=4, append_results=False)
    assert (turns, answer) == (4, None)
    calls = [e.payload["choices"][0]["message"]["tool_calls"][0]["function"]
             for e in agentloop.trace.events if e.kind == "response"]
    assert calls == [{"name": "add", "arguments": '{"a": 2, "b": 3}'}] * 4


def test_ask_turns_an_invalid_request_into_a_clear_bad_request_error():
    with pytest.raises(errors.BadRequest) as raised:
        agentloop.ask([{"role": "tool", "tool_call_id": "x", "content": "1"}])
    assert "400 from the teaching model" in str(raised.value) and "Try:" in str(raised.value)


def test_ask_rejects_what_cannot_be_sent_as_json():
    with pytest.raises(errors.BadRequest, match="cannot be sent as JSON"):
        agentloop.ask([{"role": "user", "content": object()}])


def test_ask_records_request_and_response_in_the_trace():
    agentloop.trace.clear()
    message = agentloop.ask([user("What is 2 + 3?")])
    kinds = [e.kind for e in agentloop.trace.events]
    assert kinds == ["request", "response"]
    assert agentloop.trace.events[0].payload["messages"] == [user("What is 2 + 3?")]
    assert agentloop.trace.events[1].payload["choices"][0]["message"] == message
    assert message["content"] == "2 + 3 = 5"


def test_count_tokens_counts_words_and_punctuation():
    assert count_tokens("") == 0
    assert count_tokens("Hello, world!") == 4
    assert count_tokens("name: Ada") == 3


def test_chained_steps_are_one_tool_call_per_turn_in_order_each_using_the_last_result():
    agentloop.trace.clear()
    turns, answer = loop([user("Add 3 and 4, then multiply the result by 5")], [ADD, MULTIPLY], max_turns=5)
    calls = [e.payload["choices"][0]["message"]["tool_calls"] for e in agentloop.trace.events
             if e.kind == "response" and e.payload["choices"][0]["message"].get("tool_calls")]
    assert [[c["function"] for c in turn] for turn in calls] == [
        [{"name": "add", "arguments": '{"a": 3, "b": 4}'}], [{"name": "multiply", "arguments": '{"a": 7, "b": 5}'}]]
    assert (turns, answer) == (3, "The answer is 35.")


def test_forgetting_one_of_several_likes_keeps_the_others():
    system = {"role": "system", "content": "Known about the user:\n- likes: museums, jazz"}
    forget = {"type": "function", "function": {"name": "forget", "description": "Forget a fact.", "parameters": {
        "type": "object", "properties": {"key": {"type": "string"}}, "required": ["key"]}}}
    remember = {"type": "function", "function": {"name": "remember", "description": "Remember a fact.", "parameters": {
        "type": "object", "properties": {"key": {"type": "string"}, "value": {"type": "string"}}, "required": ["key", "value"]}}}
    body = request(system, user("Forget that I like museums"), tools=[remember, forget])
    [call] = teaching.respond(body)["choices"][0]["message"]["tool_calls"]
    assert call["function"] == {"name": "remember", "arguments": '{"key": "likes", "value": "jazz"}'}
