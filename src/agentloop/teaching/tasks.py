"""Skills that do things: arithmetic, text tools, weather, time, scheduling, research."""
import re

from . import arithmetic as maths
from . import facts
from .skills import Reply, Turn, call, quoted


def arithmetic(turn: Turn):
    expression = maths.find_expression(turn.text)
    if expression is None:
        return None
    shown = expression[1:-1] if expression.startswith("(") and expression.endswith(")") else expression
    calculator = turn.tool("calculate")
    if calculator and not any(turn.tool(k) for k in ("add", "subtract", "multiply", "divide")):
        if not turn.results:
            return call(calculator, expression=shown)
        return Reply(f"{shown} = {turn.results[-1].strip()}")
    tools = {kind: turn.tool(kind) for kind in ("add", "subtract", "multiply", "divide") if turn.tool(kind)}
    try:
        step = maths.plan(expression, tools, turn.results)
    except maths.ToolFailed as failure:
        return Reply(f"The tool failed with: {failure}. So I can't finish the calculation.")
    except ZeroDivisionError:
        return Reply("That divides by zero, which has no answer.")
    if step[0] == "call":
        _, kind, a, b = step
        return call(tools[kind], numbers=[a, b])
    return Reply(f"{shown} = {maths.show(step[1])}" if not turn.results else f"The answer is {maths.show(step[1])}.")


def count_letter(turn: Turn):
    match = re.search(r"how many (?:times does )?(?:the letter )?[\"']?([a-z])[\"']?(?:'s|s)?\b.*?"
                      r"\bin (?:the word )?[\"']?([a-z]+)", turn.text, re.IGNORECASE)
    if not match:
        return None
    letter, word = match.group(1).lower(), match.group(2)
    tool = turn.tool("count_letter")
    if tool and not turn.results:
        return call(tool, word=word, letter=letter, text=word)
    if turn.results:
        return Reply(f"There are {turn.results[-1].strip()} {letter}'s in {word}.")
    # Without a tool it imitates a known slip of real models: it counts runs of the
    # letter ("rr" once), as if reading tokens instead of characters.
    guess = len(re.findall(f"{letter}+", word.lower()))
    return Reply(f"There are {guess} {letter}'s in {word}.")


TEXT_TOOLS = {  # kind: (what the user says, what the tool does without a tool)
    "count_words": (r"\bhow many words\b|\bcount (?:the )?words\b", lambda s: str(len(s.split()))),
    "uppercase": (r"\b(?:uppercase|upper case|capitals|shout)\b", str.upper),
    "reverse": (r"\breverse\b", lambda s: s[::-1]),
}


def text_tool(turn: Turn):
    for kind, (pattern, by_hand) in TEXT_TOOLS.items():
        if re.search(pattern, turn.text, re.IGNORECASE):
            text = quoted(turn.text)
            tool = turn.tool(kind)
            if tool and not turn.results:
                return call(tool, word=text, text=text, value=text)
            answer = turn.results[-1].strip() if turn.results else by_hand(text)
            return Reply(f"{kind.replace('_', ' ').capitalize()} of \"{text}\": {answer}")


def weather(turn: Turn):
    match = re.search(r"\b(?i:weather|temperature|forecast)\b.*?\bin ([A-Z][\w ,]*?(?:and [A-Z]\w*)?)[?.!]*$",
                      turn.text)
    if not match:
        return None
    cities = [c.strip() for c in re.split(r",|\band\b", match.group(1)) if c.strip()]
    tool = turn.tool("weather")
    if tool is None:
        return Reply("I can't check the weather: I have no weather tool, and I won't guess.")
    if not turn.results:  # one call per city, all in one turn (parallel tool calls)
        return Reply(calls=[c for city in cities for c in call(tool, city=city).calls])
    return Reply(" ".join(f"{city}: {result.strip()}." for city, result in zip(cities, turn.results)))


def clock(turn: Turn):
    if not re.search(r"\bwhat time\b|\bthe time\b|\bwhat day\b|\btoday'?s date\b|\bwhat(?:'s| is) the date\b",
                     turn.text, re.IGNORECASE):
        return None
    tool = turn.tool("clock")
    if tool is None:
        return Reply("I don't know the time: I have no clock, only this conversation.")
    return call(tool) if not turn.results else Reply(f"It is {turn.results[-1].strip()}.")


def schedule(turn: Turn):
    match = (re.search(r"\bremind me (?:to |about )?(?P<task>.+?)(?: (?P<when>(?:in|at|on|tomorrow|tonight|"
                       r"next|every|later)\b.*?))?[.!?]*$", turn.text, re.IGNORECASE)
             or re.search(r"\b(?P<task>(?:check|watch|monitor|follow up on) .+?) (?P<when>every \w+)[.!?]*$",
                          turn.text, re.IGNORECASE))
    if not match:
        return None
    task, when = match.group("task"), match.group("when") or "later"
    tool = turn.tool("schedule")
    if tool is None:
        return Reply("I can't schedule anything: I have no scheduling tool, and I only run when you write.")
    if turn.results:
        return Reply(f"Scheduled: {task} ({when}).")
    if when.startswith("every"):  # a recurring task queues itself again: budgets matter
        return call(tool, task=f"{task} {when}", when=when.replace("every", "in 1"))
    return call(tool, task=task, when=when)


def research(turn: Turn):
    match = re.search(r"\b(?:research|look up|look into|find out about|investigate)\s+(.+?)[.!?]*$",
                      turn.text, re.IGNORECASE)
    if not match:
        return None
    topic = match.group(1)
    search, store, planner = turn.tool("search"), turn.tool("remember"), turn.tool("schedule")
    if planner is not None:  # a big job and a queue: plan the steps, the queue runs them later
        if turn.results:
            return Reply(f"I've planned {len(turn.results)} steps to research {topic}.")
        steps = [f"find sources on {topic}", f"take notes on {topic}", f"write a summary of {topic}"]
        return Reply(calls=[c for step in steps for c in call(planner, task=step, when="next").calls])
    if search is None:
        return Reply(f"I can't research {topic}: I have no search tool.")
    if not turn.results:
        return call(search, query=topic, text=topic)
    found = turn.results[0].strip()
    if store and len(turn.results) == 1:
        calls = call(store, value=f"Finding about {topic}: {found}", key=topic, scope="agent:researcher",
                     importance="medium", metadata={"topic": topic}).calls
        log = turn.tool("decide")
        if log:
            calls += call(log, decision=f"store what I found about {topic}",
                          reasoning="it answers the research question and others can reuse it").calls
        return Reply(calls=calls)
    if len(turn.results) > 1:
        return Reply(f"I researched {topic} and saved what I found: {found[:200]}")
    return Reply(f"About {topic}: {found[:200]}")


STEP = r"\b(find sources on|take notes on|write a summary of)\s+(.+?)[.!?]*$"


def research_step(turn: Turn):
    """One of the steps `research` plans, run later from a queue. Memory (in the system
    prompt) carries the work from one step to the next: sources, then notes, then a summary."""
    match = re.search(STEP, turn.text, re.IGNORECASE)
    if not match:
        return None
    step, topic = match.group(1).lower(), match.group(2)
    search, store = turn.tool("search"), turn.tool("remember")
    if step == "find sources on":
        if search is None:
            return Reply(f"I can't find sources on {topic}: I have no search tool.")
        if not turn.results:
            return call(search, query=topic, text=topic)
        if store and len(turn.results) == 1:
            return _note(store, f"sources on {topic}", turn.results[0].strip())
        return Reply(f"Found sources on {topic}{' and saved them' if store else ''}: {turn.results[0].strip()[:200]}")
    sources, notes = _in_memory(turn.system, "sources", topic), _in_memory(turn.system, "notes", topic)
    if step == "take notes on":
        if not sources:
            return Reply(f"I have no sources on {topic} to take notes from yet.")
        if store and not turn.results:
            return _note(store, f"notes on {topic}", "; ".join(_sentences(sources)))
        return Reply(f"Took notes on {topic}: {'; '.join(_sentences(sources))}")
    found = notes or sources
    if not found:
        return Reply(f"I have nothing on {topic} to summarise yet.")
    return Reply(f"Summary of {topic}: " + " ".join(s + "." for s in _sentences(found)[:3]))


def _note(store, key: str, text: str) -> Reply:
    has_key = any(p.lower() in ("key", "name", "topic", "label") for p in store.params)
    return call(store, key=key, value=text if has_key else f"{key[0].upper()}{key[1:]}: {text}",
                importance="medium", scope="agent:researcher")


def _in_memory(system: str, kind: str, topic: str) -> str:
    """The text memory holds under "sources on <topic>" (or notes), from the system prompt."""
    found = re.search(rf"{kind} on {re.escape(topic)}\s*[:=]\s*(.+)", system, re.IGNORECASE)
    return found.group(1).strip() if found else ""


def _sentences(text: str) -> list:
    return [s.strip(" .;") for s in re.split(r"(?<=[.;])\s+", text) if s.strip(" .;")]


def scheduled(turn: Turn):
    """A task from a queue that no other skill took: deliver it to the user when it is due."""
    match = re.match(r"\s*scheduled task\b[^:]*:\s*(.+?)[.!?]*$", turn.text, re.IGNORECASE | re.DOTALL)
    if not match:
        return None
    if "happy birthday" in match.group(1).lower():
        name = facts.lookup(turn.known(), "name")
        return Reply(f"Happy birthday{', ' + name if name else ''}! 🎂")
    return Reply(f"Reminder: {match.group(1)}.")


def summarise(turn: Turn):
    match = re.search(r"\b(?:summari[sz]e|sum up)\b(?: what (?:we|you) know about| the findings on)?\s*(.+?)[.!?]*$",
                      turn.text, re.IGNORECASE)
    if not match:
        return None
    topic = match.group(1) or "everything"
    tool = turn.tool("recall", "list_memory")
    if tool and not turn.results:
        return call(tool, query=topic, limit=5, scope="agent:researcher")
    texts = facts.texts_in(turn.results[-1]) if turn.results else [topic]
    sentences = [s.strip() for text in texts for s in re.findall(r"[^.!?]+[.!?]?", text) if s.strip()]
    return Reply("Summary: " + (" ".join(sentences[:3]) or "nothing to summarise yet."))
