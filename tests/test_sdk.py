"""agentloop.openai_client(): the real openai SDK, its httpx client and its parsing, on the teaching model."""
import http.server
import json
import threading

import httpx
import openai
import pytest

import agentloop
from agentloop import trace
from agentloop.sdk import TeachingTransport

ADD = {"type": "function", "function": {"name": "add", "description": "Add two numbers.", "parameters": {
    "type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]}}}
MULTIPLY = {"type": "function", "function": {"name": "multiply", "description": "Multiply two numbers.",
                                             "parameters": ADD["function"]["parameters"]}}
TOOLS = {"add": lambda a, b: a + b, "multiply": lambda a, b: a * b}
QUESTION = [{"role": "user", "content": "What is (3 + 4) * 5?"}]


@pytest.fixture(autouse=True)
def clean(fresh_backend):
    pass


def run_loop(call, max_turns=6):
    """Lesson 3's loop, with the model call as a parameter: returns the messages and the answer."""
    messages = list(QUESTION)
    for _ in range(max_turns):
        message = call(messages)
        messages.append(message)
        if not message.get("tool_calls"):
            return messages, message["content"]
        for tool_call in message["tool_calls"]:
            arguments = json.loads(tool_call["function"]["arguments"])
            result = TOOLS[tool_call["function"]["name"]](**arguments)
            messages.append({"role": "tool", "tool_call_id": tool_call["id"], "content": str(result)})
    raise AssertionError("the loop did not finish")


def sdk_call(client, **options):
    def call(messages):
        response = client.chat.completions.create(model="teaching-model", messages=messages,
                                                  tools=[ADD, MULTIPLY], **options)
        return response.choices[0].message.model_dump(exclude_none=True, include={"role", "content", "tool_calls"})
    return call


def test_the_sdk_loop_is_the_course_loop_call_for_call():
    """Oracle: the course's own ask(); the SDK's parsed objects carry the same tool calls and answer."""
    course_messages, course_answer = run_loop(lambda messages: agentloop.ask(messages, tools=[ADD, MULTIPLY]))
    sdk_messages, sdk_answer = run_loop(sdk_call(agentloop.openai_client()))
    assert sdk_answer == course_answer and "35" in sdk_answer
    def calls(messages):  # the ids differ: the teaching model derives them from the exact request
        return [[(c["function"]["name"], c["function"]["arguments"]) for c in m.get("tool_calls") or []]
                for m in messages]
    assert calls(sdk_messages) == calls(course_messages)
    assert len([m for m in sdk_messages if m["role"] == "tool"]) == 2  # add, then multiply: a real loop


def test_the_transport_goes_through_httpx_and_records_the_trace(monkeypatch):
    sent = []
    original = TeachingTransport.handle_request
    monkeypatch.setattr(TeachingTransport, "handle_request",
                        lambda self, request: sent.append(request) or original(self, request))
    client = agentloop.openai_client()
    assert isinstance(client._client, httpx.Client)
    client.chat.completions.create(model="teaching-model", messages=QUESTION, tools=[ADD, MULTIPLY])
    assert [r.url.path for r in sent] == ["/v1/chat/completions"]
    assert json.loads(sent[0].read())["messages"] == QUESTION
    assert "authorization" in sent[0].headers  # the SDK's own request, headers and all
    assert [event.kind for event in trace.events][-2:] == ["request", "response"]


def test_same_bytes_as_the_server(server_url):
    """The in-process transport answers what `python -m agentloop serve` answers, plain and streamed."""
    local = httpx.Client(transport=TeachingTransport(), base_url="http://teaching-model.invalid/v1")
    remote = httpx.Client(base_url=server_url)
    for body in ({"model": "teaching-model", "messages": QUESTION, "tools": [ADD, MULTIPLY]},
                 {"model": "teaching-model", "messages": QUESTION, "stream": True,
                  "stream_options": {"include_usage": True}}):
        here, there = local.post("/chat/completions", json=body), remote.post("/chat/completions", json=body)
        assert (here.status_code, here.headers["content-type"], here.content) == \
               (there.status_code, there.headers["content-type"], there.content)
    assert local.get("/models").json() == remote.get("/models").json()


def test_streaming_joins_back_into_the_same_message():
    client = agentloop.openai_client()
    whole = client.chat.completions.create(model="teaching-model", messages=QUESTION, tools=[ADD, MULTIPLY])
    calls = {}
    stream = client.chat.completions.create(model="teaching-model", messages=QUESTION, tools=[ADD, MULTIPLY],
                                            stream=True, stream_options={"include_usage": True})
    usage = None
    for chunk in stream:
        usage = chunk.usage or usage
        for choice in chunk.choices:
            for part in choice.delta.tool_calls or []:
                call = calls.setdefault(part.index, {"id": part.id, "name": part.function.name, "arguments": ""})
                call["arguments"] += part.function.arguments or ""
    expected = [{"id": c.id, "name": c.function.name, "arguments": c.function.arguments}
                for c in whole.choices[0].message.tool_calls]
    assert list(calls.values()) == expected
    assert usage == whole.usage


def test_the_sdk_retries_the_teaching_models_429_itself():
    client = agentloop.openai_client()
    response = client.chat.completions.create(model="teaching-model+rate-limit-once", messages=QUESTION)
    assert response.choices[0].message.content
    with pytest.raises(openai.RateLimitError):
        agentloop.openai_client(max_retries=0).chat.completions.create(
            model="teaching-model+rate-limit-once", messages=[{"role": "user", "content": "Hello again"}])


def test_errors_are_the_sdks_named_errors():
    client = agentloop.openai_client()
    with pytest.raises(openai.BadRequestError):
        client.chat.completions.create(model="teaching-model", messages=[{"role": "tool", "content": "5"}])
    with pytest.raises(openai.NotFoundError):
        client.chat.completions.create(model="teaching-model+no-such-quirk", messages=QUESTION)


def test_a_chosen_backend_gets_a_client_for_its_url_and_key(server_url):
    agentloop.use(server_url, api_key="sk-chosen", model="teaching-model", timeout=7, retries=1)
    client = agentloop.openai_client()
    assert str(client.base_url).rstrip("/") == server_url and client.api_key == "sk-chosen"
    assert (client.timeout, client.max_retries) == (7, 1)
    _, answer = run_loop(sdk_call(client))  # over real HTTP to the teaching-model server
    assert "35" in answer


class Redirect(http.server.BaseHTTPRequestHandler):
    """Answers every request with a redirect to the recording server on another loopback address."""
    target = ""

    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.send_response(307)
        self.send_header("Location", self.target)
        self.send_header("Content-Length", "0")
        self.end_headers()

    def log_message(self, *args):
        pass


class Record(Redirect):
    seen = []

    def do_POST(self):
        Record.seen.append(dict(self.headers))
        self.send_response(500)
        self.send_header("Content-Length", "0")
        self.end_headers()


def test_a_redirect_never_takes_the_key_to_another_host():
    elsewhere = http.server.HTTPServer(("127.0.0.2", 0), Record)
    Redirect.target = f"http://127.0.0.2:{elsewhere.server_port}/v1/chat/completions"
    first = http.server.HTTPServer(("127.0.0.1", 0), Redirect)
    for server in (first, elsewhere):
        threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        agentloop.use(f"http://127.0.0.1:{first.server_port}/v1", api_key="sk-stays-home", retries=0)
        with pytest.raises(openai.APIStatusError) as raised:
            agentloop.openai_client().chat.completions.create(model="m", messages=QUESTION)
        assert raised.value.status_code == 307
        assert Record.seen == []  # nothing, with or without the key, reached the other host
    finally:
        for server in (first, elsewhere):
            server.shutdown()
            server.server_close()
