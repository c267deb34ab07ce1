"""Lesson 4's checks, driven through the lesson's own agent: trimming (4.1) and trimming wired in (4.2)."""
import pytest
from lesson_answers import answer, notebook, verdict

from agentloop import checks
from agentloop.exercises import lesson04


@pytest.fixture
def ns(monkeypatch):
    monkeypatch.setattr(checks, "_failed_runs", {})  # each test is a first try: the nudge, not the fix
    return notebook(4)


def test_the_reference_solutions_pass(ns, capsys):
    for check, solution in ((lesson04.check_trim_history, "trim_history"),
                            (lesson04.check_trimmed_chat, "run_agent_trimmed")):
        passed, printed = verdict(check, ns[solution], capsys=capsys)
        assert passed and printed.startswith("✅"), printed


UNUSUAL_RIGHT_TRIMS = [
    # drops only the orphaned tool results: a history may start with an assistant reply
    "def drop_orphans(messages, n):\n    kept = list(messages[-n:]) if n > 0 else []\n"
    "    while kept and kept[0]['role'] == 'tool':\n        kept.pop(0)\n    return kept",
    # walks backwards, counting, and stops at a user message
    "def backwards(h, keep):\n    out = []\n    for m in reversed(h):\n        if len(out) == keep:\n            break\n"
    "        out.insert(0, m)\n    while out and out[0]['role'] != 'user':\n        out = out[1:]\n    return out",
]


@pytest.mark.parametrize("code", UNUSUAL_RIGHT_TRIMS)
def test_unusual_right_trims_pass(ns, code, capsys):
    passed, printed = verdict(lesson04.check_trim_history, answer(ns, code), capsys=capsys)
    assert passed, printed


WRONG_TRIMS = [
    ("def bare(h, keep):\n    return h[-keep:]", "returned 6 messages, more than 0"),
    ("def bare_positive(h, keep):\n    return h[-keep:] if keep > 0 else []", "starts with a tool result whose assistant"),
    ("def skip_tools(h, keep):\n    return [m for m in h[-keep:] if m['role'] != 'tool'] if keep > 0 else []",
     "not the last messages"),
    ("def in_place(h, keep):\n    del h[:max(len(h) - keep, 0)]\n    return h", "has changed"),
    ("def too_eager(h, keep):\n    return h[-1:] if keep > 0 and h[-1]['role'] == 'user' else []", "can keep"),
]


@pytest.mark.parametrize("code, hint", WRONG_TRIMS)
def test_wrong_trims_fail_with_a_true_reason(ns, code, hint, capsys):
    passed, printed = verdict(lesson04.check_trim_history, answer(ns, code), capsys=capsys)
    assert not passed and hint in printed, printed


def test_the_orphan_case_names_the_api_error(ns, capsys):
    """keep=4 on user, assistant(call), tool, assistant, user, assistant cuts the call off its result."""
    bare = answer(ns, "def bare(h, keep):\n    return h[-keep:] if keep > 0 else []")
    assert bare(lesson04._conversation(), 4)[0]["role"] == "tool"
    assert lesson04.orphans(bare(lesson04._conversation(), 4)) == ["call_1"]
    passed, printed = verdict(lesson04.check_trim_history, bare, capsys=capsys)
    assert "trim_history(history, 4) starts with a tool result" in printed and "400" in printed


def chat(body: str) -> str:
    return f"def chat(question, history):\n    {body}\n    return run_agent(question, history, verbose=False)"


WRONG_CHATS = [
    (chat("history[:] = ..."), "stopped at the marked line"),
    (chat("pass"), "still grows"),  # never trimmed: the requests climb question after question
    (chat("history[:] = history[-KEEP:]"), "tool result whose assistant message"),  # a bare slice orphans
    (chat("history[:] = trim_history(history, 1)"), "right after 'My name is Ada.'"),
    # rebinding: the trimmed list gets the name, the caller's list never changes (the review's case)
    (chat("history = trim_history(history, KEEP)"), "makes a new list with the same name"),
    (chat("history[:] = trim_history(history, 200)"), "still grows"),
    ("def chat(question, history):\n    history[:] = trim_history(history, KEEP)\n    return 'The answer is 2.'",
     "asked the model nothing"),
]


@pytest.mark.parametrize("code, hint", WRONG_CHATS)
def test_wrong_chats_fail_with_a_true_reason(ns, code, hint, capsys):
    passed, printed = verdict(lesson04.check_trimmed_chat, answer(ns, code), capsys=capsys)
    assert not passed and hint in printed, printed


def test_the_token_count_levels_off_only_when_trimmed(ns):
    """The oracle behind 4.2: the first request of each question, untrimmed and trimmed."""
    from agentloop import trace

    def first_requests(run):
        history, tokens = [], []
        for question in lesson04.QUESTIONS:
            start = len(trace.events)
            run(question, history)
            tokens.append(next(e.payload["usage"]["prompt_tokens"] for e in trace.events[start:] if e.kind == "response"))
        return tokens
    untrimmed = first_requests(lambda q, h: ns["run_agent"](q, h, verbose=False))
    trimmed = first_requests(ns["run_agent_trimmed"])
    assert all(a < b for a, b in zip(untrimmed, untrimmed[1:]))  # every question costs more than the last
    assert trimmed[-1] == trimmed[-3] == trimmed[-5]  # flat: the same window, question after question
    assert trimmed[-1] - trimmed[0] < (untrimmed[-1] - untrimmed[0]) / 3


UNUSUAL_RIGHT_CHATS = [
    chat("history[:] = trim_history(list(history), keep=6)"),
    # trims after the answer instead of before: the next question starts short all the same
    "def chat(q, h):\n    h[:] = trim_history(h, KEEP)\n    answer = run_agent(q, h, verbose=False)\n"
    "    h[:] = trim_history(h, KEEP)\n    return answer",
]


@pytest.mark.parametrize("code", UNUSUAL_RIGHT_CHATS)
def test_unusual_right_chats_pass(ns, code, capsys):
    passed, printed = verdict(lesson04.check_trimmed_chat, answer(ns, code), capsys=capsys)
    assert passed, printed
