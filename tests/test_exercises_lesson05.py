"""Lesson 5's checks, driven through the lesson's own agent: the progress line the loop reports after every model
call (5.1) and the budget inside the loop (5.2), each as the skeleton filled in right, wrongly and unusually; and the
loop's own trace records, drawn once."""
import inspect
import re

import pytest
from lesson_answers import agent as notebook_agent
from lesson_answers import answer, notebook, verdict

from agentloop import checks, trace, trace_run
from agentloop.exercises import lesson05


@pytest.fixture
def ns(monkeypatch):
    monkeypatch.setattr(checks, "_failed_runs", {})  # each test is a first try: the nudge, not the fix
    return notebook(5)


def filled(ns, name: str, *changes):
    """The reference answer `name` with pieces of it written otherwise: (old, new) pairs, in order."""
    source = inspect.getsource(ns[name])
    for old, new in zip(changes[::2], changes[1::2]):
        assert old in source, old
        source = source.replace(old, new, 1)
    return answer(ns, source)


def test_the_reference_solutions_pass(ns, capsys):
    for check, solution in ((lesson05.check_progress_line, "run_agent_live"),
                            (lesson05.check_run_agent_within, "run_agent_within")):
        passed, printed = verdict(check, ns[solution], capsys=capsys)
        assert passed and printed.startswith("✅"), printed


STEP = "        if on_step is not None:\n            on_step(progress(state))  # noqa: F821\n"
TOOL_RESULT = "            messages.append({\"role\": \"tool\", \"tool_call_id\": call[\"id\"], \"content\": run_tool(call)})"
LIVE_WRONG = [
    ((STEP, ""), "never called it"),  # the starter: nothing reported
    # unguarded: every demo calls the loop without a callback
    ((STEP, "        on_step(progress(state))  # noqa: F821\n"), "called without a callback"),
    # at the end of the loop body: the answer's call leaves the loop first
    ((STEP, "", TOOL_RESULT, TOOL_RESULT + "\n        if on_step:\n            on_step(progress(state))  # noqa: F821"),
     "made 3 model calls and reported 2 progress lines"),
    # only when the model called tools: the same miss, in another form
    ((STEP, "        if on_step and message.get('tool_calls'):\n            on_step(progress(state))  # noqa: F821\n"),
     "reported 2 progress lines"),
    # at the top of the loop body: the state has not counted the call yet
    ((STEP, "", "        response = agentloop.complete(",
      "        if on_step:\n            on_step(progress(state))  # noqa: F821\n        response = agentloop.complete("),
     "you reported 'Called 0 tools, 0 model calls, 0 tokens'"),
    # prompt tokens called the tokens: a wrong number, whatever the wording
    ((STEP, "        if on_step:\n            on_step(f\"{state['model_calls']} model calls, {state['prompt_tokens']} tokens\")\n"),
     re.compile(r"you reported '1 model calls, (\d+) tokens'; the trace shows 1 model calls, 0 tool calls before it "
                r"\(1 with its own\) and (\d+) tokens so far \(\1 prompt \+ \d+ completion\)")),
    # the state itself: with on_step=print the user sees a raw dict
    ((STEP, "        if on_step:\n            on_step(state)\n"), "was given the state dict, not the line"),
    # all the lines at the end: right figures, too late to show progress
    ((STEP, "        shown.append(progress(state))  # noqa: F821\n",
      "    messages = [", "    shown = []\n    messages = [",
      "    history[:] = messages[1:]", "    for line in shown:\n        on_step and on_step(line)\n    history[:] = messages[1:]"),
     "came when 3 model calls had been made"),
    # review 18: each call's line at the top of the next trip round the loop, the last one after it: every line
    # arrives with the right counts, but only once that call's tools are done
    ((STEP, "", "        response = agentloop.complete(",
      "        if on_step and turn > 1:\n            on_step(progress(state))  # noqa: F821\n        response = agentloop.complete(",
      "    history[:] = messages[1:]", "    if on_step:\n        on_step(progress(state))  # noqa: F821\n    history[:] = messages[1:]"),
     "came after that call's tools had run"),
    # the running totals of another run: the state given is ignored
    ((STEP, "        if on_step:\n            on_step(progress(new_state() | {'model_calls': turn}))  # noqa: F821\n"),
     "you reported 'Called 0 tools, 1 model calls, 0 tokens'"),
]


@pytest.mark.parametrize("changes, hint", LIVE_WRONG)
def test_wrong_progress_lines_fail_with_a_true_reason(ns, changes, hint, capsys):
    passed, printed = verdict(lesson05.check_progress_line, filled(ns, "run_agent_live", *changes), capsys=capsys)
    assert not passed and (hint.search(printed) if isinstance(hint, re.Pattern) else hint in printed), printed


@pytest.mark.parametrize("changes", [
    # other words, other order, the tool calls counted once the tools have run
    (STEP, "        if on_step:\n            on_step(f\"step {turn}: {state['model_calls']} model calls so far | \"\n"
           "                    f\"{state['prompt_tokens'] + state['completion_tokens']} tokens\")\n"),
    # tokens in and out, with a thousands separator, and `callable` as the guard
    (STEP, "        if callable(on_step):\n            on_step(f\"model call #{state['model_calls']}: {state['prompt_tokens']:,} in / \"\n"
           "                    f\"{state['completion_tokens']} out\")\n"),
    # another name for the parameter, a one-line guard, the line passed by keyword
    ("on_step=None)", "report=None)", STEP, "        report and report(line=progress(state))  # noqa: F821\n"),
    # label then number, with '=' or ':' and a word between ("tools used: 0"): each number read with its own label
    (STEP, "        if on_step:\n            on_step(f\"model calls={state['model_calls']} tools={state['tool_calls']}\")\n"),
    (STEP, "        if on_step:\n            on_step(f\"Model calls: {state['model_calls']} | tools used: {state['tool_calls']}\")\n"),
])
def test_unusual_right_progress_lines_pass(ns, changes, capsys):
    passed, printed = verdict(lesson05.check_progress_line, filled(ns, "run_agent_live", *changes), capsys=capsys)
    assert passed, printed


def test_the_joined_loop_reports_through_on_step_in_lesson_6():
    """5.1's reference joins the agent: lesson 6's run_agent reports the same line after every model call."""
    lesson6 = notebook_agent(6)
    heard = []
    lesson6["memory"].clear()
    answer = lesson6["run_agent"]("What is (3 + 4) * 5?", [], lesson6["new_state"](), verbose=False, on_step=heard.append)
    assert answer == "The answer is 35." and [line.split(" tokens")[0].rsplit(", ", 1)[0] for line in heard] == [
        "Called 0 tools, 1 model calls", "Called 1 tools, 2 model calls", "Called 2 tools, 3 model calls"], heard


RULE = "        if state[\"prompt_tokens\"] + state[\"completion_tokens\"] >= budget:\n"
STOP = "            return f\"Stopped: the budget of {budget} tokens is spent.\"\n"
WITHIN_WRONG = [
    (RULE, "        if state[\"prompt_tokens\"] >= budget:\n", "made 2 model calls, expected 1"),  # completion forgotten
    (RULE, "        if state[\"prompt_tokens\"] + state[\"completion_tokens\"] > budget:\n", "expected 1"),  # > not >=
    (STOP, "            return 'Sorry, I have to stop here.'\n", "tell the user why it stopped"),
    (STOP, "            break\n", "returned 'Stopped: no answer after"),  # falls through to the turns message
    (STOP, "            return 'Stopped: I hit my limit of turns.'\n", "tell the user why it stopped"),
    (RULE + "            history[:] = messages[1:]  # kept even when the budget stopped the run: the chat can go on later\n"
     + STOP, "        ...\n", "your run made 3 model calls, expected 1"),  # the starter: no rule at all
    # the review's: a budget stop, but the task asks for a message that names the budget
    (STOP, "            return 'Out of budget.'\n", "does not say how big the budget was"),
    (STOP, "            return \"I'm out of tokens for this run, so I paused here.\"\n", "does not say how big"),
    # the task's example figure typed in, not the budget the run was given
    (STOP, "            return 'Stopped: the budget of 1000 tokens is spent.'\n", "does not say how big"),
]


@pytest.mark.parametrize("old, new, hint", WITHIN_WRONG)
def test_wrong_budgets_fail_with_a_true_reason(ns, old, new, hint, capsys):
    passed, printed = verdict(lesson05.check_run_agent_within, filled(ns, "run_agent_within", old, new), capsys=capsys)
    assert not passed and (hint.search(printed) if isinstance(hint, re.Pattern) else hint in printed), printed


def test_a_budget_of_this_run_only_forgets_what_the_chat_spent(ns, capsys):
    only_this_run = filled(ns, "run_agent_within", "    messages = [",
                           "    spent = state[\"prompt_tokens\"] + state[\"completion_tokens\"]\n    messages = [",
                           "if state[\"prompt_tokens\"] + state[\"completion_tokens\"] >= budget",
                           "if state[\"prompt_tokens\"] + state[\"completion_tokens\"] - spent >= budget")
    passed, printed = verdict(lesson05.check_run_agent_within, only_this_run, capsys=capsys)
    assert not passed and "2299 of them spent before the run, your run made 3" in printed, printed


def test_an_unusual_right_budget_passes(ns, capsys):
    """A helper of its own and a `break` with the message kept for after the loop."""
    ns["spent"] = lambda state: state["prompt_tokens"] + state["completion_tokens"]
    other = filled(ns, "run_agent_within", RULE + "            history[:] = messages[1:]  # kept even when the budget "
                   "stopped the run: the chat can go on later\n" + STOP,
                   "        if not spent(state) < budget:\n            return 'Stopped at the budget (%d tokens).' % budget\n")
    passed, printed = verdict(lesson05.check_run_agent_within, other, capsys=capsys)
    assert passed, printed


@pytest.mark.parametrize("message", ["f'Budget exhausted ({budget} tokens); pausing.'",
                                     "'Out of budget: ' + str(budget) + ' tokens used up.'",
                                     "f'Paused: the {budget:,}-token budget is used up.'"])
def test_a_budget_stop_in_other_words_passes(ns, message, capsys):
    other = filled(ns, "run_agent_within", STOP, f"            return {message}\n")
    passed, printed = verdict(lesson05.check_run_agent_within, other, capsys=capsys)
    assert passed, printed


def test_the_loop_records_tool_calls_and_the_answer_and_the_trace_draws_them_once(ns, capsys):
    trace.clear()
    state = ns["new_state"]()
    assert ns["run_agent"]("What is (3 + 4) * 5?", [], state, verbose=False) == "The answer is 35."
    kinds = [event.kind for event in trace.events]
    assert kinds.count("tool_call") == state["tool_calls"] == 2 and kinds[-1] == "final"
    text = trace_run.text()
    assert "tool_call:" not in text and "final:" not in text and text.count("tool add(") == 1
    assert text.splitlines()[0].startswith(f"{state['model_calls']} model calls, {state['tool_calls']} tool calls, "
                                           f"{state['prompt_tokens'] + state['completion_tokens']} tokens")
    trace.record("final", {"content": "something else"})  # a final the responses do not show is still a note
    assert trace_run.text().endswith("final: something else")


def test_a_budget_in_a_notebook_that_still_counts_turns_passes(ns, capsys):
    """A notebook saved before the count was named model_calls: its state says `turns`, and the check reads that."""
    ns["new_state"] = lambda: {"turns": 0, "tool_calls": 0, "prompt_tokens": 0,
                               "completion_tokens": 0}  # the namespace the answer below runs in
    older = filled(ns, "run_agent_within", 'state["model_calls"] += 1', 'state["turns"] += 1')
    passed, printed = verdict(lesson05.check_run_agent_within, older, capsys=capsys)
    assert passed, printed
