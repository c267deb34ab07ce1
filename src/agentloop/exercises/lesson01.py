"""Lesson 1 exercises, on the student's own POST: an agent that takes its system prompt, the
server's explanation of an error, a second try after a 429."""
import json
import threading
import time
import urllib.error

from .. import endpoint, server, teaching, trace
from ..checks import Hint, attempt, exercise, expect

MODEL = "teaching-model"
BUSY = MODEL + "+rate-limit-once"  # the teaching model's quirk: a conversation's first request gets a 429
MALFORMED = ([{"role": "robot", "content": "Hello!"}],      # a role no API has
             [{"role": "user", "content": ""}, {"role": "user"}])  # a user message with no content


def sent_since(marks: tuple) -> list:
    """The message lists of the requests made since `marks`: through agentloop (the trace) or
    POSTed to the teaching model's URL by hand (endpoint.received)."""
    events, posted = marks
    through_agentloop = [e.payload["messages"] for e in trace.events[events:] if e.kind == "request"]
    new = min(endpoint.answered - posted, len(endpoint.received))
    by_hand = [body.get("messages") for body in list(endpoint.received)[len(endpoint.received) - new:]
               if isinstance(body, dict)]
    return through_agentloop + by_hand


def marks() -> tuple:
    return len(trace.events), endpoint.answered


def server_says(messages: list, model: str = MODEL) -> str:
    """The error message the teaching model's server sends for this request."""
    status, body, _, _ = server.answer_chat(json.dumps({"model": model, "messages": messages}).encode(),
                                            server.Recent(1))
    return body["error"]["message"]


@exercise("1.1 An agent that takes its system prompt")
def check_agent_with(agent_with):
    for name in ("Ada", "Bob"):  # two facts, so an answer typed in by hand fails one of them
        system = f"You are a helpful assistant. The user's name is {name}."
        before = marks()
        got = attempt(agent_with, system, "What is my name?")
        sent = sent_since(before)
        expect(sent, "agent_with made no model call; it should send the messages to the model.",
               fix="return post_chat(messages)['choices'][0]['message']['content'] (or agentloop.ask(messages)['content']).")
        expected = [{"role": "system", "content": system}, {"role": "user", "content": "What is my name?"}]
        expect(sent[-1] == expected,
               f"the model was sent {sent[-1]}; send the system prompt you were given, then the question.",
               fix="messages = [{'role': 'system', 'content': system}, {'role': 'user', 'content': question}].")
        expect(isinstance(got, str), f"agent_with returned a {type(got).__name__}; the agent answers with the reply's text.",
               fix="the text is response['choices'][0]['message']['content'].")
        expect(name in got, f"the model read '{system}' and agent_with returned {got!r}.",
               fix="return the reply's content as the model wrote it: it already names the user.")


@exercise("1.2 Read the server's explanation")
def check_post_chat_or_error(post_chat_or_error):
    good = [{"role": "user", "content": "What is the capital of France?"}]
    got = attempt(post_chat_or_error, good)
    expect(isinstance(got, dict) and got.get("choices"),
           f"for a request the server accepts, post_chat_or_error returned {_short(got)}; return the response, as post_chat does.",
           fix="keep `return post_chat(messages)` in the try.")
    for messages in MALFORMED:  # two different mistakes, so a message typed in by hand fails one
        said = server_says(messages)
        before = marks()
        try:
            got = attempt(post_chat_or_error, messages)
        except Hint as hint:
            expect("HTTPError" not in hint.hint, f"post_chat_or_error({messages}) let the server's error through "
                                                 "(HTTP Error 400: Bad Request); catch it and return what the server explained.",
                   fix="except urllib.error.HTTPError as error: return json.loads(error.read())['error']['message'].")
            raise
        expect(sent_since(before), f"post_chat_or_error({messages}) sent nothing to the server.",
               fix="call post_chat(messages) inside the try.")
        expect(isinstance(got, str), f"for {messages} it returned {_short(got)}; return the server's explanation as a string.",
               fix="return json.loads(error.read())['error']['message'].")
        expect(not _parsed_message(got), f"{_short(got)} is the server's whole JSON body; the explanation is one "
                                         "field inside it.", fix="json.loads(error.read())['error']['message'].")
        expect(said in got, _why_not(got) or f"for {messages} it returned {got!r}, but the server explained: {said!r}.",
               fix="json.loads(error.read())['error']['message'].")


def _short(value) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:80] + "…"


def _parsed_message(text: str) -> str:
    try:
        return json.loads(text)["error"]["message"]
    except (ValueError, TypeError, KeyError):
        return ""


def _why_not(got: str) -> str | None:
    if "Bad Request" in got or "HTTP Error" in got:
        return (f"it returned {got!r}: that is urllib's status line. The server sent its own explanation "
                "in the body of the error.")
    return None


@exercise("1.3 Try again after a 429", time_limit=8)  # a retry loop that never ends is told in seconds, not half a minute
def check_post_chat_patiently(post_chat_patiently):
    # Two 429s asking for different waits (2 s, then 0 s), so that no fixed pause passes both:
    # the wait must come from the header. The check observes time.sleep instead of waiting.
    waits = []  # what it waited in the rounds before
    for retry_after in (2, 0):
        got, tries, waited = _patient_call(post_chat_patiently, retry_after)
        expect(tries, "post_chat_patiently sent no request; it should send the messages with your post_chat.",
               fix="start with return post_chat(messages, model), inside a try.")
        expect(tries >= 2, f"it made {tries} request(s); the first one gets a 429, so it must try again.",
               fix="call post_chat(messages, model) a second time after the wait.")
        expect(isinstance(got, dict) and got.get("choices"),
               f"after the second try it returned {_short(got)}; return the response the second try got.",
               fix="return post_chat(messages, model) from the except block.")
        expect(tries == 2, f"it made {tries} requests; the second one succeeds, so it should stop there.",
               fix="try again once, not in a loop without an end.")
        expect(waited >= 0.05 or retry_after < 0.05,
               f"it retried at once, but the server's Retry-After said {retry_after} s: wait what Retry-After "
               "says before the second try (the 429's headers say how long).",
               fix="time.sleep(float(error.headers['Retry-After'])) before the second try.")
        expect(waited >= retry_after - 0.05,
               f"the server's Retry-After said {retry_after} s and it tried again after {waited:.1f} s: "
               "read how long to wait from the 429's headers.",
               fix="time.sleep(float(error.headers['Retry-After'])) before the second try.")
        expect(waited <= retry_after + 1.5, _too_long(retry_after, waited, waits),
               fix="time.sleep(float(error.headers['Retry-After'])) before the second try.")
        waits.append(waited)
    bad = MALFORMED[0]
    before = marks()
    raised = None
    try:
        got = post_chat_patiently(bad, MODEL)
    except Exception as error:  # what post_chat does with a 400: the error goes up to the caller
        raised = error
    tries = len(sent_since(before))
    expect(tries == 1, f"for a malformed request (a 400) it made {tries} requests; only a 429 is worth another try, "
                       "a 400 fails the same way every time.",
           fix="check error.code == 429 before waiting; otherwise raise, as post_chat does.")
    expect(raised is not None, f"for a malformed request (a 400) it returned {_short(got)} instead of raising: the "
                               "caller would go on as if it had an answer. Any error but a 429 goes up as before.",
           fix="in the except block: if error.code != 429: raise")


def _too_long(retry_after: float, waited: float, waits: list) -> str:
    said = f"the server's Retry-After said {retry_after} s and it waited {waited:.1f} s"
    if any(abs(waited - before) < 0.05 for before in waits):  # the same pause as when the header said more
        return (f"{said}, the same pause as before, when the header asked for more: a fixed pause is too short "
                "for one server and needlessly long for another; wait as long as the header says.")
    if retry_after and abs(waited - 1000 * retry_after) < 1:
        return f"{said}: that is the wait in milliseconds, slept as seconds. Retry-After counts seconds."
    return f"{said}, longer than the header asks: wait as long as it says, no longer."


def _patient_call(post_chat_patiently, retry_after: float) -> tuple:
    """(what it returned, requests made, seconds waited) for a conversation the busy model answers
    first with a 429 whose Retry-After is `retry_after`. The student's time.sleep is recorded, not
    slept (a real sleep that bypasses it still counts, by the clock)."""
    endpoint.seen.clear()  # so the busy model refuses this conversation's first request again
    messages = [{"role": "user", "content": "What is 12 times 7?"}]
    slept = []
    real_sleep, respond = time.sleep, teaching.respond

    caller = threading.get_ident()

    def sleep(seconds):  # only the student's own sleeps count: another thread (a kernel's, a server's)
        if threading.get_ident() != caller:  # that sleeps meanwhile sleeps for real and is not recorded
            return real_sleep(seconds)
        if isinstance(seconds, (str, bytes)) or not isinstance(seconds, (int, float)):  # as the real sleep refuses it
            raise TypeError(f"time.sleep was given {seconds!r}, not a number of seconds: a header is text, float() reads it")
        slept.append(float(seconds))

    def busy(body, seen):  # the quirk's 429, with this round's wait in its headers and message
        try:
            return respond(body, seen)
        except teaching.TooManyRequests:
            raise teaching.TooManyRequests(retry_after) from None

    names = getattr(post_chat_patiently, "__globals__", {})
    aliases = [name for name, value in list(names.items()) if value is real_sleep]  # from time import sleep
    before, started = marks(), time.monotonic()
    time.sleep, teaching.respond = sleep, busy
    for name in aliases:
        names[name] = sleep
    try:
        got = post_chat_patiently(messages, BUSY)
    except urllib.error.HTTPError as error:
        expect(False, f"post_chat_patiently let the error through ({error}): the busy server asked you to wait "
                      "and try again.",
               fix="on error.code == 429: time.sleep(float(error.headers['Retry-After'])), then return post_chat(messages, model).")
    except Exception as error:
        expect(False, f"post_chat_patiently(messages, {BUSY!r}) raised {type(error).__name__}: {error}",
               fix="time.sleep(float(error.headers['Retry-After'])) before the second try." if "time.sleep" in str(error) else None)
    finally:
        time.sleep, teaching.respond = real_sleep, respond
        for name in aliases:
            names[name] = real_sleep
    # the sleeps it asked for; the clock only when it slept some other way (the requests' own time,
    # longer on a loaded machine, is not a wait)
    elapsed = time.monotonic() - started
    waited = sum(slept) if slept else (elapsed if elapsed >= 1 else 0.0)
    return got, len(sent_since(before)), waited
