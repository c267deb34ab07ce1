"""The lessons' agents against a real language model: SmolLM2-135M-Instruct behind
llama-cpp-python's OpenAI-compatible server (see conftest.py and prepare.py).

The model is tiny and weak: it may call a tool again and again, or answer "" with "stop". So
these tests check the protocol, not the answers: every tool call is parsed (text arguments, an
id) and dispatched (a tool message answers each id, in order), and the loop ends with the
model's text or the lesson's clear max-turns message. The loops are the lessons' own code,
taken from the notebooks.
"""
import sys
import time
from pathlib import Path

import pytest

from agentloop import errors, llm, trace

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from lesson_loop import lesson_definitions as definitions  # noqa: E402

pytestmark = pytest.mark.realmodel
LESSONS = Path(__file__).resolve().parents[2] / "lessons"
MAX_TURNS = 4
TIMINGS: dict = {}  # the session's figures (conftest's `timings`), set by the `real` fixture
ADD = {"type": "function", "function": {"name": "add", "description": "Add two numbers.", "parameters": {
    "type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]}}}


def lesson_definitions(name: str) -> dict:
    llm.use()  # the definitions run on the teaching model
    return definitions(name)


@pytest.fixture
def real(real_model, monkeypatch, tmp_path, timings):
    """Use the real model (lessons that save files save them in tmp_path)."""
    monkeypatch.setattr(llm, "_current", None)
    monkeypatch.setattr(trace, "events", [])
    monkeypatch.chdir(tmp_path)
    global TIMINGS
    TIMINGS = timings
    # tool_choice="auto": llama-cpp-python's chatml-function-calling ignores tools without it.
    # max_tokens: a small model may ramble until its context is full.
    def connect():
        trace.clear()  # what the lesson's definitions asked the teaching model is not part of the run
        return llm.use(real_model, model="smollm2", timeout=180, retries=1, tool_choice="auto",
                       max_tokens=160, temperature=0)
    return connect


def assert_protocol(messages: list, last_unanswered: bool = False) -> int:
    """Every tool call parsed and answered in order (but the very last message's, if the loop
    stopped at max_turns and never sent its results back); returns how many calls there were."""
    calls = 0
    for i, message in enumerate(messages):
        if message["role"] != "assistant" or not message.get("tool_calls"):
            continue
        ids = [call["id"] for call in message["tool_calls"]]
        assert all(isinstance(id, str) and id for id in ids) and len(set(ids)) == len(ids)
        assert all(isinstance(call["function"]["arguments"], str) for call in message["tool_calls"])
        calls += len(ids)
        if last_unanswered and i == len(messages) - 1:
            continue
        answers = messages[i + 1:i + 1 + len(ids)]
        assert [m["role"] for m in answers] == ["tool"] * len(ids), "each call is answered"
        assert [m["tool_call_id"] for m in answers] == ids
        assert all(isinstance(m["content"], str) for m in answers)
    return calls


def conversation() -> list:
    """The whole conversation the model saw last, and its last reply, from the trace."""
    requests = [e.payload for e in trace.events if e.kind == "request"]
    responses = [e.payload for e in trace.events if e.kind == "response"]
    assert requests and len(requests) == len(responses)
    return requests[-1]["messages"] + [responses[-1]["choices"][0]["message"]]


def test_one_request_with_a_tool(real):
    real()
    started = time.monotonic()
    message = llm.ask([{"role": "user", "content": "What is 3 + 4? Use the add tool."}], tools=[ADD])
    TIMINGS["one ask() with a tool"] = f"{time.monotonic() - started:.2f} s"
    assert message["role"] == "assistant"
    assert message.get("tool_calls") or isinstance(message["content"], str)
    for call in message.get("tool_calls") or []:
        assert call["id"] and isinstance(call["function"]["arguments"], str)


def test_streaming(real):
    real()
    message = llm.ask([{"role": "user", "content": "Say hello."}], stream=True)  # text streams
    assert message["role"] == "assistant" and isinstance(message["content"], str)
    with pytest.raises(errors.BadResponse, match="ended before its first event"):  # tools do not, in 0.3.36
        llm.ask([{"role": "user", "content": "What is 3 + 4? Use the add tool."}], tools=[ADD], stream=True)


def test_lesson_3_loop(real, capsys):
    lesson = lesson_definitions("03_the_loop.ipynb")
    real()
    started = time.monotonic()
    result = lesson["run_agent"]("What is (3 + 4) * 5?", max_turns=MAX_TURNS)
    took = time.monotonic() - started
    printed = capsys.readouterr().out
    messages = conversation()
    calls = assert_protocol(messages, last_unanswered=True)
    turns = len([e for e in trace.events if e.kind == "request"])
    TIMINGS["lesson 3 run_agent('What is (3 + 4) * 5?')"] = (
        f"{took:.1f} s for {turns} model calls and {calls} tool calls ({took / turns:.2f} s per call)")
    TIMINGS["lesson 3, what the model did"] = " | ".join(printed.splitlines()) + f" | returned {result!r}"
    assert 1 <= turns <= MAX_TURNS
    assert printed.count("\n") == calls, "the lesson's loop printed one line per tool call it ran"
    if messages[-1].get("tool_calls"):
        assert turns == MAX_TURNS and result == f"Stopped: no answer after {MAX_TURNS} turns."
    else:
        assert result == messages[-1]["content"]


def test_lesson_9_agent(real):
    if not (LESSONS / "09_the_whole_thing.ipynb").exists():
        pytest.skip("lesson 9 is not written yet")
    lesson = lesson_definitions("09_the_whole_thing.ipynb")
    real()
    history = []
    started = time.monotonic()
    state = lesson["new_state"]()
    result = lesson["run_agent"]("Hi! My name is Ada and I prefer green tea.", history, state, max_turns=MAX_TURNS,
                                 verbose=False)
    took = time.monotonic() - started
    assert_protocol(history)
    TIMINGS["lesson 9 run_agent(...)"] = (
        f"{took:.1f} s, state {state}, stored {dict(lesson['memory'])}, returned {result!r}")
    assert isinstance(result, str) and state["prompt_tokens"] > 0 and state["model_calls"] >= 1
    if [m for m in history if m["role"] == "assistant"][-1].get("tool_calls"):
        assert result == f"Stopped: no answer after {MAX_TURNS} turns."
