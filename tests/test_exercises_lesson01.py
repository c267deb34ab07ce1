"""Lesson 1: its checks both ways, and the lesson's own POST against the teaching model, over a socket
and in-process, with no key in any answer or output."""
import json
import secrets
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT / "solutions"))
import lesson01 as s01  # noqa: E402

import agentloop  # noqa: E402
from agentloop import checks, endpoint  # noqa: E402
from agentloop.exercises import lesson01  # noqa: E402
from lesson_answers import boom, verdict  # noqa: E402

LESSON = json.loads((ROOT / "lessons" / "01_agent_function.ipynb").read_text())
SECRET = "sk-test-" + secrets.token_hex(20)  # made here: a key-shaped string in a file would itself be a leak


@pytest.fixture(autouse=True)
def first_try(monkeypatch, tmp_path):
    """Every test starts as a first try, so a hint it looks for is the nudge, not the fix; the
    progress file the checks write goes to a temporary folder."""
    monkeypatch.setattr(checks, "_failed_runs", {})
    monkeypatch.chdir(tmp_path)


def message_of(error):
    return json.loads(error.read())["error"]["message"]


def or_error(read):
    """post_chat_or_error with another way of reading the error."""
    def post_chat_or_error(messages, model="teaching-model"):
        try:
            return s01.post_chat(messages, model)
        except urllib.error.HTTPError as error:
            return read(error)
    return post_chat_or_error


def patiently(on_error):
    """post_chat_patiently with another reaction to an HTTPError."""
    def post_chat_patiently(messages, model="teaching-model"):
        try:
            return s01.post_chat(messages, model)
        except urllib.error.HTTPError as error:
            return on_error(error, messages, model)
    return post_chat_patiently


def retry_at_once(error, messages, model):
    return s01.post_chat(messages, model)


def retry_anything_after_wait(error, messages, model):
    time.sleep(float(error.headers.get("Retry-After") or 1))
    return s01.post_chat(messages, model)


def with_a_loop(messages, model="teaching-model"):
    """Unusual but right: up to three tries, waiting retry-after-ms, the error raised at the end."""
    for attempt in range(3):
        try:
            return s01.post_chat(messages, model)
        except urllib.error.HTTPError as error:
            if error.code != 429 or attempt == 2:
                raise
            time.sleep(int(error.headers["retry-after-ms"]) / 1000)


def sleep_one_second(error, messages, model):
    """Wrong: a fixed pause, whatever the server asked for."""
    time.sleep(1)
    return s01.post_chat(messages, model)


def sleep_three_seconds(error, messages, model):
    """Wrong: a fixed pause long enough for the first server, far too long for one asking 0 s."""
    time.sleep(3)
    return s01.post_chat(messages, model)


def sleep_imported_by_name(messages, model="teaching-model"):
    """Unusual but right: `from time import sleep`, err.status, the header's name in lower case."""
    from time import sleep
    try:
        return s01.post_chat(messages, model)
    except urllib.error.HTTPError as err:
        if err.status != 429:
            raise
        sleep(int(err.headers["retry-after"]))
        return s01.post_chat(messages, model)


def retry_429s_swallow_the_rest(messages, model="teaching-model"):
    """Wrong (review 5): waits and retries each 429 as it should, but returns None on any other error,
    so a 400 reaches the caller as if it were an answer."""
    while True:
        try:
            return s01.post_chat(messages, model)
        except urllib.error.HTTPError as error:
            if error.code != 429:
                return None
            time.sleep(float(error.headers["Retry-After"]))


def retry_forever(messages, model="teaching-model"):
    """Wrong (review 8): the retry loop never returns what the second try got, so it never ends."""
    while True:
        try:
            s01.post_chat(messages, model)
        except urllib.error.HTTPError as error:
            time.sleep(float(error.headers["Retry-After"]))


def agent_by_agentloop(system, question):
    """Unusual but right: through agentloop.ask rather than the hand-written POST."""
    return agentloop.ask([{"role": "system", "content": system}, {"role": "user", "content": question}])["content"]


def agent_with_the_model_argument(instructions, q):
    """Unusual but right: other parameter names, the model passed explicitly."""
    return s01.post_chat([{"role": "system", "content": instructions}, {"role": "user", "content": q}],
                         model="teaching-model")["choices"][0]["message"]["content"]


REFERENCE = [
    (lesson01.check_agent_with, s01.agent_with),
    (lesson01.check_post_chat_or_error, s01.post_chat_or_error),
    (lesson01.check_post_chat_patiently, s01.post_chat_patiently),
]
UNUSUAL = [
    (lesson01.check_agent_with, agent_by_agentloop),
    (lesson01.check_agent_with, agent_with_the_model_argument),
    (lesson01.check_post_chat_or_error, or_error(lambda error: f"HTTP {error.code}: {message_of(error)}")),
    (lesson01.check_post_chat_or_error, or_error(lambda error: "Error: " + json.load(error)["error"]["message"])),
    (lesson01.check_post_chat_patiently, with_a_loop),
    (lesson01.check_post_chat_patiently, sleep_imported_by_name),
]
WRONG = [  # (check, wrong answer, a phrase the hint must contain)
    (lesson01.check_agent_with, lambda system, question: "Your name is Ada.", "made no model call"),
    (lesson01.check_agent_with, lambda system, question: s01.post_chat(
        [{"role": "user", "content": system + " " + question}])["choices"][0]["message"]["content"],
     "send the system prompt you were given"),
    (lesson01.check_agent_with, lambda system, question: s01.post_chat(
        [{"role": "system", "content": system}, {"role": "user", "content": question}])["choices"][0]["message"],
     "returned a dict"),
    (lesson01.check_agent_with, boom, "RuntimeError: student bug"),
    (lesson01.check_post_chat_or_error, s01.post_chat, "let the server's error through"),
    (lesson01.check_post_chat_or_error, or_error(str), "urllib's status line"),
    (lesson01.check_post_chat_or_error, or_error(lambda error: error.read().decode()), "whole JSON body"),
    (lesson01.check_post_chat_or_error, or_error(lambda error: "Invalid value for 'messages[0].role': supported "
                                                 "values are 'system', 'developer', 'user', 'assistant' and 'tool'."),
     "messages[1].content"),  # typed in from the first error: the second request's explanation differs
    (lesson01.check_post_chat_or_error, lambda messages, model="teaching-model": "Error", "request the server accepts"),
    (lesson01.check_post_chat_patiently, s01.post_chat, "let the error through"),
    (lesson01.check_post_chat_patiently, patiently(retry_at_once), "it retried at once, but the server's Retry-After said 2 s"),
    (lesson01.check_post_chat_patiently, patiently(sleep_one_second), "Retry-After said 2 s and it tried again after 1.0"),
    (lesson01.check_post_chat_patiently, patiently(sleep_three_seconds), "Retry-After said 0 s and it waited 3.0"),
    (lesson01.check_post_chat_patiently, patiently(retry_anything_after_wait), "a 400 fails the same way"),
    (lesson01.check_post_chat_patiently, patiently(lambda error, messages, model: None), "made 1 request"),
    (lesson01.check_post_chat_patiently, retry_429s_swallow_the_rest, "returned None instead of raising"),
    # review 19: the header's text handed to sleep; the real time.sleep raises TypeError on it
    (lesson01.check_post_chat_patiently, patiently(lambda error, messages, model: time.sleep(error.headers["Retry-After"])
                                                   or s01.post_chat(messages, model)), "a number of seconds"),
]


def slow_network_then_one_second(error, messages, model):
    """Wrong (a fixed 1 s pause) on a slow machine: the request itself takes 0.3 s, which is not a wait."""
    time.sleep(1)
    started = time.monotonic()
    while time.monotonic() - started < 0.3:  # busy, as a loaded machine's request is; not time.sleep
        pass
    return s01.post_chat(messages, model)


def test_the_wait_reported_is_the_students_sleep_not_the_requests_time(capsys):
    passed, printed = verdict(lesson01.check_post_chat_patiently, patiently(slow_network_then_one_second), capsys=capsys)
    assert not passed and "Retry-After said 2 s and it tried again after 1.0 s" in printed, printed


def test_a_wait_read_in_milliseconds_is_told_so_not_called_a_fixed_pause(capsys):
    def milliseconds(error, messages, model):
        time.sleep(float(error.headers["Retry-After"]) * 1000)
        return s01.post_chat(messages, model)
    passed, printed = verdict(lesson01.check_post_chat_patiently, patiently(milliseconds), capsys=capsys)
    assert not passed and "in milliseconds, slept as seconds" in printed and "fixed pause" not in printed, printed


def test_another_threads_sleep_is_not_the_students_wait(capsys):
    """A kernel's or a server's thread that sleeps while the check runs (its own long timeout) is not
    the student's wait: retrying at once is still told as retrying at once."""
    import threading

    def retry_while_a_thread_sleeps(error, messages, model):
        asleep = threading.Event()

        def background():  # a kernel thread's long wait, begun while the check watches time.sleep
            asleep.set()
            time.sleep(3)
        threading.Thread(target=background, daemon=True).start()
        asleep.wait()
        started = time.monotonic()
        while time.monotonic() - started < 0.02:  # let the thread reach its sleep
            pass
        return s01.post_chat(messages, model)

    passed, printed = verdict(lesson01.check_post_chat_patiently, patiently(retry_while_a_thread_sleeps), capsys=capsys)
    assert not passed and "it retried at once" in printed, printed


@pytest.mark.parametrize("check, answer", REFERENCE + UNUSUAL,
                         ids=[f"{c.__name__}-{a.__name__}-{i}" for i, (c, a) in enumerate(REFERENCE + UNUSUAL)])
def test_right_answers_pass(check, answer, capsys):
    passed, printed = verdict(check, answer, capsys=capsys)
    assert passed and printed.startswith("✅"), printed


@pytest.mark.parametrize("check, answer, hint", WRONG, ids=[f"{c.__name__}-{i}" for i, (c, _, _) in enumerate(WRONG)])
def test_wrong_answers_fail_with_a_true_hint(check, answer, hint, capsys):
    passed, printed = verdict(check, answer, capsys=capsys)
    assert not passed and printed.startswith("❌"), printed
    assert hint in printed
    assert "Traceback" not in printed


@pytest.mark.parametrize("check, answer", [(c, a) for c, a, _ in WRONG[::4]])
def test_a_first_failure_nudges_and_the_second_adds_the_fix(check, answer, capsys):
    first = verdict(check, answer, capsys=capsys)[1]
    second = verdict(check, answer, capsys=capsys)[1]
    assert first.startswith("❌") and " Fix: " not in first, first
    assert second.startswith(first.rstrip("\n") + " Fix: "), second


def test_a_retry_loop_that_never_ends_is_stopped_with_a_hint(capsys):
    passed, printed = verdict(lesson01.check_post_chat_patiently, retry_forever, capsys=capsys)
    assert not passed and "a loop that never ends" in printed, printed


def test_the_wait_is_observed_not_slept_and_sleep_is_given_back(capsys):
    started = time.monotonic()
    assert verdict(lesson01.check_post_chat_patiently, sleep_imported_by_name, capsys=capsys)[0]
    assert time.monotonic() - started < 1.5  # the 2 s the server asked for were recorded, not slept
    real_sleep = time.sleep
    assert verdict(lesson01.check_post_chat_patiently, patiently(sleep_one_second), capsys=capsys)[0] is False
    assert time.sleep is real_sleep and agentloop.teaching.respond.__module__ == "agentloop.teaching"


def test_the_untouched_stubs_fail_politely(capsys):
    namespace = {"post_chat": s01.post_chat, "urllib": urllib}
    for cell in LESSON["cells"]:
        source = "".join(cell["source"])
        if "# your code here" in source:
            exec(source.replace("lesson01.check", "_check = lesson01.check"), {**namespace, "lesson01": lesson01})
            printed = capsys.readouterr().out
            assert printed.startswith("❌") and printed.count("\n") == 1, printed


def lesson_cell(starts: str) -> str:
    return next("".join(c["source"]) for c in LESSON["cells"] if "".join(c["source"]).startswith(starts))


def lessons_post_chat(base_url: str, key: str):
    """The notebook's own post_chat, defined against `base_url` with `key`."""
    namespace = {"json": json, "BASE_URL": base_url, "API_KEY": key}
    exec(lesson_cell("import urllib.request\n\ndef post_chat"), namespace)
    return namespace["post_chat"]


def outcome(post, messages, model="teaching-model"):
    """What a POST gives: (status, the JSON body, the Retry-After header)."""
    try:
        return 200, post(messages, model), None
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read()), error.headers.get("Retry-After")


CASES = [
    ([{"role": "user", "content": "What is the capital of France?"}], "teaching-model"),
    ([{"role": "system", "content": "The user's name is Ada."}, {"role": "user", "content": "What is my name?"}],
     "teaching-model"),
    ([{"role": "robot", "content": "Hello!"}], "teaching-model"),                     # 400
    ([{"role": "user", "content": "What is 2 + 3?"}], "teaching-model+typo"),         # 404
    ([{"role": "user", "content": "What is 6 times 7?"}], "teaching-model+rate-limit-once"),  # 429, then 200
]


def test_the_lessons_post_gets_the_same_answers_over_a_socket_and_in_process():
    over_socket = endpoint.start(in_process=False)
    in_process = endpoint.start(in_process=True)
    assert over_socket.startswith("http://127.0.0.1:") and over_socket != in_process
    answers = {}
    for url in (over_socket, in_process):
        endpoint.seen.clear()  # both routes share what the rate-limit quirk has refused
        post = lessons_post_chat(url, SECRET)
        answers[url] = [outcome(post, messages, model) for messages, model in CASES for _ in range(2 if "rate" in model else 1)]
    assert answers[over_socket] == answers[in_process]
    statuses = [status for status, _, _ in answers[in_process]]
    assert statuses == [200, 200, 400, 404, 429, 200]
    assert answers[in_process][1][1]["choices"][0]["message"]["content"] == "Your name is Ada."
    assert answers[in_process][4][2] == "1"  # Retry-After, as the exercise reads it
    assert SECRET not in json.dumps(answers)


def test_the_local_route_is_a_server_on_a_socket():
    import socket
    host, port = endpoint.start(in_process=False).removeprefix("http://").removesuffix("/v1").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(b"GET /v1/models HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 200") and b'"teaching-model"' in answer


def test_other_urls_pass_through_the_in_process_stand_in():
    endpoint.start(in_process=True)
    with pytest.raises(urllib.error.URLError):
        urllib.request.urlopen("http://127.0.0.1:1/v1/models", timeout=5)  # nothing listens on port 1


def test_no_key_is_kept_or_shown():
    post = lessons_post_chat(endpoint.start(in_process=True), SECRET)
    post([{"role": "user", "content": "Hi"}])
    assert SECRET not in json.dumps(list(endpoint.received))
    key = lesson_cell("from agentloop import endpoint").split('API_KEY = "')[1].split('"')[0]
    outputs = json.dumps([cell.get("outputs", []) for cell in LESSON["cells"]])
    assert key not in outputs, "the lesson prints its key"
    assert "Authorization" not in outputs


def test_the_checks_see_new_requests_once_the_record_is_full(capsys):
    for _ in range(endpoint.received.maxlen + 10):  # more than the record keeps
        endpoint.answer(b'{"model": "teaching-model", "messages": []}')
    assert verdict(lesson01.check_agent_with, s01.agent_with, capsys=capsys)[0]
