"""Every exercise check both ways: the reference solution passes, wrong answers fail with a hint."""
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "solutions"))
import lesson01 as s01  # noqa: E402
import lesson02 as s02  # noqa: E402
import lesson03 as s03  # noqa: E402
import lesson09 as s09  # noqa: E402

from agentloop import checks  # noqa: E402
from agentloop.exercises import lesson01, lesson02, lesson03, lesson08, lesson09  # noqa: E402


def verdict(check, *answer, capsys):
    """Run a check; return (passed, what it printed). A check must never raise."""
    result = check(*answer)
    printed = capsys.readouterr().out
    assert printed.count("\n") == 1, f"a check prints exactly one line, got {printed!r}"
    return bool(result), printed


def boom(*args, **kwargs):
    raise RuntimeError("student bug")


REFERENCE = [
    (lesson01.check_reply_text, (s01.reply_text,)),
    (lesson01.check_agent_with, (s01.agent_with,)),
    (lesson01.check_total_tokens, (s01.total_tokens,)),
    (lesson02.check_multiply_schema, (s02.MULTIPLY,)),
    (lesson02.check_run_tool_from, (s02.run_tool_from,)),
    (lesson02.check_count_letters, (s02.my_count_letters, s02.MY_COUNT_LETTERS)),
    (lesson03.check_safe_run_tool, (s03.safe_run_tool,)),
    (lesson03.check_run_agent_until, (s03.run_agent_until,)),
    (lesson03.check_count_turns, (s03.count_turns,)),
]


@pytest.mark.parametrize("check, answer", REFERENCE, ids=[c.__name__ for c, _ in REFERENCE])
def test_reference_solution_passes(check, answer, capsys):
    passed, printed = verdict(check, *answer, capsys=capsys)
    assert passed and printed.startswith("✅"), printed


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    """A check that writes a file writes it here, not in the repository. Every test starts as a first
    try, so a hint it looks for is the nudge, not the fix a later failure adds."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(checks, "_failed_runs", {})


def asks_once_more(question, stop_at):
    """The stop_at tool's result, but only once the whole loop has run: the model was asked again."""
    found = [s03.safe_run_tool(call, s03.TOOLS) for call in tool_calls(question) if call["function"]["name"] in stop_at]
    return found[0] if found else "Hello!"


def tool_calls(question):
    """Every tool call the lesson's loop makes for the question, in order."""
    messages, calls = [{"role": "user", "content": question}], []
    while True:
        message = s03.agentloop.ask(messages, tools=[s03.ADD, s03.MULTIPLY])
        messages.append(message)
        if not message.get("tool_calls"):
            return calls
        for call in message["tool_calls"]:
            calls.append(call)
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": s03.safe_run_tool(call, s03.TOOLS)})


def schema_without(key):
    schema = json.loads(json.dumps(s02.MULTIPLY))
    del schema["function"][key]
    return schema


WRONG = [  # (check, wrong answer, a phrase the hint must contain)
    (lesson01.check_reply_text, (lambda r: r["choices"][0]["message"],), "['content']"),
    (lesson01.check_reply_text, (lambda r: "Paris.",), "don't hard-code"),
    (lesson01.check_reply_text, (boom,), "RuntimeError: student bug"),
    (lesson01.check_agent_with, (lambda system, question: s01.agent_with(s01.__doc__, question),), "the model was sent"),
    (lesson01.check_agent_with, (lambda system, question: s01.agentloop.ask(
        [{"role": "user", "content": system + " " + question}])["content"],), "the system prompt you were given"),
    (lesson01.check_agent_with, (lambda system, question: s01.agentloop.ask(
        [{"role": "system", "content": system}, {"role": "user", "content": question}]),), "returned dict"),
    (lesson01.check_agent_with, (lambda system, question: "Your name is Ada.",), "made no model call"),
    (lesson01.check_agent_with, (boom,), "RuntimeError"),
    (lesson01.check_total_tokens, (lambda rs: sum(r["usage"]["prompt_tokens"] for r in rs),), "total_tokens"),
    (lesson02.check_multiply_schema, ({"name": "multiply"},), "what kind of tool"),
    (lesson02.check_multiply_schema, (schema_without("description"),), "description"),
    (lesson02.check_multiply_schema, (schema_without("parameters"),), "JSON schema of an object"),
    (lesson02.check_run_tool_from, (lambda call, tools: tools[call["function"]["name"]](
        **json.loads(call["function"]["arguments"])),), "returned 5:"),
    (lesson02.check_run_tool_from, (lambda call, tools: str(tools[call["function"]["name"]](
        **json.loads(call["function"]["arguments"]))),), "KeyError"),
    (lesson02.check_count_letters, (lambda word, letter: 2, s02.MY_COUNT_LETTERS), "expected 3"),
    (lesson02.check_count_letters, (s02.my_count_letters, None), "schema"),
    (lesson03.check_safe_run_tool, (lambda call, tools: str(tools[call["function"]["name"]](
        **json.loads(call["function"]["arguments"]))),), "ZeroDivisionError"),
    (lesson03.check_safe_run_tool, (lambda call, tools: "Error",), "return str(result)"),
    (lesson03.check_run_agent_until, (lambda q, stop_at: s03.run_agent_until(q, set()),), "expected '35'"),
    (lesson03.check_run_agent_until, (asks_once_more,), "made 3 model calls, expected 2"),
    (lesson03.check_run_agent_until, (lambda q, stop_at: {"multiply": "35", "add": "7"}.get(min(stop_at, default=""),
                                       "The answer is 35."),), "made 0 model calls"),
    (lesson03.check_count_turns, (lambda q, max_turns: len(tool_calls(q)),), "expected 1"),
    (lesson03.check_count_turns, (lambda q, max_turns: len(tool_calls(q)) + 1,), "max_turns=2"),
    (lesson03.check_count_turns, (boom,), "RuntimeError"),
]


@pytest.mark.parametrize("check, answer, hint", WRONG, ids=[f"{c.__name__}-{i}" for i, (c, _, _) in enumerate(WRONG)])
def test_wrong_answer_fails_with_a_hint(check, answer, hint, capsys):
    passed, printed = verdict(check, *answer, capsys=capsys)
    assert not passed and printed.startswith("❌"), printed
    assert hint in printed
    assert "Traceback" not in printed


def drain_a_copy(queue, run, budget):
    """Drains what was queued when it started: a task added while draining never runs."""
    ran = list(queue)[:budget]
    queue.clear()
    for task in ran:
        run(task)
    return ran


TWO_STEP = [  # (check, wrong answer, what only the fix, on the second failure, says)
    (lesson01.check_agent_with, (lambda system, question: "Your name is Ada.",), "as agent() does"),
    (lesson02.check_multiply_schema, (schema_without("description"),), "'Multiply two numbers.'"),
    (lesson02.check_run_tool_from, (lambda call, tools: tools[call["function"]["name"]](
        **json.loads(call["function"]["arguments"])),), "return str(result)"),
    (lesson02.check_count_letters, (lambda word, letter: 2, s02.MY_COUNT_LETTERS), "word.lower().count"),
    (lesson03.check_run_agent_until, (asks_once_more,), "before the next agentloop.ask"),
    (lesson08.check_drain_queue, (drain_a_copy,), "loop on the queue itself"),
    (lesson09.check_fit_to_budget, (lambda texts, budget: texts,), "count_tokens(text)"),
    (lesson09.check_rank, (lambda items, query: sorted(items, key=lambda i: i["importance"], reverse=True),),
     "(score, item['created'])"),
    (lesson09.check_forget_memory, (lambda store, scope, memory_id: f"Deleted {memory_id}." if store.delete(memory_id)
                                    else f"No memory {memory_id}.",), "check item.scope first"),
]


@pytest.mark.parametrize("check, answer, fix", TWO_STEP, ids=[f"{c.__name__}-{i}" for i, (c, _, _) in enumerate(TWO_STEP)])
def test_a_first_failure_nudges_and_the_second_adds_the_fix(check, answer, fix, capsys):
    first = verdict(check, *answer, capsys=capsys)[1]
    second = verdict(check, *answer, capsys=capsys)[1]
    assert first.startswith("❌") and "Fix:" not in first and fix not in first, first
    assert first.split("Hint: ", 1)[1].strip(), "the nudge says what went wrong"
    assert second.startswith(first.rstrip("\n") + " Fix: ") and fix in second.split(" Fix: ", 1)[1], second


def test_unfinished_exercise_placeholder_fails_politely(capsys):
    passed, printed = verdict(lesson01.check_reply_text, lambda r: ..., capsys=capsys)
    assert not passed and "Ellipsis" in printed
