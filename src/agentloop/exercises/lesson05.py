"""Lesson 5 exercises: the loop reports a progress line after every model call, and a budget stops a run."""
import contextlib
import inspect
import io
import re

from .. import trace
from ..checks import Hint, attempt, exercise, expect

QUESTION = "What is (3 + 4) * 5?"  # three model calls with the lesson's tools: add, multiply, answer


def _new_state(function=None) -> dict:
    """A fresh state for the run: the notebook's own new_state() where the student's function can see one."""
    made = getattr(function, "__globals__", {}).get("new_state")
    try:
        state = made() if callable(made) else None
    except Exception:
        state = None
    return state if isinstance(state, dict) else {"model_calls": 0, "tool_calls": 0, "prompt_tokens": 0,
                                                  "completion_tokens": 0}


class _Lines(io.TextIOBase):
    """What the student's loop prints, line by line, each with the number of model calls made when it was printed."""

    def __init__(self, start: int):
        self.start, self.lines, self.partial = start, [], ""

    def write(self, text) -> int:
        self.partial += str(text)
        *done, self.partial = self.partial.split("\n")
        made = sum(event.kind == "response" for event in trace.events[self.start:])
        self.lines += [(line, made) for line in done]
        return len(str(text))

    def close_lines(self) -> list:
        return self.lines + ([(self.partial, self.lines[-1][1] if self.lines else 0)] if self.partial.strip() else [])


def _run(function, *args, **kwargs):
    """(what the student's loop returned, the lines it printed with the model calls made by then, the model
    calls' (tool calls, prompt tokens, completion tokens))."""
    start = len(trace.events)
    printed = _Lines(start)
    with contextlib.redirect_stdout(printed):  # the check prints one line; the loop's lines are read, not shown
        got = attempt(function, *args, **kwargs)
    calls = [e.payload for e in trace.events[start:] if e.kind == "response"]
    made = []
    for response in calls:
        usage = response.get("usage") or {}
        message = ((response.get("choices") or [{}])[0]).get("message") or {}
        made.append((len(message.get("tool_calls") or []), usage.get("prompt_tokens", 0),
                     usage.get("completion_tokens", 0)))
    return got, printed.close_lines(), made


def _numbers(line: str) -> list:
    """The whole numbers a line shows ("1,341 tokens" is 1341)."""
    return [int(n) for n in re.findall(r"\d+", re.sub(r"(?<=\d)[,_](?=\d{3})", "", line))]


def _labelled(line: str, label: str):
    """The number a line gives next to `label`: after it with a sign ("tools=2", "tools used: 0"), before it
    ("3 model calls") or just after it ("model call #3"), or None. The sign comes first: in "calls=3 tools=2" the
    3 is the calls'."""
    line = re.sub(r"(?<=\d)[,_](?=\d{3})", "", line)
    found = (re.search(rf"(?:{label})(?:\s+[a-z]+)?\s*[:=#]\s*(\d+)", line, re.IGNORECASE)
             or re.search(rf"(\d+)\s*(?:{label})", line, re.IGNORECASE)
             or re.search(rf"(?:{label})\W{{0,3}}(\d+)", line, re.IGNORECASE))
    return int(found[1]) if found else None


MODEL_CALLS = r"(?:model|llm|api)[ _]calls?\b|(?<!tool )(?<!tool_)\bcalls?\b|\bturns?\b|\brequests?\b|\bsteps?\b|\brounds?\b"
TOOL_CALLS = r"\btools?(?:[ _]calls?)?\b"
TOKENS = r"\btokens?\b"


def _so_far(made: list) -> list:
    """For each model call, the counts a progress line printed after it can show: model calls, tool calls (before
    that call's tools ran, and after), tokens (prompt + completion, each also alone)."""
    counts, tools, prompt, completion = [], 0, 0, 0
    for number, (called, prompt_tokens, completion_tokens) in enumerate(made, 1):
        prompt, completion = prompt + prompt_tokens, completion + completion_tokens
        counts.append({"calls": number, "tools": (tools, tools + called), "tokens": prompt + completion,
                       "prompt": prompt, "completion": completion})
        tools += called
    return counts


def _reports(line: str, count: dict) -> bool:
    """The line shows, in any words, the model calls so far, and the tokens so far or the tool calls so far; any
    count it labels is right."""
    numbers = set(_numbers(line))
    calls, tools, tokens = (_labelled(line, label) for label in (MODEL_CALLS, TOOL_CALLS, TOKENS))
    labels_right = (calls in (None, count["calls"]) and tools in (None, *count["tools"])
                    and tokens in (None, count["tokens"], count["prompt"], count["completion"]))
    spent = count["tokens"] in numbers or {count["prompt"], count["completion"]} <= numbers
    return count["calls"] in numbers and labels_right and (spent or tools is not None)


def _step_param(function) -> str:
    """The parameter that takes the progress callback: `on_step`, or under another name the last one that
    defaults to None."""
    try:
        params = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return "on_step"
    if "on_step" in params:
        return "on_step"
    optional = [name for name, param in params.items() if param.default is None]
    return optional[-1] if optional else "on_step"


class _Heard:
    """A callback that keeps what the loop reports, each with the number of model calls made and of tools run (the
    agent's TOOLS, counted through `counting`) when it came."""

    def __init__(self, start: int):
        self.start, self.lines, self.not_a_line, self.ran = start, [], None, 0

    def counting(self, tool):
        def counted(*args, **kwargs):
            self.ran += 1
            return tool(*args, **kwargs)
        return counted

    def __call__(self, *args, **kwargs):
        made = sum(event.kind == "response" for event in trace.events[self.start:])
        said = [*args, *kwargs.values()]
        if any(isinstance(value, dict) for value in said):
            self.not_a_line = "the state dict"
        elif not said:
            self.not_a_line = "nothing"
        self.lines.append((" ".join(str(value) for value in said), made, self.ran))


@exercise("5.1 A progress line while it works")
def check_progress_line(run_agent_live):
    try:
        got, _, made = _run(run_agent_live, QUESTION, [], _new_state(run_agent_live))
    except Hint as raised:
        error = raised.hint.rsplit(" raised ", 1)[-1]
        expect("NoneType" not in error,
               f"called without a callback, as every cell above calls the loop, your loop raised {error}: "
               "report only when the caller gave one.", fix="if on_step is not None: on_step(progress(state))")
        raise
    expect(made, f"run_agent_live({QUESTION!r}, ...) made no model call: it is the lesson's loop, with one more line.")
    expect(got == "The answer is 35.", f"run_agent_live({QUESTION!r}, ...) returned {got!r}, not 'The answer is 35.': "
                                       "the loop should answer as run_agent does.")
    param = _step_param(run_agent_live)
    tools = getattr(run_agent_live, "__globals__", {}).get("TOOLS")
    for question in (QUESTION, MANY_TOOLS):
        heard = _Heard(len(trace.events))
        kept = dict(tools) if isinstance(tools, dict) else {}
        # the agent's tools, counted while they run: a line must come before its call's tools run
        tools_counted = {name: heard.counting(tool) for name, tool in kept.items() if callable(tool)}
        try:
            if kept:
                tools.update(tools_counted)
            got, _, made = _run(run_agent_live, question, [], _new_state(run_agent_live), **{param: heard})
        finally:
            if kept:
                tools.update(kept)
        expect(heard.lines, f"with {param}= given, the run made {len(made)} model calls and never called it: "
                            f"after each model call, give {param} the progress line.",
               fix=f"right after the three state[...] += lines: if {param} is not None: {param}(progress(state))")
        expect(heard.not_a_line is None,
               f"{param} was given {heard.not_a_line}, not the line: with {param}=print the user would see "
               "that, not 'Called 1 tools, 2 model calls, 1040 tokens'. Give it the line, progress(state).")
        expect(len(heard.lines) == len(made),
               f"on {question!r} the run made {len(made)} model calls and reported {len(heard.lines)} progress lines: "
               "one after each model call, the last one (the answer, which leaves the loop) included.",
               fix=f"call {param}(progress(state)) right after the three state[...] += lines, before the `if ... break`.")
        for (line, at, ran), count in zip(heard.lines, _so_far(made)):
            number, (before, after) = count["calls"], count["tools"]
            expect(_reports(line, count),
                   f"on {question!r}, after model call {number} you reported {line.strip()!r}; the trace shows {number} "
                   f"model calls, {before} tool calls before it ({after} with its own) and {count['tokens']} tokens "
                   f"so far ({count['prompt']} prompt + {count['completion']} completion). A progress line shows the "
                   "model calls so far, with the tokens or the tool calls, in any words.",
                   fix=f"report once the state has counted the call (after the three state[...] += lines): "
                       f"{param}(progress(state)).")
            expect(at == number,
                   f"the progress line for model call {number} ({line.strip()!r}) came when {at} model calls had "
                   "been made: report each one as soon as its call is counted, so the user sees it while the run "
                   "goes on.", fix=f"call {param}(progress(state)) inside the loop, right after the three "
                                   "state[...] += lines.")
            expect(not kept or ran == before,
                   f"the progress line for model call {number} ({line.strip()!r}) came after that call's tools had "
                   "run: a tool can take long (a search, a download), and the user should see the line while it "
                   "works. Report as soon as the call is counted, before its tools run.",
                   fix=f"call {param}(progress(state)) right after the three state[...] += lines, before the `if ... break`.")


MANY_TOOLS = "the sum of 1, 2, 3 and 4"  # add three times: a count above one


def _usages(start: int) -> list:
    """(prompt, completion) tokens of each model call the trace recorded since `start`."""
    usages = [event.payload.get("usage") or {} for event in trace.events[start:] if event.kind == "response"]
    return [(usage.get("prompt_tokens", 0), usage.get("completion_tokens", 0)) for usage in usages]


def _allowed(costs: list, budget: int, spent: int) -> int:
    """The oracle: model calls a run may make, each one only while the tokens spent are under the budget."""
    made = 0
    for cost in costs:
        if spent >= budget:
            break
        spent, made = spent + cost, made + 1
    return made


@exercise("5.2 Stop mid-run at a token budget")
def check_run_agent_within(run_agent_within):
    start, state = len(trace.events), _new_state(run_agent_within)
    got, _, _ = _run(run_agent_within, QUESTION, [], state, 10**6)
    usages = _usages(start)
    costs = [prompt + completion for prompt, completion in usages]
    expect(got == "The answer is 35.", f"with a budget of 1000000 tokens run_agent_within({QUESTION!r}, ...) returned "
                                       f"{got!r}: with room to spare it answers as run_agent does.")
    expect(costs, "run_agent_within made no model call: it is run_agent's loop, with one more rule.")
    counted = {"model_calls": len(costs), "tokens": sum(costs)}
    calls = state.get("model_calls", state.get("turns"))  # the notebook's name for it, or lesson 5's older one
    expect({"model_calls": calls, "tokens": state["prompt_tokens"] + state["completion_tokens"]} == counted,
           f"after that run the state is {state}, but the trace shows {len(costs)} model calls and "
           f"{sum(costs)} tokens.", fix="count into the state you were given, as run_agent does (its three "
                                    "state[...] += lines after each agentloop.complete).")
    prompt = usages[0][0]  # the first call's prompt tokens alone
    for budget, spent in ((1, 0), (costs[0], 0), (prompt + 1, 0), (costs[0] + 1, 0), (2000, 2299)):
        state = dict(_new_state(run_agent_within), prompt_tokens=spent)
        start = len(trace.events)
        got, _, _ = _run(run_agent_within, QUESTION, [], state, budget)
        made, expected = len(_usages(start)), _allowed(costs, budget, spent)
        expect(made == expected, f"with a budget of {budget} tokens, {spent} of them spent before the run, "
                                 f"your run made {made} model calls, expected {expected}: no model call once "
                                 "the tokens spent reach the budget.",
               fix="at the marked line, before agentloop.complete: if state['prompt_tokens'] + "
                   "state['completion_tokens'] >= budget, return the message (prompt and completion tokens "
                   "both count, and reaching the budget is enough).")
        if expected < len(costs):
            expect(_says_budget_stop(got),
                   f"stopped by a budget of {budget}, run_agent_within returned {got!r}: tell the user why it stopped "
                   "(the token budget), in any words.",
                   fix=f"return a message that names the budget, e.g. 'Stopped: the budget of {budget} tokens is spent.'")
            expect(_names_figure(got, budget),
                   f"stopped by a budget of {budget}, run_agent_within returned {got!r}, which does not say how big "
                   "the budget was: name it, so the user knows what ran out and can raise it.",
                   fix="put the budget parameter in the message: f'Stopped: the budget of {budget} tokens is spent.'")


# A stop for the budget, in any words: "Stopped: the budget of 1 tokens is spent.", "Budget exhausted
# (1 tokens); pausing.", "Out of budget: 1 tokens used up.", "Token limit reached, stopping here."
_WHY = re.compile(r"budget|tokens?\b|limit", re.IGNORECASE)
_STOPPED = re.compile(r"stop|paus|halt|exhaust|used up|out of|ran out|run out|spent|reached|hit|exceed|"
                      r"over|no more|can(?:no|')t continue|end", re.IGNORECASE)


def _says_budget_stop(reply) -> bool:
    """The reply tells the user the run stopped because of the token budget (not the turn limit)."""
    if not isinstance(reply, str) or not (_WHY.search(reply) and _STOPPED.search(reply)):
        return False
    return bool(re.search(r"budget|token", reply, re.IGNORECASE)) or "turn" not in reply.lower()


def _names_figure(reply: str, number) -> bool:
    """`number` is written in the reply as a figure of its own (1000, 1,000 or 1_000; not inside 21000)."""
    figures = {str(number), f"{number:,}", f"{number:_}"} if isinstance(number, int) else {str(number)}
    return any(re.search(rf"(?<![\d,_]){re.escape(figure)}(?![\d,_]|\.\d)", reply) for figure in figures)
