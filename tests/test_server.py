"""The teaching model over HTTP: real sockets on 127.0.0.1, the real openai SDK, curl-style urllib."""
import http.client
import json
import re
import select
import signal
import subprocess
import sys
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import openai
import pytest

from agentloop import teaching
from agentloop.server import serve_in_thread

MODEL = teaching.MODEL_NAME
ADD = {"type": "function", "function": {
    "name": "add", "description": "Add two numbers.",
    "parameters": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
                   "required": ["a", "b"]}}}
QUESTION = [{"role": "user", "content": "What is 2 + 3?"}]
HELLO = [{"role": "user", "content": "Hello! Who are you?"}]


@pytest.fixture(scope="module")
def url(server_url):
    return server_url


@pytest.fixture
def client(url):
    with openai.OpenAI(base_url=url, api_key="not-needed", timeout=5, max_retries=0) as client:
        yield client


def fetch(method, url, body=None, headers=None):
    """A curl-like request: (status, headers, body bytes), error statuses included."""
    data = body if body is None or isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(url, data, {"Content-Type": "application/json", **(headers or {})},
                                     method=method)
    try:
        with urllib.request.urlopen(request, timeout=5) as reply:
            return reply.status, reply.headers, reply.read()
    except urllib.error.HTTPError as error:
        with error:
            return error.code, error.headers, error.read()


def assert_openai_error(status, headers, body, expected_status):
    assert status == expected_status
    assert headers["Access-Control-Allow-Origin"] == "*"
    error = json.loads(body)["error"]
    assert set(error) == {"message", "type", "param", "code"}
    assert error["message"] and error["type"] == "invalid_request_error"
    return error


def stream(client, messages, **options):
    return list(client.chat.completions.create(model=MODEL, messages=messages, stream=True, **options))


def assemble_tool_calls(chunks):
    """Join tool-call deltas by index, as a streaming client must."""
    calls = {}
    for chunk in chunks:
        for delta in chunk.choices[0].delta.tool_calls or []:
            call = calls.setdefault(delta.index, {"id": "", "name": "", "arguments": ""})
            call["id"] += delta.id or ""
            call["name"] += delta.function.name or ""
            call["arguments"] += delta.function.arguments or ""
    return [calls[index] for index in sorted(calls)]


# --- the openai SDK ---------------------------------------------------------------------------

def test_tool_calling_round_trip(client):
    first = client.chat.completions.create(model=MODEL, messages=QUESTION, tools=[ADD])
    assert first.object == "chat.completion" and first.model == MODEL
    assert first.choices[0].finish_reason == "tool_calls"
    [call] = first.choices[0].message.tool_calls
    assert call.type == "function" and call.function.name == "add" and call.id
    assert isinstance(call.function.arguments, str)  # JSON text, as OpenAI sends it
    arguments = json.loads(call.function.arguments)
    assert arguments == {"a": 2, "b": 3}

    messages = QUESTION + [first.choices[0].message.model_dump(exclude_none=True),
                           {"role": "tool", "tool_call_id": call.id, "content": str(sum(arguments.values()))}]
    final = client.chat.completions.create(model=MODEL, messages=messages, tools=[ADD])
    assert final.choices[0].finish_reason == "stop"
    assert not final.choices[0].message.tool_calls
    assert "5" in final.choices[0].message.content
    assert final.usage.total_tokens == final.usage.prompt_tokens + final.usage.completion_tokens > 0


def test_streamed_text_matches_plain_reply(client):
    plain = client.chat.completions.create(model=MODEL, messages=HELLO).choices[0]
    chunks = stream(client, HELLO)
    assert chunks[0].choices[0].delta.role == "assistant"
    assert len(chunks) > 3  # really cut into deltas, not one blob
    assert all(chunk.object == "chat.completion.chunk" and chunk.id == chunks[0].id for chunk in chunks)
    text = "".join(chunk.choices[0].delta.content or "" for chunk in chunks)
    assert plain.message.content and text == plain.message.content
    assert [chunk.choices[0].finish_reason for chunk in chunks][-1] == plain.finish_reason == "stop"
    assert all(chunk.choices[0].finish_reason is None for chunk in chunks[:-1])
    assert all(chunk.usage is None for chunk in chunks)  # usage only when asked for


def test_streamed_tool_calls_match_plain_reply(client):
    plain = client.chat.completions.create(model=MODEL, messages=QUESTION, tools=[ADD]).choices[0]
    chunks = stream(client, QUESTION, tools=[ADD])
    expected = [{"id": call.id, "name": call.function.name, "arguments": call.function.arguments}
                for call in plain.message.tool_calls]
    assert assemble_tool_calls(chunks) == expected
    assert chunks[-1].choices[0].finish_reason == "tool_calls"


def test_stream_usage_comes_last_when_asked(client):
    plain = client.chat.completions.create(model=MODEL, messages=HELLO)
    chunks = stream(client, HELLO, stream_options={"include_usage": True})
    assert chunks[-1].choices == [] and chunks[-1].usage == plain.usage
    assert all(chunk.usage is None for chunk in chunks[:-1])


def test_models_list(client):
    assert [model.id for model in client.models.list()] == [MODEL]


def test_invalid_request_is_a_400_and_the_server_goes_on(client):
    with pytest.raises(openai.BadRequestError) as caught:
        client.chat.completions.create(model=MODEL, messages=[{"content": "a message without a role"}])
    assert caught.value.status_code == 400 and caught.value.message
    assert client.chat.completions.create(model=MODEL, messages=HELLO).choices[0].message.content


def test_concurrent_requests(client):
    with ThreadPoolExecutor(8) as pool:
        replies = list(pool.map(lambda _: client.chat.completions.create(
            model=MODEL, messages=QUESTION, tools=[ADD]), range(16)))
    assert {reply.choices[0].message.tool_calls[0].function.arguments for reply in replies} == {
        replies[0].choices[0].message.tool_calls[0].function.arguments}


# --- raw HTTP, as curl or a browser would send it --------------------------------------------

def test_raw_post_answers_the_chat_completion_shape(url):
    status, headers, body = fetch("POST", url + "/chat/completions",
                                 {"model": MODEL, "messages": QUESTION, "tools": [ADD]})
    assert status == 200 and headers["Content-Type"] == "application/json"
    response = json.loads(body)
    assert response["object"] == "chat.completion" and response["id"] and isinstance(response["created"], int)
    choice = response["choices"][0]
    assert choice["index"] == 0 and choice["message"]["role"] == "assistant"
    assert json.loads(choice["message"]["tool_calls"][0]["function"]["arguments"]) == {"a": 2, "b": 3}
    assert set(response["usage"]) >= {"prompt_tokens", "completion_tokens", "total_tokens"}


def test_raw_stream_is_server_sent_events(url):
    status, headers, body = fetch("POST", url + "/chat/completions",
                                 {"model": MODEL, "messages": HELLO, "stream": True})
    assert status == 200 and headers["Content-Type"] == "text/event-stream"
    assert headers["Access-Control-Allow-Origin"] == "*"
    events = body.decode().split("\n\n")
    assert events[-2:] == ["data: [DONE]", ""]
    assert all(event.startswith("data: {") for event in events[:-2])
    first = json.loads(events[0][len("data: "):])
    assert first["object"] == "chat.completion.chunk"
    assert first["choices"][0]["delta"] == {"role": "assistant", "content": ""}


@pytest.mark.parametrize("body, param", [
    (b"{not json", None),
    (b"", None),
    (b"[1, 2]", "messages"),
    ({"model": MODEL}, "messages"),
    ({"model": MODEL, "messages": "Hello"}, "messages"),
])
def test_malformed_request_is_a_400_and_the_next_one_succeeds(url, body, param):
    error = assert_openai_error(*fetch("POST", url + "/chat/completions", body), 400)
    assert error["param"] == param
    status, _, _ = fetch("POST", url + "/chat/completions", {"model": MODEL, "messages": HELLO})
    assert status == 200


@pytest.mark.parametrize("method, path", [("GET", "/v1/nothing"), ("POST", "/v2/chat/completions"),
                                          ("GET", "/")])
def test_unknown_path_is_a_404_in_the_same_shape(url, method, path):
    root = url.removesuffix("/v1")
    error = assert_openai_error(*fetch(method, root + path, b"{}" if method == "POST" else None), 404)
    assert path.rstrip("/") in error["message"]


def test_unsupported_method_is_answered_in_json(url):
    assert_openai_error(*fetch("PUT", url + "/chat/completions", b"{}"), 501)


@pytest.mark.parametrize("asked", ["authorization, content-type", "authorization, content-type, x-stainless-os",
                                   None])
def test_cors_preflight(url, asked):
    status, headers, body = fetch("OPTIONS", url + "/chat/completions", headers={
        "Origin": "http://127.0.0.1:8000", "Access-Control-Request-Method": "POST",
        **({"Access-Control-Request-Headers": asked} if asked else {})})
    assert status == 204 and body == b""
    assert headers["Access-Control-Allow-Origin"] == "*"
    assert "POST" in headers["Access-Control-Allow-Methods"]
    assert headers["Access-Control-Allow-Private-Network"] == "true"
    allowed = set(re.split(r"\s*,\s*", headers["Access-Control-Allow-Headers"].lower()))
    assert {"authorization", "content-type"} | set(re.split(r"\s*,\s*", asked or "")) - {""} <= allowed


def test_cors_header_on_models(url):
    status, headers, body = fetch("GET", url + "/models")
    assert status == 200 and headers["Access-Control-Allow-Origin"] == "*"
    assert json.loads(body)["object"] == "list"


def test_kept_alive_connection_survives_an_error(url):
    # A 404 to a POST must still consume the body, or the next request on the connection breaks.
    host, port = re.match(r"http://([\d.]+):(\d+)", url).groups()
    connection = http.client.HTTPConnection(host, int(port), timeout=5)
    try:
        connection.request("POST", "/v1/nowhere", body=json.dumps({"messages": HELLO}))
        reply = connection.getresponse()
        assert reply.status == 404 and reply.read()
        connection.request("GET", "/v1/models")
        reply = connection.getresponse()
        assert reply.status == 200 and json.loads(reply.read())["data"][0]["id"] == MODEL
    finally:
        connection.close()


def test_a_crash_in_the_model_is_a_500_and_the_server_goes_on(url, monkeypatch):
    def broken(request):
        raise RuntimeError("a bug in the teaching model")
    monkeypatch.setattr(teaching, "respond", broken)
    status, headers, body = fetch("POST", url + "/chat/completions", {"model": MODEL, "messages": HELLO})
    assert status == 500 and headers["Access-Control-Allow-Origin"] == "*"
    assert json.loads(body)["error"]["type"] == "server_error"
    monkeypatch.undo()
    assert fetch("POST", url + "/chat/completions", {"model": MODEL, "messages": HELLO})[0] == 200


# --- the command line -------------------------------------------------------------------------

def start_cli(*args):
    # Started as a shell starts a background job, with Ctrl-C ignored: it must stop on it anyway.
    ignore_ctrl_c = lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)  # noqa: E731
    return subprocess.Popen([sys.executable, "-m", "agentloop", "serve", *args], preexec_fn=ignore_ctrl_c,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def test_cli_serves_logs_quietly_and_stops_on_ctrl_c():
    key = "sk-test-" + "k" * 40
    server = start_cli("--port", "0")
    try:
        assert select.select([server.stdout], [], [], 20)[0], "the server printed no URL"
        url = re.search(r"http://127\.0\.0\.1:[1-9]\d*/v1", server.stdout.readline()).group()
        status, _, body = fetch("POST", url + "/chat/completions?key=" + key,
                               {"model": MODEL, "messages": QUESTION}, {"Authorization": "Bearer " + key})
        assert status == 200 and json.loads(body)["choices"]
        assert fetch("GET", url + "/nothing")[0] == 404
        server.send_signal(signal.SIGINT)
        out, err = server.communicate(timeout=10)
    finally:
        if server.poll() is None:
            server.kill()
            server.communicate()
    assert server.returncode == 0
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert err.splitlines() == ["POST /v1/chat/completions 200", "GET /v1/nothing 404"]
    assert key not in out + err and "2 + 3" not in err


def test_cli_port_in_use_is_one_clear_line():
    server, url = serve_in_thread()
    port = url.split(":")[-1].split("/")[0]
    cli = start_cli("--port", port)
    try:
        out, err = cli.communicate(timeout=20)
    finally:
        server.stop()
        if cli.poll() is None:  # it should have given up at once; never leave it behind
            cli.kill()
            cli.communicate()
    assert cli.returncode == 1
    assert f"Cannot listen on 127.0.0.1:{port}" in err and "Traceback" not in err
