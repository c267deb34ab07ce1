"""Lesson 3 exercises: three changes to the loop, each made in a skeleton of it: stop at a tool,
one last answer when the turns run out, and a tool call the user declines turned into a result."""
import contextlib
import re

from .. import trace
from ..checks import Hint, attempt, exercise, expect

QUESTION = "What is (3 + 4) * 5?"  # add, then multiply: three model calls when the loop runs to the end


def calls_made(start: int) -> list:
    """The requests (payloads) sent to the model since trace event `start`."""
    return [event.payload for event in trace.events[start:] if event.kind == "request"]


def last_reply(start: int):
    replies = [event.payload for event in trace.events[start:] if event.kind == "response"]
    return replies[-1]["choices"][0]["message"].get("content") if replies else None


# What the API answers (400) to a request whose assistant message has a tool call no tool message answers.
UNANSWERED = "did not have response messages"


@contextlib.contextmanager
def _answered_or(hint: str, fix: str):
    """For a `with` block running the student's loop: a 400 for a tool call left unanswered becomes `hint` (its
    {refused} says what the API did), which names the cause in the exercise's terms; the API's message shows
    only a random call id."""
    try:
        yield
    except Hint as raised:
        if UNANSWERED in raised.hint:
            raise Hint(hint.replace("{refused}", "the API refused it (400: every tool call in a request needs its "
                                                 "tool message)"), fix) from None
        raise


@exercise("3.1 Stop at a tool")
def check_run_agent_until(run_agent_until):
    for stop_at, expected, calls in (({"multiply"}, "35", 2), ({"add"}, "7", 1), (set(), "The answer is 35.", 3)):
        start = len(trace.events)
        with _answered_or(f"with stop_at={stop_at} your loop asked the model again with a tool call left without "
                          "its result, and {refused}. Once a stop_at tool has run, its result is the answer.",
                          "right after result = run_tool(call): if call['function']['name'] in stop_at: return result."):
            got = attempt(run_agent_until, QUESTION, stop_at)
        made = len(calls_made(start))
        as_text = " (a string: the loop answers in text, as run_tool returns it)" if str(got) == expected != got else ""
        expect(got == expected, f"run_agent_until({QUESTION!r}, stop_at={stop_at}) returned {got!r}, expected "
                                f"{expected!r}{as_text}: when the model calls a tool named in stop_at, its result is the answer.",
               fix="right after result = run_tool(call): if call['function']['name'] in stop_at: return result.")
        expect(made == calls, f"with stop_at={stop_at} the loop made {made} model calls, expected {calls}: "
                              "once a stop_at tool has run, the model is not asked again.",
               fix="return the tool's result inside the loop, before the next agentloop.ask.")
    got = attempt(run_agent_until, "Hello!", {"add"})
    expect(isinstance(got, str) and got.startswith("Hello"),
           f"run_agent_until('Hello!', stop_at={{'add'}}) returned {got!r}: with no tool call the model's text is the answer.",
           fix="leave the skeleton's `return message['content']` as it is.")


# Words that tell the user a forced last answer may not be the whole story: "may be incomplete", "I ran out of
# turns", "stopped after 1 turn", "partial", "not finished", "unverified", "might be wrong".
CUT_SHORT = re.compile(r"\b(?:incomplete|unfinished|partial(?:ly)?|unverified|ran out|out of (?:turns|steps)|"
                       r"stopped|cut short|not (?:be )?(?:finished|complete|done|verified)|(?:may|might|could) be "
                       r"(?:wrong|off)|limits?|max(?:imum)?[ _](?:turns?|steps?)|truncated|exhausted|gave up|"
                       r"giving up|warning|interrupted|reached|had to stop|stop(?:ped)? (?:early|before)|"
                       r"(?:not|never|\w+n't|unable to|failed to|before)\s+(?:\w+\s+){0,2}?(?:finish|complet)\w*|"
                       r"(?:hit|used up|exceeded|over) (?:the |my |a |all )?(?:\d+ )?(?:max\w*|limit|number of (?:turns|steps)|turns|steps))\b", re.IGNORECASE)


def offered_tools(last_calls, because=""):
    """The hint when the call after the loop offered tools: the model may ask for a tool, and its content is None."""
    final = last_calls[-1] if last_calls else {}
    expect(not final.get("tools") or final.get("tool_choice") == "none",
           because + "the last call offered tools, so the model asked for one more tool instead of answering "
           "(its content is None).", fix="call agentloop.ask(messages) without tools=... after the loop.")


@exercise("3.2 Out of turns, one last answer")
def check_run_agent_final_answer(run_agent_final_answer):
    start = len(trace.events)
    try:
        got = attempt(run_agent_final_answer, QUESTION, max_turns=1)
    except Hint as crash:
        offered_tools(calls_made(start)[1:], because=f"{crash}: ")
        raise
    sent = calls_made(start)
    expect(len(sent) >= 2, f"with max_turns=1 it made {len(sent)} model call(s) and returned {got!r}: when the turns "
                           "run out, ask the model once more for an answer.",
           fix="after the for loop: message = agentloop.ask(messages); return its content, with words that say the "
               "run was cut short.")
    expect(len(sent) == 2, f"with max_turns=1 it made {len(sent)} model calls; one turn, then one last call, is 2.",
           fix="one agentloop.ask after the for loop, not a loop of them.")
    offered_tools(sent[-1:])
    final = sent[-1]
    expect(any(m.get("role") == "tool" for m in final["messages"]),
           "the last call did not carry the tool results: the model must answer from what the tools found.",
           fix="send the same messages list the loop built (it holds the tool results).")
    reply = last_reply(start)
    expect(isinstance(got, str) and isinstance(reply, str) and reply in got,
           f"it returned {got!r}; the model's last reply was {reply!r}.",
           fix="return message['content'] of that last call, with a word for the user that it may be incomplete.")
    prompted = final["messages"][-1].get("role") == "user"  # a last message of its own, as smolagents sends
    expect(CUT_SHORT.search(got.replace(reply, "")),
           f"it returned {got!r}, and (3 + 4) * 5 is 35: out of turns after add, the model answered from what it had. "
           + ("Your last message asked the model to answer (smolagents does too), but its reply does not say the run "
              "was cut short, and a model asked to may not: add those words in your code (any words)."
              if prompted else
              "A last answer without tools can be partial or wrong, so tell the user the run was cut short (any words)."),
           fix='return f"{message[\'content\']} (I ran out of turns, so this may be incomplete.)"')
    start = len(trace.events)
    got = attempt(run_agent_final_answer, QUESTION, max_turns=5)
    made = len(calls_made(start))
    expect(got == "The answer is 35." and made == 3,
           f"with max_turns=5 it made {made} model calls and returned {got!r}; a run that finishes in its turns "
           "needs no extra call (3 calls, 'The answer is 35.').",
           fix="only the code after the for loop changes: a run that answers returns inside the loop.")


class Approver:
    """The user's side of 3.3: says no to the tools in `refused`, and notes what it was asked."""

    def __init__(self, refused=()):
        self.refused, self.asked, self.calls = set(refused), [], 0

    def __repr__(self) -> str:  # how a hint shows the call it was passed to: run_agent_asking('...', approve)
        return "approve"

    def __call__(self, call):
        self.calls += 1
        if not (isinstance(call, dict) and isinstance(call.get("function"), dict)):
            raise Hint(f"approve was given {call!r}; give it the whole tool call (approve(call)), "
                       "as the model sent it.")
        self.asked.append(call["function"]["name"])
        return call["function"]["name"] not in self.refused


# Words that tell the model a call did not run: "Error: the user did not allow multiply", "Declined",
# "refused", "not approved", "Permission denied", "the user said no", "blocked", "skipped", "withheld", "aborted"...
REFUSAL = re.compile(r"\b(?:not|no|never|without|refus\w*|declin\w*|den(?:y|ied)|reject\w*|disallow\w*|"
                     r"forbid\w*|block\w*|cancel\w*|skip\w*|veto\w*|unapproved|unauthori[sz]ed|withh[eo]ld\w*|abort\w*|"
                     r"dismiss\w*|object(?:ed|s|ion)|halt\w*|stopped|prevent\w*|nothing)\b|n't\b",
                     re.IGNORECASE)
BARE = {"no", "not", "nope", "nah", "never", "none", "nothing", "n't"}  # a negation alone says nothing about what was refused


def says_refused(result) -> bool:
    """The words of a refused call's result tell the model the call did not run (any wording, but not a bare "no")."""
    if not isinstance(result, str) or not REFUSAL.search(result):
        return False
    return not set(re.findall(r"[a-z']+", result.lower())) <= BARE


class Watched:
    """For a `with` block: the tool `name` in the student's TOOLS counts its runs (in `runs`)."""

    def __init__(self, function, name: str):
        tools = getattr(function, "__globals__", {}).get("TOOLS")
        self.tools = tools if isinstance(tools, dict) and callable(tools.get(name)) else None
        self.name, self.runs = name, 0

    def __enter__(self):
        if self.tools is not None:
            self.original = self.tools[self.name]

            def counted(*args, **kwargs):
                self.runs += 1
                return self.original(*args, **kwargs)
            self.tools[self.name] = counted
        return self

    def __exit__(self, *exc):
        if self.tools is not None:
            self.tools[self.name] = self.original


@exercise("3.3 Ask before acting")
def check_run_agent_asking(run_agent_asking):
    approve = Approver()
    try:
        got = attempt(run_agent_asking, QUESTION, approve)
    except Hint as hint:  # e.g. a result left as `...`, which cannot be sent: say what is missing first
        expect(approve.calls, "approve was never asked: every tool call needs the user's yes before it runs.",
               fix="result = run_tool(call) if approve(call) else 'Error: ...', inside the for loop over tool calls.")
        raise hint
    expect(approve.asked == ["add", "multiply"], f"approve was asked about {approve.asked}; the model called add, "
                                                 "then multiply: ask before each call runs.",
           fix="result = run_tool(call) if approve(call) else 'Error: ...', inside the for loop over tool calls.")
    expect(got == "The answer is 35.", f"with every call approved it returned {got!r}, expected 'The answer is 35.'.")
    approve, start = Approver(refused={"multiply"}), len(trace.events)
    with Watched(run_agent_asking, "multiply") as multiply, _answered_or(
            "when multiply was refused, your loop sent the next request without a tool message for that call, and "
            "{refused}: a refusal is a result the model reads, like a tool's error.",
            "for a refused call, result = f\"Error: the user did not allow {call['function']['name']}.\" and "
            "append it like any result."):
        got = attempt(run_agent_asking, QUESTION, approve)
    sent = calls_made(start)
    answers = {m.get("tool_call_id"): m.get("content") for request in sent for m in request["messages"]
               if m.get("role") == "tool"}
    refused = [call["id"] for request in sent for m in request["messages"] if m.get("role") == "assistant"
               for call in m.get("tool_calls") or [] if call["function"]["name"] == "multiply"]
    expect(refused and refused[0] in answers,
           f"when multiply was refused, the run ended ({got!r}) without telling the model: a refusal is a result "
           "the model reads, like a tool's error.",
           fix="for a refused call, result = f\"Error: the user did not allow {call['function']['name']}.\" and "
               "append it like any result.")
    said = answers[refused[0]]
    expect(not multiply.runs and (not isinstance(said, str) or "35" not in said),
           f"multiply was refused, yet it ran (its result came back as {said!r}): a refused tool must not run.",
           fix="call run_tool(call) only when approve(call) is true.")
    expect(says_refused(said),
           f"multiply was refused and the model read {said!r} as its result: that does not say the call was "
           "refused, so the model may take it for the tool's answer. Say so in the result.",
           fix="result = f\"Error: the user did not allow {call['function']['name']}.\"")
    expect(got == last_reply(start), f"it returned {got!r}; the model answered {last_reply(start)!r} after the refusal.",
           fix="keep the loop going after a refusal: the model's next reply is the answer.")
