"""Lesson 3's checks both ways. Each answer is the notebook's own exercise cell with its hole filled
in (a right way, an unusual right way, or a plausible wrong way), run after the lesson's agent cells,
so the tests exercise what a student would actually submit."""
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT / "solutions"))
import lesson03 as s03  # noqa: E402

from agentloop import checks  # noqa: E402
from agentloop.exercises import lesson03  # noqa: E402
from lesson_answers import verdict  # noqa: E402

LESSON = json.loads((ROOT / "lessons" / "03_the_loop.ipynb").read_text())
HOLES = {"check_run_agent_until": "...  # your code here: a tool named in stop_at ends the run, its result the answer",
         "check_run_agent_final_answer": "...  # your code here: out of turns, one last call without tools; its answer, marked as cut short",
         "check_run_agent_asking": "...  # your code here: run_tool(call) only if approve(call) says yes"}


@pytest.fixture(autouse=True)
def first_try(monkeypatch, tmp_path):
    """A first try each time (the nudge, not the fix); the progress file goes to a temporary folder."""
    monkeypatch.setattr(checks, "_failed_runs", {})
    monkeypatch.chdir(tmp_path)


def filled(check: str, code: str):
    """The exercise cell that calls `check`, its hole replaced by `code` (indented as the hole is),
    run after the lesson's agent cells; the function it defines."""
    namespace = {"__name__": "notebook"}
    for cell in LESSON["cells"]:
        source = "".join(cell["source"])
        if cell["cell_type"] == "code" and {"carried", "agent"} & set(cell["metadata"].get("tags", [])):
            exec(source, namespace)
    cell = next("".join(c["source"]) for c in LESSON["cells"] if f"lesson03.{check}(" in "".join(c["source"]))
    line = next(line for line in cell.splitlines() if HOLES[check] in line)
    indent = line[:len(line) - len(line.lstrip())]
    code = code.replace("\n", "\n" + indent)
    cell = cell.replace(HOLES[check], code).replace(f"lesson03.{check}(", "_ = (")
    exec(cell, namespace)
    return namespace[cell.split("def ", 1)[1].split("(", 1)[0]]


RIGHT = [
    ("check_run_agent_until", None, s03.run_agent_until),
    ("check_run_agent_until", "if call['function']['name'] in stop_at:\n    return result", None),
    ("check_run_agent_until", "if stop_at & {call['function']['name']}:\n    return str(result)", None),
    ("check_run_agent_final_answer", None, s03.run_agent_final_answer),
    ("check_run_agent_final_answer", "answer = agentloop.ask(messages)['content']\n"
                                     "return f'Stopped after {max_turns} turn(s), unfinished. So far: {answer}'", None),
    # tools still listed, but tool_choice "none" forbids them: OpenAI's other way to ask for text
    ("check_run_agent_final_answer", "last = agentloop.complete(messages, tools=list(SCHEMAS.values()), "
                                     "tool_choice='none')\nreturn last['choices'][0]['message']['content'] + "
                                     "' (partial: out of turns)'", None),
    # the review's: other words for the limit, at either end of the answer
    ("check_run_agent_final_answer", "return agentloop.ask(messages)['content'] + ' [max turns reached]'", None),
    # smolagents' way: a last user message asks the model to answer from what it has; the code marks it
    ("check_run_agent_final_answer", "messages.append({'role': 'user', 'content': 'Answer now with what you have.'})\n"
                                     "return 'I reached my step limit. ' + agentloop.ask(messages)['content']", None),
    ("check_run_agent_final_answer", "return 'Warning: limit hit. ' + agentloop.ask(messages)['content']", None),
    ("check_run_agent_final_answer", "return agentloop.ask(messages)['content'] + ' (step budget exhausted)'", None),
    # review 18's: a cut-short run said with "finish"/"complete" negated, or a stop, or the turns used up
    ("check_run_agent_final_answer", "return f\"I could not finish in {max_turns} turn(s); so far: \" + agentloop.ask(messages)['content']", None),
    ("check_run_agent_final_answer", "return agentloop.ask(messages)['content'] + \" (I didn't get to finish.)\"", None),
    ("check_run_agent_final_answer", "return agentloop.ask(messages)['content'] + ' (I hit the maximum number of turns.)'", None),
    ("check_run_agent_final_answer", "return agentloop.ask(messages)['content'] + ' (I had to stop before completing the calculation.)'", None),
    ("check_run_agent_final_answer", "return 'Unable to complete this within my turns: ' + agentloop.ask(messages)['content']", None),
    ("check_run_agent_final_answer", "return agentloop.ask(messages)['content'] + f' (Note: the agent used up all {max_turns} turns; treat this with care.)'", None),
    ("check_run_agent_asking", None, s03.run_agent_asking),
    ("check_run_agent_asking", "run_tool(call) if approve(call) else 'Error: the user did not allow this call'", None),
    ("check_run_agent_asking", "(run_tool(call) if approve(call) else\n f\"Declined by the user: {call['function']['name']}\")",
     None),
    ("check_run_agent_asking", "run_tool(call) if approve(call) else 'Permission denied.'", None),
    ("check_run_agent_asking", "run_tool(call) if approve(call) else \"The user won't let me multiply.\"", None),
    ("check_run_agent_asking", "run_tool(call) if approve(call) else 'Declined.'", None),  # one word, but it says what
    ("check_run_agent_asking", "run_tool(call) if approve(call) else 'No: not run, the user said no.'", None),
    # review 17's: refusals in words the first list lacked
    ("check_run_agent_asking", "run_tool(call) if approve(call) else 'Permission withheld (by the operator).'", None),
    ("check_run_agent_asking", "run_tool(call) if approve(call) else 'Action aborted by user.'", None),
    ("check_run_agent_asking", "run_tool(call) if approve(call) else 'Call dismissed: the user objected.'", None),
    ("check_run_agent_asking", "run_tool(call) if approve(call) else 'Stopped by the user, nothing was run.'", None),
]


@pytest.mark.parametrize("check, code, reference", RIGHT, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(RIGHT)])
def test_right_answers_pass(check, code, reference, capsys):
    answer = reference or filled(check, code)
    passed, printed = verdict(getattr(lesson03, check), answer, capsys=capsys)
    assert passed, printed


WRONG = [  # (check, the hole filled wrongly, a phrase the hint must contain)
    ("check_run_agent_until", "...", "returned 'The answer is 35.', expected '35'"),
    # review 6: the API's 400 showed a random call id; the hint names the cause (a call left without its result)
    ("check_run_agent_until", "if call['function']['name'] in stop_at:\n    break",
     "asked the model again with a tool call left without its result"),
    ("check_run_agent_until", "if call['function']['name'] in stop_at:\n    result = result\n    continue",
     "asked the model again with a tool call left without its result"),
    ("check_run_agent_until", "if call['function']['name'] in stop_at:\n    return 'The answer is ' + result",
     "expected '35'"),
    # review 12: a number where the loop answers in text; the hint says it wants the string
    ("check_run_agent_until", "if call['function']['name'] in stop_at:\n    return int(result)",
     "returned 35, expected '35' (a string"),
    ("check_run_agent_final_answer", "...", "made 1 model call(s)"),
    ("check_run_agent_final_answer", "return f'Stopped: no answer after {max_turns} turns.'", "made 1 model call(s)"),
    ("check_run_agent_final_answer", "return agentloop.ask(messages, tools=list(SCHEMAS.values()))['content']",
     "the last call offered tools"),
    # review 10: tools offered in the last call, so the model asked for a tool (content None) and the student's
    # "+ ' (cut short)'" raised TypeError; the hint named the TypeError, not the cause
    ("check_run_agent_final_answer", "return agentloop.ask(messages, tools=list(SCHEMAS.values()))['content'] + "
                                     "' (I ran out of turns.)'", "the last call offered tools"),
    # the review's case: the forced answer returned bare, "The answer is 7.", with nothing to say it is cut short
    ("check_run_agent_final_answer", "return agentloop.ask(messages)['content']", "(3 + 4) * 5 is 35"),
    # the model is asked to warn, and the code trusts it to: the teaching model (like many a real one) does not
    ("check_run_agent_final_answer", "messages.append({'role': 'user', 'content': 'Out of steps: answer with what you "
                                     "have and say it may be incomplete.'})\nreturn agentloop.ask(messages)['content']",
     "a model asked to may not"),
    ("check_run_agent_final_answer", "return agentloop.ask(messages)['content'] + ' Hope that helps!'",
     "A last answer without tools can be partial or wrong"),
    ("check_run_agent_final_answer", "return agentloop.ask(messages[:2])['content']",
     "did not carry the tool results"),
    ("check_run_agent_asking", "...", "approve was never asked"),
    ("check_run_agent_asking", "run_tool(call)", "approve was asked about []"),
    ("check_run_agent_asking", "approve(call) and run_tool(call)", "expected a string"),  # False as content
    ("check_run_agent_asking", "run_tool(call) if approve(call['function']['name']) else 'Error: no'",
     "give it the whole tool call"),
    ("check_run_agent_asking", "(approve(call), run_tool(call))[1]", "a refused tool must not run"),
    # says "refused" to the model, but the tool ran anyway (its result thrown away)
    ("check_run_agent_asking", "(run_tool(call), 'Error: refused.')[approve(call) is False]", "yet it ran"),
    ("check_run_agent_asking", "run_tool(call) if approve(call) else 'None'", "that does not say the call was refused"),
    ("check_run_agent_asking", "run_tool(call) if approve(call) else str(approve(call))", "read 'False'"),
    # review finding: a bare "no" told the model nothing about the call, yet passed
    ("check_run_agent_asking", "run_tool(call) if approve(call) else 'no'", "read 'no'"),
    ("check_run_agent_asking", "run_tool(call) if approve(call) else 'No.'", "read 'No.'"),
    ("check_run_agent_asking", "run_tool(call) if approve(call) else 'not'", "read 'not'"),
    ("check_run_agent_asking", "run_tool(call) if approve(call) else ''", "read ''"),
    # review 6: a refused call skipped (no tool message) showed the API's 400 and `<...Approver object at 0x...>`
    ("check_run_agent_asking", "run_tool(call) if approve(call) else None\nif result is None:\n    continue",
     "without a tool message for that call"),
    ("check_run_agent_asking", "run_tool(call) if approve(call) else None\nif result is None:\n    break",
     "without a tool message for that call"),
]


@pytest.mark.parametrize("check, code, hint", WRONG, ids=[f"{c}-{i}" for i, (c, _, _) in enumerate(WRONG)])
def test_wrong_answers_fail_with_a_true_hint(check, code, hint, capsys):
    passed, printed = verdict(getattr(lesson03, check), filled(check, code), capsys=capsys)
    assert not passed and printed.startswith("❌"), printed
    assert hint in printed, printed
    assert "Fix:" not in printed and "Traceback" not in printed
    assert " object at 0x" not in printed, printed  # a hint reads as plain words


def test_a_hint_names_the_approver_it_passed_as_approve(capsys):
    """A loop that raises shows the call it was given, approve among its arguments, as words."""
    passed, printed = verdict(lesson03.check_run_agent_asking,
                              filled("check_run_agent_asking", "run_tool(call) if approve(call) else 1 / 0"),
                              capsys=capsys)
    assert not passed and "run_agent_asking('What is (3 + 4) * 5?', approve) raised ZeroDivisionError" in printed, printed


def refuse_by_ending_the_run(question, approve, max_turns=5):
    """Stops at the first refusal instead of telling the model."""
    messages = [{"role": "system", "content": s03.SYSTEM}, {"role": "user", "content": question}]
    for turn in range(max_turns):
        message = s03.agentloop.ask(messages, tools=list(s03.SCHEMAS.values()))
        messages.append(message)
        if not message.get("tool_calls"):
            return message["content"]
        for call in message["tool_calls"]:
            if not approve(call):
                return "Cancelled."
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": s03.run_tool(call)})


def test_a_refusal_that_ends_the_run_is_not_a_result(capsys):
    passed, printed = verdict(lesson03.check_run_agent_asking, refuse_by_ending_the_run, capsys=capsys)
    assert not passed and "without telling the model" in printed, printed


def test_every_check_needs_the_model():
    """A run that never calls the model cannot pass, whatever it returns."""
    for check, answer in ((lesson03.check_run_agent_until, lambda q, stop_at, max_turns=5: {"multiply": "35",
                           "add": "7"}.get(min(stop_at, default=""), "The answer is 35.")),
                          (lesson03.check_run_agent_final_answer, lambda q, max_turns=5: "(3 + 4) * 5 = 35"),
                          (lesson03.check_run_agent_asking, lambda q, approve, max_turns=5: "The answer is 35.")):
        assert not check(answer)


def test_a_second_failure_adds_the_fix(capsys):
    answer = filled("check_run_agent_final_answer", "...")
    first = verdict(lesson03.check_run_agent_final_answer, answer, capsys=capsys)[1]
    second = verdict(lesson03.check_run_agent_final_answer, answer, capsys=capsys)[1]
    assert second.startswith(first.rstrip("\n") + " Fix: ") and "agentloop.ask(messages)" in second
