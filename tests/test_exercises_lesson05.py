"""Lesson 5's checks, driven through the lesson's own agent: the live progress line that says what each tool did (5.1) and the
budget inside the loop (5.2), each as the skeleton filled in right, wrongly and unusually; and the
loop's own trace records, drawn once."""
import inspect
import re

import pytest
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
    for check, solution in ((lesson05.check_live_progress, "run_agent_live"),
                            (lesson05.check_run_agent_within, "run_agent_within")):
        passed, printed = verdict(check, ns[solution], capsys=capsys)
        assert passed and printed.startswith("✅"), printed


PRINTED = "        print(progress_by_tool(state))\n"
COUNTED = "            used[call[\"function\"][\"name\"]] = used.get(call[\"function\"][\"name\"], 0) + 1\n"
TOOL_RESULT = "            messages.append({\"role\": \"tool\", \"tool_call_id\": call[\"id\"], \"content\": run_tool(call)})"
LIVE_WRONG = [
    ((PRINTED, ""), "printed no progress line"),  # the starter: nothing printed
    # at the end of the loop body: the answer's call leaves the loop first
    ((PRINTED, "", TOOL_RESULT, TOOL_RESULT + "\n        print(progress_by_tool(state))"), "printed 2 progress lines"),
    # at the top of the loop body: the state has not counted the call yet
    ((PRINTED, "", "        response = agentloop.complete(",
      "        print(progress_by_tool(state))\n        response = agentloop.complete("),
     "you printed 'nothing done yet · Called 0 tools, 0 model calls, 0 tokens'"),
    # prompt tokens called the tokens: a wrong number, whatever the wording
    ((PRINTED, "        print(f\"{state['turns']} model calls, {state['prompt_tokens']} tokens\")\n"),
     re.compile(r"you printed '1 model calls, (\d+) tokens'; the trace shows 1 model calls, 0 tool calls before it "
                r"\(1 with its own\) and (\d+) tokens so far \(\1 prompt \+ \d+ completion\)")),
    # the calls and nothing else: no tokens, no tool calls
    ((PRINTED, "        print(f\"model call #{state['turns']} done\")\n"), "you printed 'model call #1 done'"),
    # review 6: any wording passes, so a line printed at the wrong time must still fail: all of them at the end
    ((PRINTED, "        shown.append(progress_by_tool(state))\n",
      "    messages = [", "    shown = []\n    messages = [",
      "    history[:] = messages[1:]", "    print(*shown, sep='\\n')\n    history[:] = messages[1:]"),
     "was printed when 3 model calls had been made"),
    # the running totals of another run: the state given is ignored
    ((PRINTED, "        print(progress(new_state() | {'turns': turn}))  # noqa: F821\n"),
     "you printed 'Called 0 tools, 1 model calls, 0 tokens'"),
    # lesson 5's own line: the figures, but not what was done
    ((PRINTED, "        print(progress(state))  # noqa: F821\n"), "it does not say that add ran (as 'added')"),
    # each tool counted once, however often it ran
    ((COUNTED, "            used[call[\"function\"][\"name\"]] = 1\n"),
     "it says 'added' 1 times, but add ran 3 times"),
    # never counted: the line stays 'nothing done yet'
    ((COUNTED, ""), "it does not say that add ran"),
]


@pytest.mark.parametrize("changes, hint", LIVE_WRONG)
def test_wrong_live_progress_fails_with_a_true_reason(ns, changes, hint, capsys):
    passed, printed = verdict(lesson05.check_live_progress, filled(ns, "run_agent_live", *changes), capsys=capsys)
    assert not passed and (hint.search(printed) if isinstance(hint, re.Pattern) else hint in printed), printed


def test_a_line_function_still_a_stub_is_named(ns, capsys):
    ns["run_agent_live"].__globals__["progress_by_tool"] = lambda state: None  # the starter's `...` body
    passed, printed = verdict(lesson05.check_live_progress, ns["run_agent_live"], capsys=capsys)
    assert not passed and "your loop printed None" in printed, printed


def test_tools_named_without_a_count_fail(ns, capsys):
    loop_globals = ns["run_agent_live"].__globals__  # run_path's namespace: what the loop really reads
    loop_globals["progress_by_tool"] = lambda state: (", ".join(ns["DONE"][n] for n in state["used"]) + " · "
                                                      + ns["progress"](state))
    passed, printed = verdict(lesson05.check_live_progress, ns["run_agent_live"], capsys=capsys)
    assert not passed and "it names 'added' but not how many times" in printed, printed


TOOLS_DONE = "{', '.join(f'{name} x{times}' for name, times in state['used'].items())}"


@pytest.mark.parametrize("line", [
    # other words, other order, the tool calls counted once the tools have run
    "        print(f\"step {turn}: {state['turns']} model calls so far | \"\n"
    "              f\"{state['prompt_tokens'] + state['completion_tokens']} tokens | {state['tool_calls']} tool calls"
    " | " + TOOLS_DONE + "\")\n",
    # review 6: rejected for its wording; it shows the calls so far and the tokens in and out
    "        print(f\"model call #{state['turns']}: {state['prompt_tokens']} in / {state['completion_tokens']} out "
    + TOOLS_DONE + "\")\n",
    # review 7: the loop's step number is the model calls so far, with the tool calls
    "        print(f\"step {turn}: {state['tool_calls']} tool calls so far; " + TOOLS_DONE + "\")\n",
    # calls and tokens only (the tool calls left out), with a thousands separator
    "        print(f\"{state['turns']} model calls, \"\n"
    "              f\"{state['prompt_tokens'] + state['completion_tokens']:,} tokens so far. " + TOOLS_DONE + "\")\n",
    # the count before the tool, in words where it can
    "        print(f\"LLM calls: {state['turns']}, tool calls: {state['tool_calls']} \" + "
    "'; '.join(f\"{ {1: 'once', 2: 'twice'}.get(t, str(t) + ' times')} {DONE[n]}\" for n, t in used.items()))\n",
])
def test_unusual_right_live_progress_passes(ns, line, capsys):
    live = filled(ns, "run_agent_live", PRINTED, line)
    passed, printed = verdict(lesson05.check_live_progress, live, capsys=capsys)
    assert passed, printed


@pytest.mark.parametrize("wording", ["f'{DONE[n]} {t}x'", "f'{n} ({t})'", "f'{n} called {t} times'"])
def test_other_counts_for_the_tools_pass(ns, wording, capsys):
    """'added 1x', 'add (2)', 'add called 3 times': a count in other forms, after the word."""
    loop_globals = ns["run_agent_live"].__globals__
    loop_globals["progress_by_tool"] = eval(f"lambda state: ', '.join({wording} for n, t in state['used'].items())"
                                            " + ' | ' + progress(state)", loop_globals)
    passed, printed = verdict(lesson05.check_live_progress, ns["run_agent_live"], capsys=capsys)
    assert passed, printed


def test_other_words_for_the_tools_pass(ns, capsys):
    """The student's own DONE table: 'summed' for add, 'times-ed' for multiply."""
    ns["run_agent_live"].__globals__["DONE"] = {"add": "summed", "multiply": "took a product"}
    passed, printed = verdict(lesson05.check_live_progress, ns["run_agent_live"], capsys=capsys)
    assert passed, printed


def test_a_line_printed_before_the_next_call_is_in_time(ns, capsys):
    """Right, unusual: each call's line printed at the top of the next trip round the loop, the last after it."""
    late = filled(ns, "run_agent_live", PRINTED, "",
                  "        response = agentloop.complete(",
                  "        if turn > 1:\n            print(progress_by_tool(state))\n        response = agentloop.complete(",
                  "    history[:] = messages[1:]", "    print(progress_by_tool(state))\n    history[:] = messages[1:]")
    passed, printed = verdict(lesson05.check_live_progress, late, capsys=capsys)
    assert passed, printed


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
    assert text.splitlines()[0].startswith(f"{state['turns']} model calls, {state['tool_calls']} tool calls, "
                                           f"{state['prompt_tokens'] + state['completion_tokens']} tokens")
    trace.record("final", {"content": "something else"})  # a final the responses do not show is still a note
    assert trace_run.text().endswith("final: something else")
