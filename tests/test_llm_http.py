"""agentloop.ask over real HTTP on 127.0.0.1: our server, then a server that fails on purpose.

Every failure must become one named error from agentloop.errors whose message names the URL,
gives a hint, and never contains the API key, even when the server echoes the key back.
"""
import json
import socket
import time

import pytest

from agentloop import errors, llm, trace
from fault_server import Hang, Raw, Reply, completion, error

pytestmark = pytest.mark.usefixtures("fresh_backend")  # each test chooses its own backend

KEYS = ["sk-test-" + "a1B2c3D4e5" * 4,   # shaped like an OpenAI key
        "local-secret-" + "x9" * 20]      # shaped like nothing in particular
ADD = {"type": "function", "function": {
    "name": "add", "description": "Add two numbers.",
    "parameters": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
                   "required": ["a", "b"]}}}
QUESTION = [{"role": "user", "content": "What is 2 + 3?"}]


def closed_port_url():
    with socket.socket() as probe:  # a port that was free a moment ago, and nobody listens on
        probe.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{probe.getsockname()[1]}/v1"


# --- against our own server -------------------------------------------------------------------

def test_ask_through_our_server_runs_a_tool_loop(server_url):
    llm.use(server_url, api_key=KEYS[0], timeout=5)
    message = llm.ask(QUESTION, tools=[ADD])
    [call] = message["tool_calls"]
    assert call["function"]["name"] == "add"
    arguments = json.loads(call["function"]["arguments"])
    assert arguments == {"a": 2, "b": 3}
    result = {"role": "tool", "tool_call_id": call["id"], "content": str(arguments["a"] + arguments["b"])}
    final = llm.ask(QUESTION + [message, result], tools=[ADD])
    assert "5" in final["content"] and not final.get("tool_calls")
    assert [event.kind for event in trace.events] == ["request", "response"] * 2


def test_http_and_in_process_give_the_same_answer(server_url):
    llm.use(server_url, timeout=5)
    over_http = llm.complete(QUESTION, tools=[ADD])
    llm.use()
    assert llm.complete(QUESTION, tools=[ADD]) == over_http


def test_our_server_rejects_a_forgotten_tool_result(server_url):
    llm.use(server_url, timeout=5)
    message = llm.ask(QUESTION, tools=[ADD])
    with pytest.raises(errors.BadRequest) as caught:
        llm.ask(QUESTION + [message, {"role": "user", "content": "and?"}], tools=[ADD])
    assert caught.value.status == 400 and "tool_call_id" in str(caught.value)


# --- what the client sends --------------------------------------------------------------------

def test_the_request_on_the_wire(fault):
    fault.add(completion("Hi"), completion("Hi again"))
    llm.use(fault.url, api_key=KEYS[0], model="some-model", timeout=5)
    assert llm.ask(QUESTION, tools=[ADD], temperature=0)["content"] == "Hi"
    llm.use(fault.url, timeout=5)
    assert llm.ask(QUESTION)["content"] == "Hi again"
    with_key, without_key = fault.requests
    assert (with_key.method, with_key.path) == ("POST", "/v1/chat/completions")
    assert with_key.headers["Authorization"] == "Bearer " + KEYS[0]
    assert with_key.headers["Content-Type"] == "application/json"
    assert with_key.json() == {"model": "some-model", "messages": QUESTION, "tools": [ADD], "temperature": 0}
    assert "Authorization" not in without_key.headers


# --- every fault becomes a named error --------------------------------------------------------

def echo(status, body_of):
    """A step that puts the client's Authorization header into the answer, as a careless server might."""
    return lambda request: Reply(status, body_of(request.headers.get("Authorization", "")))


FAULTS = {  # name: (scripted step, expected error, expected HTTP status, words from the message)
    "401": (echo(401, lambda auth: {"error": {"message": f"Incorrect API key provided: {auth[7:]}",
                                              "type": "invalid_request_error", "code": "invalid_api_key"}}),
            errors.AuthError, 401, "Incorrect API key"),
    "403": (echo(403, lambda auth: {"error": f"Forbidden for {auth}"}), errors.AuthError, 403, "Forbidden"),
    "404": (echo(404, lambda auth: {"error": {"message": f"The model does not exist ({auth})"}}),
            errors.NotFound, 404, "does not exist"),
    "429": (echo(429, lambda auth: {"error": {"message": f"Rate limit reached for key {auth}"}}),
            errors.RateLimited, 429, "Rate limit reached"),
    "500": (echo(500, lambda auth: {"error": {"message": f"Internal error while serving {auth}",
                                              "type": "server_error"}}),
            errors.ServerError, 500, "Internal error"),
    "502 html": (echo(502, lambda auth: f"<html><body>Bad gateway. {auth}</body></html>"),
                 errors.ServerError, 502, "Bad gateway"),
    "400": (echo(400, lambda auth: {"error": {"message": f"'messages' is too short. You sent {auth}",
                                              "type": "invalid_request_error", "param": "messages"}}),
            errors.BadRequest, 400, "too short"),
    "200 not json": (echo(200, lambda auth: f"Welcome to my homepage! Your header: {auth}"),
                     errors.BadResponse, None, "not JSON"),
    "200 no choices": (echo(200, lambda auth: {"error": f"Quota exceeded for {auth}"}),
                       errors.BadResponse, None, "no choices"),
    "truncated": (lambda request: Reply(200, json.dumps({"echo": request.headers["Authorization"],
                                                         "choices": []}), cut=30),
                  errors.ConnectionFailed, None, "closed"),
    "dropped": (Raw(b""), errors.ConnectionFailed, None, "The connection"),
    "not http": (Raw(b"SSH-2.0-OpenSSH_9.6\r\n"), errors.BadResponse, None, "not HTTP"),
    "hang": (Hang(10), errors.Timeout, None, "0.5 s"),
}


@pytest.mark.parametrize("key", KEYS, ids=["sk-key", "plain-key"])
@pytest.mark.parametrize("name", FAULTS)
def test_fault_becomes_a_named_error_without_the_key(fault, name, key):
    step, expected, status, words = FAULTS[name]
    fault.add(step)
    llm.use(fault.url, api_key=key, timeout=0.5)
    started = time.monotonic()
    with pytest.raises(expected) as caught:
        llm.ask(QUESTION)
    assert time.monotonic() - started < 3  # a timeout is the client's, not the test runner's
    assert len(fault.requests) == 1
    assert_helpful(caught.value, fault.url + "/chat/completions", key, words)
    assert caught.value.status == status


def test_closed_port_is_connection_failed():
    url = closed_port_url()
    llm.use(url, api_key=KEYS[0], timeout=0.5)
    with pytest.raises(errors.ConnectionFailed) as caught:
        llm.ask(QUESTION)
    assert_helpful(caught.value, url + "/chat/completions", KEYS[0], "refused")
    assert "is the server running" in str(caught.value)


def test_short_placeholder_key_does_not_garble_the_message(fault):
    # Local servers take any key, so students type api_key="x"; it is no secret to hide.
    fault.add(error(404, "The model 'x-small' does not exist"))
    llm.use(fault.url, api_key="x", timeout=0.5)
    with pytest.raises(errors.NotFound) as caught:
        llm.ask(QUESTION)
    assert "x-small" in str(caught.value) and fault.url in str(caught.value)


def test_fault_server_runs_a_script_in_order(fault):
    # The fault server itself, since later tests (retries, quirks) lean on it.
    fault.add(error(429, "slow down"), completion("Done."))
    llm.use(fault.url, timeout=0.5)
    with pytest.raises(errors.RateLimited):
        llm.ask(QUESTION)
    assert llm.ask(QUESTION)["content"] == "Done."
    with pytest.raises(errors.ServerError, match="script exhausted"):
        llm.ask(QUESTION)
    assert len(fault.requests) == 3


def assert_helpful(error: errors.LLMError, url: str, key: str, words: str):
    text = str(error)
    assert isinstance(error, errors.LLMError)
    assert url in text, "the message names the URL"
    assert error.hint and text.endswith(f". Try: {error.hint}"), "the message ends with a hint"
    assert words in text
    for leak in (text, repr(error), error.what, *map(str, error.args)):
        assert key not in leak and key[8:30] not in leak  # nor a long piece of it
