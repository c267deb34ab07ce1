"""Every exercise check both ways: the reference solution passes, wrong answers fail with a hint."""
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "solutions"))
import lesson01 as s01  # noqa: E402
import lesson02 as s02  # noqa: E402
import lesson03 as s03  # noqa: E402

from agentloop.exercises import lesson01, lesson02, lesson03  # noqa: E402


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
    (lesson01.check_make_messages, (s01.make_messages,)),
    (lesson01.check_total_tokens, (s01.total_tokens,)),
    (lesson02.check_multiply_schema, (s02.MULTIPLY_SCHEMA,)),
    (lesson02.check_run_tool, (s02.run_tool,)),
    (lesson02.check_count_letters, (s02.count_letters, s02.COUNT_LETTERS_SCHEMA)),
    (lesson03.check_safe_run_tool, (s03.safe_run_tool,)),
    (lesson03.check_tools_used, (s03.tools_used,)),
    (lesson03.check_count_turns, (s03.count_turns,)),
]


@pytest.mark.parametrize("check, answer", REFERENCE, ids=[c.__name__ for c, _ in REFERENCE])
def test_reference_solution_passes(check, answer, capsys):
    passed, printed = verdict(check, *answer, capsys=capsys)
    assert passed and printed.startswith("✅"), printed


def schema_without(key):
    schema = json.loads(json.dumps(s02.MULTIPLY_SCHEMA))
    del schema["function"][key]
    return schema


WRONG = [  # (check, wrong answer, a phrase the hint must contain)
    (lesson01.check_reply_text, (lambda r: r["choices"][0]["message"],), "['content']"),
    (lesson01.check_reply_text, (lambda r: "Paris.",), "don't hard-code"),
    (lesson01.check_reply_text, (boom,), "RuntimeError: student bug"),
    (lesson01.check_make_messages, (lambda s, q: [{"role": "user", "content": q}],), "two messages"),
    (lesson01.check_make_messages, (lambda s, q: [{"role": "user", "content": q}, {"role": "system", "content": s}],),
     "'system'"),
    (lesson01.check_make_messages, (lambda s, q: (s, q),), "list"),
    (lesson01.check_total_tokens, (lambda rs: sum(r["usage"]["prompt_tokens"] for r in rs),), "total_tokens"),
    (lesson02.check_multiply_schema, ({"name": "multiply"},), "'type': 'function'"),
    (lesson02.check_multiply_schema, (schema_without("description"),), "description"),
    (lesson02.check_multiply_schema, (schema_without("parameters"),), "'type': 'object'"),
    (lesson02.check_run_tool, (lambda call, tools: tools[call["function"]["name"]](
        **json.loads(call["function"]["arguments"])),), "string"),
    (lesson02.check_run_tool, (lambda call, tools: str(tools[call["function"]["name"]](
        **json.loads(call["function"]["arguments"]))),), "KeyError"),
    (lesson02.check_count_letters, (lambda word, letter: 2, s02.COUNT_LETTERS_SCHEMA), "expected 3"),
    (lesson02.check_count_letters, (s02.count_letters, None), "schema"),
    (lesson03.check_safe_run_tool, (lambda call, tools: str(tools[call["function"]["name"]](
        **json.loads(call["function"]["arguments"]))),), "ZeroDivisionError"),
    (lesson03.check_safe_run_tool, (lambda call, tools: "Error",), "return str(result)"),
    (lesson03.check_tools_used, (lambda q: ["add", "multiply"],), "(2 + 3) * (4 + 1)"),
    (lesson03.check_count_turns, (lambda q: len(s03.tools_used(q)),), "expected 1"),
    (lesson03.check_count_turns, (boom,), "RuntimeError"),
]


@pytest.mark.parametrize("check, answer, hint", WRONG, ids=[f"{c.__name__}-{i}" for i, (c, _, _) in enumerate(WRONG)])
def test_wrong_answer_fails_with_a_hint(check, answer, hint, capsys):
    passed, printed = verdict(check, *answer, capsys=capsys)
    assert not passed and printed.startswith("❌"), printed
    assert hint in printed
    assert "Traceback" not in printed


def test_unfinished_exercise_placeholder_fails_politely(capsys):
    passed, printed = verdict(lesson01.check_reply_text, lambda r: ..., capsys=capsys)
    assert not passed and "Ellipsis" in printed
