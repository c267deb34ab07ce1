"""Every exercise check both ways: the reference solution passes, wrong answers fail with a hint."""
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "solutions"))
import lesson01 as s01  # noqa: E402
import lesson02 as s02  # noqa: E402
import lesson03 as s03  # noqa: E402
import lesson04 as s04  # noqa: E402
import lesson05 as s05  # noqa: E402
import lesson06 as s06  # noqa: E402

from agentloop import checks  # noqa: E402
from agentloop.exercises import (lesson01, lesson02, lesson03, lesson04, lesson05, lesson06,  # noqa: E402
                                  lesson08)


def verdict(check, *answer, capsys):
    """Run a check; return (passed, what it printed). A check must never raise."""
    result = check(*answer)
    printed = capsys.readouterr().out
    assert printed.count("\n") == 1, f"a check prints exactly one line, got {printed!r}"
    return bool(result), printed


def load_if_present(path):
    """Handles a missing file, but trusts that a present one is valid."""
    return json.load(open(path)) if Path(path).exists() else {}


def load_any_json(path):
    """Survives a missing or truncated file, but trusts that valid JSON is a dict."""
    try:
        return load_if_present(path)
    except ValueError:
        return {}


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
    (lesson04.check_trim_history, (s04.trim_history,)),
    (lesson04.check_transcript, (s04.transcript,)),
    (lesson04.check_count_roles, (s04.count_roles,)),
    (lesson05.check_add_usage, (s05.add_usage,)),
    (lesson05.check_run_agent_within, (s05.run_agent_within,)),
    (lesson05.check_count_kinds, (s05.count_kinds,)),
    (lesson06.check_notes, (s06.NOTES_FILE, s06.notes, s06.remember_note, s06.notes_prompt)),
    (lesson06.check_memory_tokens, (s06.memory_tokens,)),
    (lesson06.check_load_memory, (s06.load_memory,)),
]


@pytest.mark.parametrize("check, answer", REFERENCE, ids=[c.__name__ for c, _ in REFERENCE])
def test_reference_solution_passes(check, answer, capsys):
    passed, printed = verdict(check, *answer, capsys=capsys)
    assert passed and printed.startswith("✅"), printed


@pytest.fixture(autouse=True)
def in_tmp(tmp_path, monkeypatch):
    """Exercise 6.1 saves a notes file: keep it out of the repository. Every test starts as a first
    try, so a hint it looks for is the nudge, not the fix a later failure adds."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(checks, "_failed_runs", {})
    s06.notes.clear()


def note_without_saving(key, value):
    s06.notes[key] = value  # bug: the file is never written, so a restart loses it
    return "Noted."


def prompt_built_once(_built=[]):
    if not _built or "Ada" not in _built[0]:  # bug: keeps the first prompt that had a fact in it
        _built[:] = [s06.notes_prompt()]
    return _built[0]


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


def spending(rule):
    """5.2's reference answer with another rule for the tokens spent."""
    def run_agent_within(question, history, state, budget, max_turns=5):
        original, s05.tokens_spent = s05.tokens_spent, rule
        try:
            return s05.run_agent_within(question, history, state, budget, max_turns)
        finally:
            s05.tokens_spent = original
    return run_agent_within


def budget_before_the_loop(question, history, state, budget, max_turns=5):
    """The lesson's run_with_budget check, made once per question: a long question overshoots."""
    if s05.tokens_spent(state) >= budget:
        return f"Stopped: the budget of {budget} tokens is spent."
    return s05.run_agent_within(question, history, state, float("inf"), max_turns)


def budget_of_this_run(question, history, state, budget, max_turns=5):
    """Counts into a fresh dict, then adds it to the state: what the chat spent before is ignored."""
    fresh = dict.fromkeys(state, 0)
    answer = s05.run_agent_within(question, history, fresh, budget, max_turns)
    for key, value in fresh.items():
        state[key] += value
    return answer


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
    (lesson04.check_trim_history, (lambda h, keep: h[-keep:],), "orphan tool result"),
    (lesson04.check_trim_history, (lambda h, keep: h.pop() and h,), "keep the last 2"),
    (lesson04.check_transcript, (lambda h: "\n".join(f"{m['role']}: {m['content']}" for m in h),),
     "tool traffic"),
    (lesson04.check_count_roles, (lambda h: {"user": len(h)},), "returned {'user': 6}"),
    (lesson05.check_add_usage, (lambda state, r: state.update(prompt_tokens=r["usage"]["prompt_tokens"]),),
     "'prompt_tokens': 50"),
    (lesson05.check_run_agent_within, (lambda q, history, state, budget, max_turns=5: None,), "returned None"),
    (lesson05.check_run_agent_within, (budget_before_the_loop,), "budget of 1 tokens, 0 of them spent before the run, "
                                                                 "your run made 3 model calls, expected 1"),
    (lesson05.check_run_agent_within, (spending(lambda state: state["prompt_tokens"] + state["completion_tokens"] - 1),),
     "made 2 model calls, expected 1"),  # ">" where reaching the budget is enough
    (lesson05.check_run_agent_within, (spending(lambda state: state["prompt_tokens"]),), "made 2 model calls, expected 1"),
    (lesson05.check_run_agent_within, (budget_of_this_run,), "2299 of them spent before the run, your run made 3 "
                                                             "model calls, expected 0"),
    (lesson05.check_run_agent_within, (lambda q, history, state, budget, max_turns=5: s05.run_agent_within(
        q, history, dict(state), budget, max_turns),), "but the trace shows 3 model calls"),
    (lesson05.check_run_agent_within, (lambda q, history, state, budget, max_turns=5: (lambda answer: None if "budget"
                                       in answer else answer)(s05.run_agent_within(q, history, state, budget)),),
     "tell the user why it stopped"),
    (lesson05.check_run_agent_within, (boom,), "RuntimeError: student bug"),
    (lesson05.check_count_kinds, (lambda events: {e.kind: 1 for e in events},), "'request': 1"),
    (lesson06.check_notes, (s06.NOTES_FILE, s06.notes, lambda key, value: "Noted.", s06.notes_prompt), "the notes are"),
    (lesson06.check_notes, (s06.NOTES_FILE, s06.notes, note_without_saving, s06.notes_prompt), "holds"),
    (lesson06.check_notes, (s06.NOTES_FILE, s06.notes, s06.remember_note, lambda: s06.SYSTEM), "put the notes in it"),
    (lesson06.check_notes, (s06.NOTES_FILE, s06.notes, s06.remember_note, prompt_built_once), "still says Ada"),
    (lesson06.check_notes, (s06.NOTES_FILE, s06.notes, boom, s06.notes_prompt), "RuntimeError"),
    (lesson06.check_notes, (s06.NOTES_FILE, None, s06.remember_note, s06.notes_prompt), "notes dict"),
    (lesson06.check_memory_tokens, (lambda m: len(m),), "count_tokens"),
    (lesson06.check_load_memory, (lambda path: json.load(open(path)),), "FileNotFoundError"),
    (lesson06.check_load_memory, (load_if_present,), "JSONDecodeError"),
]


@pytest.mark.parametrize("check, answer, hint", WRONG, ids=[f"{c.__name__}-{i}" for i, (c, _, _) in enumerate(WRONG)])
def test_wrong_answer_fails_with_a_hint(check, answer, hint, capsys):
    passed, printed = verdict(check, *answer, capsys=capsys)
    assert not passed and printed.startswith("❌"), printed
    assert hint in printed
    assert "Traceback" not in printed


TWO_STEP = [  # (check, wrong answer, what only the fix, on the second failure, says)
    (lesson01.check_agent_with, (lambda system, question: "Your name is Ada.",), "as agent() does"),
    (lesson02.check_multiply_schema, (schema_without("description"),), "'Multiply two numbers.'"),
    (lesson02.check_run_tool_from, (lambda call, tools: tools[call["function"]["name"]](
        **json.loads(call["function"]["arguments"])),), "return str(result)"),
    (lesson02.check_count_letters, (lambda word, letter: 2, s02.MY_COUNT_LETTERS), "word.lower().count"),
    (lesson03.check_run_agent_until, (asks_once_more,), "before the next agentloop.ask"),
    (lesson04.check_trim_history, (lambda h, keep: h[-keep:],), "drop messages from the front"),
    (lesson04.check_transcript, (lambda h: "\n".join(f"{m['role']}: {m['content']}" for m in h),), "leave out tool"),
    (lesson04.check_count_roles, (lambda h: {"user": len(h)},), "Counter(m['role']"),
    (lesson05.check_add_usage, (lambda state, r: state.update(prompt_tokens=r["usage"]["prompt_tokens"]),),
     "in place (state[...] += ...)"),
    (lesson05.check_run_agent_within, (budget_before_the_loop,), "at the top of the loop, before agentloop.complete"),
    (lesson05.check_run_agent_within, (lambda q, history, state, budget, max_turns=5: s05.run_agent_within(
        q, history, dict(state), budget, max_turns),), "its three state[...] += lines"),
    (lesson05.check_count_kinds, (lambda events: {e.kind: 1 for e in events},), "Counter(event.kind"),
    (lesson06.check_notes, (s06.NOTES_FILE, s06.notes, note_without_saving, s06.notes_prompt), "save_json"),
    (lesson06.check_load_memory, (load_any_json,), "isinstance(value, dict)"),
]


@pytest.mark.parametrize("check, answer, fix", TWO_STEP, ids=[f"{c.__name__}-{i}" for i, (c, _, _) in enumerate(TWO_STEP)])
def test_a_first_failure_nudges_and_the_second_adds_the_fix(check, answer, fix, capsys):
    first = verdict(check, *answer, capsys=capsys)[1]
    s06.notes.clear()
    second = verdict(check, *answer, capsys=capsys)[1]
    assert first.startswith("❌") and "Fix:" not in first and fix not in first, first
    assert first.split("Hint: ", 1)[1].strip(), "the nudge says what went wrong"
    assert second.startswith(first.rstrip("\n") + " Fix: ") and fix in second.split(" Fix: ", 1)[1], second


def test_unfinished_exercise_placeholder_fails_politely(capsys):
    passed, printed = verdict(lesson01.check_reply_text, lambda r: ..., capsys=capsys)
    assert not passed and "Ellipsis" in printed
