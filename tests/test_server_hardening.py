"""The teaching-model server against bad clients: huge, unsized, chunked or stalled requests, over real sockets."""
import json
import re
import select
import socket
import time

import pytest

from agentloop import server as server_module
from agentloop.server import Handler, serve_in_thread
from test_server import HELLO, MODEL, fetch, start_cli

RATE_LIMITED = MODEL + "+rate-limit-once"


@pytest.fixture
def address(server_url):
    host, port = re.match(r"http://([\d.]+):(\d+)", server_url).groups()
    return host, int(port)


def exchange(address, head: str, body: bytes = b"", timeout=5) -> bytes:
    """Send a raw request (head without the blank line) and read until the server closes or goes quiet."""
    with socket.create_connection(address, timeout=timeout) as connection:
        connection.sendall(head.encode() + b"\r\n\r\n" + body)
        reply = b""
        while True:
            try:
                data = connection.recv(65536)
            except TimeoutError:
                return reply
            if not data:
                return reply
            reply += data
            if b"\r\n\r\n" in reply:
                headers, _, rest = reply.partition(b"\r\n\r\n")
                length = re.search(rb"Content-Length: (\d+)", headers)
                if length and len(rest) >= int(length.group(1)):
                    return reply


def status_and_error(reply: bytes):
    assert reply, "the server sent nothing back"
    head, _, body = reply.partition(b"\r\n\r\n")
    status = int(head.split()[1])
    error = json.loads(body)["error"]
    assert set(error) == {"message", "type", "param", "code"} and error["message"]
    assert b"Access-Control-Allow-Origin: *" in head
    return status, error


def still_serving(url):
    assert fetch("POST", url + "/chat/completions", {"model": MODEL, "messages": HELLO})[0] == 200


def test_a_huge_content_length_is_a_413_not_a_memory_error(address, server_url, capsys):
    reply = exchange(address, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
                              "Content-Type: application/json\r\nContent-Length: 99999999999")
    status, error = status_and_error(reply)
    assert status == 413 and "4 MB" in error["message"]
    assert "Traceback" not in capsys.readouterr().err
    still_serving(server_url)


def test_a_body_just_over_the_limit_is_a_413_and_one_at_the_limit_is_read(address, server_url):
    limit = server_module.MAX_BODY
    status, _ = status_and_error(exchange(
        address, f"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: {limit + 1}", b"x" * (limit + 1)))
    assert status == 413
    # At the limit the body is read (and, not being JSON, refused as such): the limit is not off by one.
    status, error = status_and_error(exchange(
        address, f"POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: {limit}", b"x" * limit))
    assert status == 400 and "JSON" in error["message"]
    still_serving(server_url)


def test_a_post_without_content_length_is_a_411(address, server_url):
    status, _ = status_and_error(exchange(address, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
                                                   "Connection: close", json.dumps({"messages": HELLO}).encode()))
    assert status == 411
    still_serving(server_url)


def test_a_chunked_body_is_a_501(address, server_url):
    body = json.dumps({"model": MODEL, "messages": HELLO}).encode()
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    status, error = status_and_error(exchange(address, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n"
                                                       "Transfer-Encoding: chunked", chunked))
    assert status == 501 and "Content-Length" in error["message"]
    still_serving(server_url)


@pytest.fixture
def impatient(monkeypatch):
    """A server of its own that waits half a second for a client, not the default."""
    assert 0 < Handler.timeout <= 30  # the real default bounds a stalled client too
    monkeypatch.setattr(Handler, "timeout", 0.5)
    server, url = serve_in_thread()
    yield server.server_address, url
    server.stop()


def test_half_a_body_gets_a_408_and_frees_the_thread(impatient, capsys):
    address, url = impatient
    started = time.monotonic()
    reply = exchange(address, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 100",
                     b'{"messages": [', timeout=5)
    status, _ = status_and_error(reply)
    assert status == 408 and time.monotonic() - started < 3
    assert "Traceback" not in capsys.readouterr().err
    still_serving(url)


def test_a_client_that_sends_nothing_is_let_go(impatient):
    address, url = impatient
    started = time.monotonic()
    with socket.create_connection(address, timeout=5) as connection:
        assert connection.recv(100) == b""  # closed by the server, not by our own timeout
    assert time.monotonic() - started < 3
    still_serving(url)


def test_rate_limit_memory_is_bounded_and_keeps_the_recent(server_url, monkeypatch):
    monkeypatch.setattr(server_module, "SEEN_LIMIT", 3)
    server, url = serve_in_thread()
    try:
        ask = lambda n: fetch("POST", url + "/chat/completions",  # noqa: E731
                              {"model": RATE_LIMITED, "messages": [{"role": "user", "content": f"Hi {n}"}]})[0]
        assert [ask(n) for n in range(5)] == [429] * 5  # each new conversation is refused once
        assert len(server.seen) == 3
        assert ask(4) == 200  # a recent one is remembered
        assert ask(0) == 429  # the oldest was forgotten, so it is refused once more
    finally:
        server.stop()


@pytest.mark.parametrize("flag", [[], ["--allow-private-network"]])
def test_a_public_host_warns_and_drops_the_private_network_header_unless_asked(flag):
    cli = start_cli("--host", "0.0.0.0", "--port", "0", *flag)
    try:
        assert select.select([cli.stdout], [], [], 20)[0], "the server printed no URL"
        port = re.search(r":(\d+)/v1", cli.stdout.readline()).group(1)
        status, headers, _ = fetch("OPTIONS", f"http://127.0.0.1:{port}/v1/chat/completions",
                                   headers={"Origin": "https://example.org", "Access-Control-Request-Method": "POST"})
        assert status == 204 and headers["Access-Control-Allow-Origin"] == "*"
        assert headers["Access-Control-Allow-Private-Network"] == ("true" if flag else None)
        cli.terminate()
        _, err = cli.communicate(timeout=10)
    finally:
        if cli.poll() is None:
            cli.kill()
            cli.communicate()
    warnings = [line for line in err.splitlines() if "0.0.0.0" in line]
    assert len(warnings) == 1 and "other machines" in warnings[0]


def test_a_client_still_sending_a_too_big_body_reads_the_413(server_url):
    # urllib and http.client send the whole body before they read: the answer must wait for it.
    status, _, body = fetch("POST", server_url + "/chat/completions", b"x" * (server_module.MAX_BODY + 1))
    assert status == 413 and json.loads(body)["error"]["message"]
    still_serving(server_url)


# --- issue 17: a server that takes a class --------------------------------------------------------

ADD = {"type": "function", "function": {"name": "add", "description": "Add two numbers.", "parameters": {
    "type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]}}}


def with_tool(**function):
    return {"model": MODEL, "messages": HELLO, "tools": [{"type": "function", "function": {
        **ADD["function"], **function}}]}


MALFORMED = {  # body -> words OpenAI's message would have
    "properties-a-list": (with_tool(parameters={"type": "object", "properties": ["a", "b"]}),
                          "Invalid schema for function 'add'"),
    "property-a-string": (with_tool(parameters={"type": "object", "properties": {"a": "number"}}),
                          "Invalid schema for function 'add'"),
    "numeric-description": (with_tool(description=5), "Invalid type for 'tools[0].function.description'"),
    "tool-choice-function-a-string": ({"model": MODEL, "messages": HELLO, "tools": [ADD],
                                       "tool_choice": {"function": "add"}}, "Invalid type for 'tool_choice.function'"),
    "model-nan": (b'{"model": NaN, "messages": [{"role": "user", "content": "Hi"}]}', "NaN is not a JSON value"),
    "model-a-list": ({"model": ["teaching-model"], "messages": HELLO}, "Invalid type for 'model'"),
    "model-a-number": ({"model": 4, "messages": HELLO}, "Invalid type for 'model'"),
    "nested-100000-deep": (b'{"model": "teaching-model", "messages": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
                           "nests arrays and objects more than 128 deep"),
    "tool-calls-a-number": ({"model": MODEL, "messages": [*HELLO, {"role": "assistant", "tool_calls": 1.5}]},
                            "Invalid type for 'messages[1].tool_calls'"),
    "enum-of-objects": (with_tool(parameters={"type": "object", "properties": {"a": {"enum": [{"x": 1}]}}}),
                        "Invalid schema for function 'add'"),
}


@pytest.mark.parametrize("body, words", MALFORMED.values(), ids=MALFORMED.keys())
def test_every_malformed_request_is_a_400_worded_like_openai(server_url, body, words):
    status, headers, raw = fetch("POST", server_url + "/chat/completions", body)
    assert status == 400, raw[:300]
    error = json.loads(raw, parse_constant=lambda name: pytest.fail(f"{name} in the answer"))["error"]
    assert words in error["message"] and error["type"] == "invalid_request_error"
    still_serving(server_url)


@pytest.mark.parametrize("body, words", [(b, w) for b, w in MALFORMED.values() if isinstance(b, dict)],
                         ids=[k for k, (b, _) in MALFORMED.items() if isinstance(b, dict)])
def test_the_same_named_error_in_the_kernel(body, words):
    from agentloop import errors, llm
    with pytest.raises(errors.BadRequest, match=re.escape(words)):
        llm.use(model=body.pop("model"))
        llm.ask(body.pop("messages"), **body)


def test_a_burst_of_150_connections_is_taken_at_once(server_url):
    """socketserver's listen backlog is 5: a class connecting at once had connections dropped."""
    assert server_module.Server.request_queue_size >= 128
    server, url = serve_in_thread()
    sockets = [socket.socket() for _ in range(150)]
    try:
        for each in sockets:
            each.setblocking(False)
            each.connect_ex(server.server_address)
        deadline, pending = time.monotonic() + 0.8, set(sockets)
        while pending and time.monotonic() < deadline:
            pending -= set(select.select([], list(pending), [], 0.05)[1])
        connected = [s for s in sockets if s not in pending and not s.getsockopt(socket.SOL_SOCKET, socket.SO_ERROR)]
        assert len(connected) == 150
    finally:
        for each in sockets:
            each.close()
        server.stop()


def test_a_request_that_arrives_a_byte_at_a_time_is_cut_off_at_its_time_limit(monkeypatch):
    monkeypatch.setattr(server_module, "REQUEST_TIME", 1, raising=False)
    server, url = serve_in_thread()
    try:
        started = time.monotonic()
        with socket.create_connection(server.server_address, timeout=5) as connection:
            connection.sendall(b"POST /v1/chat/completions HTTP/1.1\r\n")
            closed = False
            while not closed and time.monotonic() - started < 4:
                try:
                    connection.sendall(b"X")
                except OSError:
                    closed = True
                    break
                if select.select([connection], [], [], 0.2)[0]:
                    closed = True
        assert closed and time.monotonic() - started < 2.5
        still_serving(url)
    finally:
        server.stop()


def test_100_requests_from_50_clients_at_once_are_all_answered(server_url):
    from concurrent.futures import ThreadPoolExecutor
    question = {"model": MODEL, "messages": [{"role": "user", "content": "What is 2 + 3?"}]}
    with ThreadPoolExecutor(50) as pool:
        statuses = list(pool.map(lambda _: fetch("POST", server_url + "/chat/completions", question)[0], range(100)))
    assert statuses == [200] * 100


def test_a_nan_model_is_refused_in_the_kernel_too():
    from agentloop import errors, llm
    with pytest.raises(errors.BadRequest, match="Invalid type for 'model': expected a string, but got a number"):
        llm.use(model=float("nan"))


@pytest.mark.parametrize("question, words", [
    ("What is " + " ".join(["12"] * 8000) + "?", "8,000 numbers"),
    ("What is the sum of " + ", ".join(map(str, range(1, 1001))) + "?", "1,000 numbers"),
    ("What is " + " plus ".join(["twelve"] * 1500) + "?", "nested too deeply"),
    ("Hello " * 5000, "30,000 characters long"),
], ids=["8000-twelves", "sum-to-1000", "1500-words", "30000-characters"])
def test_a_question_too_big_for_the_model_gets_an_honest_answer_at_once(server_url, question, words):
    from agentloop import llm
    messages = [{"role": "user", "content": question}]
    started = time.process_time()  # the server is a thread of this process; CPU time, so a loaded machine is not slower
    status, _, raw = fetch("POST", server_url + "/chat/completions", {"model": MODEL, "messages": messages})
    assert status == 200 and words in json.loads(raw)["choices"][0]["message"]["content"]
    assert words in llm.ask(messages)["content"]  # in the kernel: the same answer, no RecursionError
    assert time.process_time() - started < 3  # the grammar's old blow-up took 10-51 s


def test_a_type_that_is_an_object_is_a_400_and_a_model_bug_is_a_named_error_in_the_kernel(server_url, monkeypatch):
    from agentloop import errors, llm, teaching
    body = with_tool(parameters={"type": "object", "properties": {"a": {"type": {}}}})
    status, _, raw = fetch("POST", server_url + "/chat/completions", body)
    assert status == 400 and "Invalid schema for function 'add'" in json.loads(raw)["error"]["message"]
    monkeypatch.setattr(teaching.plan, "answer", lambda turn: 1 / 0)  # a bug, wherever it may be
    llm.use(retries=0)
    with pytest.raises(errors.ServerError, match="500 from the teaching model.*ZeroDivisionError"):
        llm.ask(HELLO)
