"""Lesson 5 exercises: a progress line that says what each tool did, shown call by call, and a budget that stops a run."""
import contextlib
import io
import re

from .. import trace
from ..checks import attempt, exercise, expect

QUESTION = "What is (3 + 4) * 5?"  # three model calls with the lesson's tools: add, multiply, answer


def _new_state(function=None) -> dict:
    """A fresh state for the run: the notebook's own new_state() where the student's function can see one."""
    made = getattr(function, "__globals__", {}).get("new_state")
    try:
        state = made() if callable(made) else None
    except Exception:
        state = None
    return state if isinstance(state, dict) else {"turns": 0, "tool_calls": 0, "prompt_tokens": 0,
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


def _run(function, *args):
    """(what the student's loop returned, the lines it printed with the model calls made by then, the model
    calls' (tool calls, prompt tokens, completion tokens))."""
    start = len(trace.events)
    printed = _Lines(start)
    with contextlib.redirect_stdout(printed):  # the check prints one line; the loop's lines are read, not shown
        got = attempt(function, *args)
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
    """The number a line gives next to `label`: before it ("3 model calls") or just after it ("tool calls: 2",
    "model call #3"), or None."""
    line = re.sub(r"(?<=\d)[,_](?=\d{3})", "", line)
    found = (re.search(rf"(\d+)\s*(?:{label})", line, re.IGNORECASE)
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


def _looks_like_progress(line: str, counts: list) -> bool:
    """A line that means to show progress: it speaks of model calls or tokens, or shows a token count of the run."""
    numbers = set(_numbers(line))
    return bool(numbers) and (bool(re.search(rf"{MODEL_CALLS}|{TOKENS}|\bmodel\b", line, re.IGNORECASE))
                              or any({c["tokens"], c["prompt"]} & numbers for c in counts))


def _reports(line: str, count: dict) -> bool:
    """The line shows, in any words, the model calls so far, and the tokens so far or the tool calls so far; any
    count it labels is right."""
    numbers = set(_numbers(line))
    calls, tools, tokens = (_labelled(line, label) for label in (MODEL_CALLS, TOOL_CALLS, TOKENS))
    labels_right = (calls in (None, count["calls"]) and tools in (None, *count["tools"])
                    and tokens in (None, count["tokens"], count["prompt"], count["completion"]))
    spent = count["tokens"] in numbers or {count["prompt"], count["completion"]} <= numbers
    return count["calls"] in numbers and labels_right and (spent or tools is not None)


COUNT_WORDS = {"once": 1, "twice": 2, "thrice": 3}


def _used_so_far(start: int) -> list:
    """For each model call of the run, the tool calls by name made before it, and those with its own."""
    used, out = {}, []
    for event in trace.events[start:]:
        if event.kind == "response":
            message = ((event.payload.get("choices") or [{}])[0]).get("message") or {}
            before = dict(used)
            for call in message.get("tool_calls") or []:
                name = (call.get("function") or {}).get("name")
                used[name] = used.get(name, 0) + 1
            out.append((before, dict(used)))
    return out


def _said(line: str, word: str):
    """How many times the line says a tool did its work: the count just after its word ("added 2 times",
    "added twice", "added 2x", "add x2", "add: 2", "add (2)", "add called 2 times") or just before it ("2× add"); None when the word is not there, -1 when
    it is there with no count."""
    if not re.search(rf"(?<!\w){re.escape(word)}(?!\w)", line, re.IGNORECASE):
        return None
    count = rf"(\d+|{'|'.join(COUNT_WORDS)})"
    found = (re.search(rf"(?<!\w){re.escape(word)}(?!\w)(?:\s+(?:called|used|ran|run))?[\s:=×(]{{0,3}}(?:x\s*)?{count}"
                       rf"(?:\s*[x×])?(?!\w)", line, re.IGNORECASE)
             or re.search(rf"(?<!\w){count}\s*(?:x|×|times?)?\s*{re.escape(word)}(?!\w)", line, re.IGNORECASE))
    if not found:
        return -1
    return COUNT_WORDS.get(found[1].lower()) or int(found[1])


def _tells_tools(line: str, before: dict, after: dict, words: dict) -> str | None:
    """Why the line does not tell each tool used so far with its count (None if it does). A tool is told by its
    word in the student's DONE table, or by its own name."""
    for name in sorted(set(words) | set(after)):
        said = [n for n in (_said(line, words.get(name) or name), _said(line, name)) if n is not None]
        done = {before.get(name, 0), after.get(name, 0)}
        if not said:
            if before.get(name, 0):  # this call's own tools may not have run yet when its line prints
                return f"it does not say that {name} ran (as {words.get(name) or name!r})"
            continue
        if all(n == -1 for n in said):
            return f"it names {words.get(name) or name!r} but not how many times"
        if not any(n in done for n in said):
            return f"it says {words.get(name) or name!r} {max(said)} times, but {name} ran {after.get(name, 0)} times"
    return None


@exercise("5.1 Say what was done, call by call")
def check_live_progress(run_agent_live):
    got, printed, made = _run(run_agent_live, QUESTION, [], _new_state(run_agent_live))
    expect(made, f"run_agent_live({QUESTION!r}, ...) made no model call: it is the lesson's loop, with one more line.")
    expect(got == "The answer is 35.", f"run_agent_live({QUESTION!r}, ...) returned {got!r}, not 'The answer is 35.': "
                                       "the loop should answer as run_agent does.")
    counts = _so_far(made)
    lines = [(line, at) for line, at in printed if _looks_like_progress(line, counts)]
    expect(lines or not any(line.strip() == "None" for line, _ in printed),
           "your loop printed None: progress_by_tool(state) returns nothing yet. Return the line (a string).",
           fix="return f\"{done} · {progress(state)}\", with done the tools' words and counts.")
    expect(lines, f"the run made {len(made)} model calls and printed no progress line (the model calls so far, with "
                  "the tokens or the tool calls): print progress_by_tool(state) inside the loop.",
           fix="print(progress_by_tool(state)) right after the three state lines.")
    expect(len(lines) == len(made),
           f"the run made {len(made)} model calls and printed {len(lines)} progress lines: one after each model call, "
           "the last one (the answer, which leaves the loop) included.",
           fix="print(progress_by_tool(state)) right after the three state[...] += lines, before the `if ... break`.")
    for (line, at), count in zip(lines, counts):
        number, (before, after) = count["calls"], count["tools"]
        expect(_reports(line, count),
               f"after model call {number} you printed {line.strip()!r}; the trace shows {number} model calls, "
               f"{before} tool calls before it ({after} with its own) and {count['tokens']} tokens so far "
               f"({count['prompt']} prompt + {count['completion']} completion). A progress line shows the model "
               "calls so far, with the tokens or the tool calls, in any words.",
               fix="print once the state has counted the call (after the three state[...] += lines).")
        expect(at == number,
               f"the progress line for model call {number} ({line.strip()!r}) was printed when {at} model calls had "
               "been made: print each one as soon as its call is counted, so the user sees it while the run goes on.",
               fix="print(progress_by_tool(state)) inside the loop, right after the three state[...] += lines.")
    words = getattr(run_agent_live, "__globals__", {}).get("DONE")
    words = {k: v for k, v in words.items() if isinstance(v, str)} if isinstance(words, dict) else {}
    for question in (QUESTION, MANY_TOOLS):
        start = len(trace.events)
        got, printed, made = _run(run_agent_live, question, [], _new_state(run_agent_live))
        counts = _so_far(made)
        lines = [line for line, _ in printed if _looks_like_progress(line, counts)]
        expect(len(lines) == len(made), f"on {question!r} the run made {len(made)} model calls and printed "
                                        f"{len(lines)} progress lines: one after each model call.")
        for number, (line, (before, after)) in enumerate(zip(lines, _used_so_far(start)), 1):
            wrong = _tells_tools(line, before, after, words)
            expect(wrong is None,
                   f"on {question!r}, after model call {number} you printed {line.strip()!r}: {wrong}. The line "
                   "tells what was done, tool by tool, with how many times so far.",
                   fix="count each call in state['used'][name], then progress_by_tool(state) joins "
                       "f\"{DONE.get(name, name)} {times} times\" for each tool in state['used'].")


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
    counted = {"turns": len(costs), "tokens": sum(costs)}
    calls = state.get("turns", state.get("model_calls"))  # the notebook's name for the count of model calls
    expect({"turns": calls, "tokens": state["prompt_tokens"] + state["completion_tokens"]} == counted,
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
