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
    passed, printed = verdict(lesson04.check_trim_history, ns["trim_history"], capsys=capsys)
    assert passed and printed.startswith("✅"), printed
    passed, printed = verdict(lesson04.check_token_trim, ns["trim_to_tokens"], ns["run_agent_trimmed"], capsys=capsys)
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


def token_trim(ns, code=None, chat_body="history[:] = trim_to_tokens(history, MAX_HISTORY_TOKENS)"):
    """(the reference trim_to_tokens, or `code`; a chat around it), as the check takes them."""
    trim = answer(ns, code) if code else ns["trim_to_tokens"]
    ns["trim_to_tokens"] = trim  # the chat calls it by this name, as the student's cell does
    return trim, answer(ns, chat(chat_body))


WRONG_TOKEN_TRIMS = [
    # counts messages, not tokens: 300 messages of history fit every budget
    ("def by_messages(h, n):\n    return trim_history(h, n)", "over the budget"),
    # a bare token-fitting slice: drops from the front, but may start with an orphaned tool result
    ("def bare(h, n):\n    out = list(h)\n    while out and history_tokens(out) > n:\n        out = out[1:]\n    return out",
     "starts with a tool result"),
    # stops at the first short tail instead of the longest one
    ("def shortest(h, n):\n    for keep in range(1, len(h) + 1):\n        if history_tokens(trim_history(h, keep)) <= n:\n"
     "            return trim_history(h, keep)\n    return []", "keep as much as fits"),
    # review 15: trims by a message count derived from the budget, never counting tokens; it passed every
    # history of similar messages, and fails one with a long tool result among short turns
    ("def per_50(history, max_tokens):\n    return trim_history(history, max_tokens // 50)",
     "a number of messages says nothing about how many tokens they hold"),
    ("def per_40(history, max_tokens):\n    return trim_history(history, max(1, max_tokens // 40))",
     "a number of messages says nothing about how many tokens they hold"),
    # trims in place
    ("def in_place(h, n):\n    while h and history_tokens(h) > n:\n        del h[0]\n    return h", "changed the history"),
]


@pytest.mark.parametrize("code, hint", WRONG_TOKEN_TRIMS)
def test_wrong_token_trims_fail_with_a_true_reason(ns, code, hint, capsys):
    passed, printed = verdict(lesson04.check_token_trim, *token_trim(ns, code), capsys=capsys)
    assert not passed and hint in printed, printed


WRONG_CHATS = [
    ("history[:] = ...", "stopped at the marked line"),
    ("pass", "over MAX_HISTORY_TOKENS = 300"),  # never trimmed: the history outgrows the budget by question 3
    ("history[:] = history[-8:]", "tool result whose assistant message"),  # a bare slice orphans
    ("history[:] = trim_to_tokens(history, 30)", "fit in MAX_HISTORY_TOKENS = 300"),
    # rebinding: the trimmed list gets the name, the caller's list never changes (the review's case)
    ("history = trim_to_tokens(history, MAX_HISTORY_TOKENS)", "makes a new list with the same name"),
    ("history[:] = trim_to_tokens(history, 2 * MAX_HISTORY_TOKENS)", "over MAX_HISTORY_TOKENS = 300"),
    # a trim by message count, or to a smaller budget: under the budget, but it drops what fits (the review's case)
    ("history[:] = trim_history(history, 4)", "fit in MAX_HISTORY_TOKENS = 300"),
    ("history[:] = trim_to_tokens(history, 150)", "fit in MAX_HISTORY_TOKENS = 300"),
]


@pytest.mark.parametrize("body, hint", WRONG_CHATS)
def test_wrong_chats_fail_with_a_true_reason(ns, body, hint, capsys):
    passed, printed = verdict(lesson04.check_token_trim, *token_trim(ns, chat_body=body), capsys=capsys)
    assert not passed and hint in printed, printed


def test_a_chat_that_asks_nothing_fails(ns, capsys):
    lazy = answer(ns, "def chat(question, history):\n    history[:] = trim_to_tokens(history, 300)\n"
                      "    return 'The answer is 2.'")
    passed, printed = verdict(lesson04.check_token_trim, ns["trim_to_tokens"], lazy, capsys=capsys)
    assert not passed and "asked the model nothing" in printed, printed


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
    assert max(trimmed[-6:]) - min(trimmed[-6:]) < 60  # level: a window of at most 300 tokens, slid along
    assert trimmed[-1] - trimmed[0] < (untrimmed[-1] - untrimmed[0]) / 3


UNUSUAL_RIGHT_TOKEN_TRIMS = [
    # drops whole questions from the front until it fits, never calling trim_history
    "def drop_front(messages, limit):\n    kept = list(messages)\n    while kept and (history_tokens(kept) > limit or "
    "kept[0]['role'] != 'user'):\n        kept = kept[1:]\n    return kept",
    # a stricter count, message by message (each with its own brackets): it keeps a little less, and fits
    "def strict(h, budget):\n    for keep in range(len(h), 0, -1):\n        kept = trim_history(h, keep)\n"
    "        if sum(history_tokens([m]) for m in kept) <= budget:\n            return kept\n    return []",
    # sums message sizes from the newest back, then starts at a user message: a different route to the longest tail
    "def from_the_end(h, budget):\n    total, start = 2, len(h)\n    for i in range(len(h) - 1, -1, -1):\n"
    "        total += history_tokens([h[i]])\n        if total > budget:\n            break\n        start = i\n"
    "    kept = h[start:]\n    while kept and kept[0]['role'] != 'user':\n        kept = kept[1:]\n    return kept",
    # a binary search over keep
    "def halving(h, budget):\n    lo, hi = 0, len(h)\n    while lo < hi:\n        mid = (lo + hi + 1) // 2\n"
    "        if history_tokens(trim_history(h, mid)) <= budget:\n            lo = mid\n        else:\n"
    "            hi = mid - 1\n    return trim_history(h, lo)",
]


@pytest.mark.parametrize("code", UNUSUAL_RIGHT_TOKEN_TRIMS)
def test_unusual_right_token_trims_pass(ns, code, capsys):
    passed, printed = verdict(lesson04.check_token_trim, *token_trim(ns, code), capsys=capsys)
    assert passed, printed


def test_a_chat_that_trims_after_the_answer_too_passes(ns, capsys):
    passed, printed = verdict(lesson04.check_token_trim, *token_trim(
        ns, chat_body="history[:] = trim_to_tokens(list(history), max_tokens=MAX_HISTORY_TOKENS)"), capsys=capsys)
    assert passed, printed


def test_a_right_trim_over_a_4_1_that_keeps_a_leading_assistant_call_passes(ns, capsys):
    """The review's pair: a 4.1 that drops only leading tool results (so a kept tail may open with an assistant
    message and its tool_calls) and the reference trim_to_tokens. The check counts the history the student's
    list holds, as history_tokens does, not the request's wire form (the client adds a `name` to tool messages)."""
    ns["trim_history"] = answer(ns, UNUSUAL_RIGHT_TRIMS[0])
    trim = answer(ns, "def trim_to_tokens(history, max_tokens):\n    for keep in range(len(history), 0, -1):\n"
                      "        kept = trim_history(history, keep)\n        if history_tokens(kept) <= max_tokens:\n"
                      "            return kept\n    return []")
    ns["trim_to_tokens"] = trim
    passed, printed = verdict(lesson04.check_token_trim, trim, answer(ns, chat(
        "history[:] = trim_to_tokens(history, MAX_HISTORY_TOKENS)")), capsys=capsys)
    assert passed, printed


def test_the_history_is_counted_in_the_students_form_when_the_request_carried_it():
    """_own_messages undoes nothing by guesswork: it takes the caller's messages only when the client's preparing
    of them gives what the request carried (a tool result gains its tool's `name`), else the request's own."""
    from agentloop import wire
    own = lesson04._conversation()
    sent = wire.prepare({"messages": own})["messages"]
    assert sent != own and lesson04.history_tokens(sent) > lesson04.history_tokens(own)  # the wire adds fields
    assert lesson04._own_messages(sent, own + [{"role": "user", "content": "next"}]) == own
    other = lesson04._two_calls_in_one_turn()  # the caller's list no longer starts with what was sent
    assert lesson04._own_messages(sent, other) == sent
