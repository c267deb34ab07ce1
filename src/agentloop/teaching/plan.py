"""Plan: intents + the offered tools -> tool calls now, or the answer.

Each intent has a handler. A handler that needs tools is a generator: it yields a list of calls and
receives their results, so "add, then multiply" reads as two lines. The model is stateless, so on
every turn of the loop `respond` replays the handlers against the tool results the conversation
already holds; the first handler that needs a result it does not have yet decides the calls.
A loop that forgets to append results replays from the start and asks for the same call again.
"""
import re
from dataclasses import dataclass

from . import arithmetic, facts, say
from .tasks import HANDLERS as TASKS, refusal
from .toolbox import Tool, call, takes_key
from .understand import Intent, understand

SENSITIVE = {"a card number": r"\b(?:\d[ -]?){13,19}\b", "a password": r"\bpassword\b|\bpin\b",
             "a government ID number": r"\b(?:ssn|social security|passport number)\b"}
LISTS = ("likes", "dislikes", "allergies")  # a new value joins the old one instead of replacing it


@dataclass
class Turn:
    text: str              # the last user message
    earlier: list          # the user's earlier messages in this conversation
    system: str            # the system (and developer) messages, joined
    tools: list            # the Tools the model may call now
    results: list          # tool results since the last user message, in order
    last_reply: str = ""   # the assistant's previous text (a question it asked, say)
    asked_because: str = ""  # the tool results that led to that reply

    def tool(self, *kinds: str) -> Tool | None:
        return next((t for kind in kinds for t in self.tools if t.kind == kind), None)

    def known(self) -> dict:
        """Facts about the user: the memory in the system prompt, then what they said in this chat."""
        known = facts.facts_in_memory(self.system)
        for message in self.earlier:
            for intent in understand(message):
                known.update(intent.slots.get("facts", []) if intent.kind == "remember" else [])
        return known

    def agent(self) -> str:
        """Who the system prompt says the model is ("You are the researcher, ..." -> researcher)."""
        found = re.search(r"\byou are (?:the |an? )?(?:[a-z]+ )*?([a-z]+)(?=[,.]|\s+(?:with|who|that)\b|$)",
                          self.system, re.IGNORECASE | re.MULTILINE)
        return found.group(1).lower() if found else "assistant"


def answer(turn: Turn):
    """The reply for this turn: (text, calls)."""
    for result in turn.results:  # a tool asks a question ("Ask the user: which year?"): ask it
        question = re.search(r"ask the user[:,]?\s*(.+)", result, re.IGNORECASE)
        if question:
            return say.sentence(question.group(1).strip()).rstrip("."), []
    intents = understand(turn.text) or [Intent("unknown", {"text": turn.text})]
    if all(i.kind == "unknown" for i in intents):
        intents = completed(turn) or intents
    if len(intents) > 1:  # a greeting beside a request is politeness, not a request
        intents = [i for i in intents if i.kind not in ("greet", "thanks", "smalltalk", "bye", "okay")] or intents
    results, texts = list(turn.results), []
    for intent in intents:
        steps = HANDLERS[intent.kind](intent, turn)
        if isinstance(steps, str):
            texts.append(steps)
            continue
        try:
            calls = next(steps)
            while True:
                got, results = results[:len(calls)], results[len(calls):]
                if len(got) < len(calls):
                    return None, calls[len(got):]
                calls = steps.send(got)
        except StopIteration as done:
            texts.append(done.value)
    cannot = [t for i, t in zip(intents, texts) if i.kind == "unknown"]
    if len(cannot) == len(texts):
        return (say.fallback(turn.text) if not turn.results else
                "The tools returned: " + "; ".join(r.strip() for r in turn.results)), []
    return " ".join([say.cannot(cannot)] * bool(cannot) + [t for t in texts if t not in cannot]), []


def completed(turn: Turn) -> list:
    """After the model asked a question ("Which year?"), a short answer completes the earlier fact."""
    if not (turn.last_reply.rstrip().endswith("?") and turn.earlier and len(turn.text.split()) <= 6):
        return []
    reply = re.sub(r"^(?:it'?s|it is|it was|in|the year|i was born in|born in)\s+", "", turn.text.strip(), flags=re.I)
    reply = reply.rstrip(".!")
    if not re.search(r"\d|[A-Z]", reply):  # "no", "not sure": not the missing piece
        return []
    intents = [i for i in understand(turn.earlier[-1]) if i.kind == "remember"]
    for intent in intents:
        pairs = intent.slots["facts"]
        named = [k for k, _ in pairs if k.replace("_", " ") in turn.asked_because.lower()] or [pairs[-1][0]]
        intent.slots["facts"] = [(k, f"{v} {reply}" if k in named else v) for k, v in pairs]
    return intents


def calculate(intent: Intent, turn: Turn):
    expression = intent.slots["expression"]
    shown = expression[1:-1] if re.fullmatch(r"\((?:[^()]|\([^()]*\))*\)", expression) else expression
    tools = {kind: turn.tool(kind) for kind in arithmetic.KINDS if turn.tool(kind)}
    calculator = turn.tool("calculate")
    if calculator and not tools:
        [result] = yield [call(calculator, expression=shown, text=shown)]
        return f"{shown} = {result.strip()}"
    walk = arithmetic.steps(arithmetic.parse(expression), tools)
    used = False
    try:
        step = next(walk)
        while True:
            kind, a, b = step
            used = True
            [result] = yield [call(tools[kind], numbers=[a, b])]
            step = walk.send(result)
    except StopIteration as done:
        value = done.value
    except arithmetic.ToolFailed as failure:
        return f"The tool failed with: {failure}. So I can't finish the calculation."
    except ZeroDivisionError:
        return "That divides by zero, which has no answer."
    except (OverflowError, ValueError, TypeError):
        return f"I can't work out {shown}: the number is too big or not a real number."
    try:
        return f"The answer is {arithmetic.show(value)}." if used else f"{shown} = {arithmetic.show(value)}"
    except (OverflowError, ValueError, TypeError):
        return f"I can't work out {shown}: the number is too big or not a real number."


def remember(intent: Intent, turn: Turn):
    pairs = intent.slots["facts"]
    if re.search(r"\b(?:never|do not|don't|must not) (?:store|save|remember)\b|\bsensitive\b", turn.system, re.I):
        for what, pattern in SENSITIVE.items():
            if any(re.search(pattern, f"{k.replace('_', ' ')} {v}", re.I) for k, v in pairs):
                return f"I won't store that: it looks like {what}, and sensitive data must not go into memory."
    tool = turn.tool("remember")
    if tool is None:
        name = dict(pairs).get("name")
        rest = [(k, v) for k, v in pairs if k != "name"]
        noted = f"Noted: {say.facts(rest)}." if rest else ""
        return f"Nice to meet you, {name}! {noted}".strip() if name else noted
    known, keyed = turn.known(), takes_key(tool)
    importance = intent.slots.get("importance") or next(
        (spec.get("default") for p, spec in tool.params.items() if "importance" in p or "priority" in p), None) or "medium"
    calls = []
    for key, value in pairs:
        old = facts.lookup(known, key) if key in LISTS else None
        value = f"{old}, {value}" if keyed and old and value.lower() not in old.lower() else value
        roles = {"key": key, "value": value} if keyed else {"value": value if intent.slots.get("note")
                                                              else say.phrase(key, value, about_user=True)}
        calls.append(call(tool, **roles, importance=importance, scope="user", metadata={"key": key}))
    results = yield calls
    if reason := refusal(results):
        return f"I didn't store that. {reason}"
    if intent.slots.get("note"):
        return f"Got it. I'll remember: {pairs[0][1]}."
    return f"Got it. I'll remember that {say.facts(pairs)}."


def ask(intent: Intent, turn: Turn):
    key, known = intent.slots["key"], turn.known()
    tool = turn.tool("list_memory", "recall") if key == "*" else turn.tool("list_memory") if key == "note" \
        else turn.tool("recall")
    if key == "*" and not known and tool and takes_key(tool):  # get_fact(subject) cannot list everything
        return "I can only look up one thing at a time in my memory: ask me about it (your name, where you live, ...)."
    if not found(known, key) and tool:
        results = yield [call(tool, query=say.query(key) if key != "*" else "user", key=key, limit=10 if key == "*" else 5,
                              scope="user")]
        for result in results:
            if refusal([result]) or re.search(r"\bunknown\b|not found|\bno (?:such|memories|results|matches)\b|"
                                              r"\bnothing (?:stored|found|saved)\b", result, re.I):
                continue  # an empty answer is not a memory
            if takes_key(tool):
                known.setdefault(key, result.strip())  # get_fact(key) answers with the bare value
            known.update(facts.facts_in_memory(result))
            known.update((f"memory_{i}", text) for i, text in enumerate(facts.texts_in(result))
                         if not facts.facts_in_memory(text) and not re.match(r"\W*$", text))
    if key == "*":
        return say.known(known.items()) if known else "I don't know anything about you yet."
    if key == "note":
        notes = [v for k, v in known.items() if k.startswith(("note", "memory_"))]
        if notes:
            return f"You asked me to remember: {'; '.join(notes)}."
        if turn.tool("recall"):  # a search needs words: it cannot list what it does not know to ask for
            return "I can only search my memory by its words: tell me what it was about and I'll look."
        return "You haven't asked me to remember anything yet."
    value = facts.lookup(known, key)
    thing = re.search(r"\bdo i (?:like|love|enjoy) (.+?)[?.!]*$", intent.slots["about"], re.I)
    if thing and value is not None:
        liked = thing.group(1).lower() in value.lower()
        return f"Yes: you like {value}." if liked else f"I don't know that you like {thing.group(1)}; you told me you like {value}."
    if value is not None:
        return say.sentence(say.phrase(key, value))
    if notes := loosely(known, key):
        return "You told me: " + "; ".join(v if k not in say.PHRASES else say.phrase(k, v) for k, v in notes) + "."
    if intent.slots.get("loose"):
        return say.fallback(intent.slots["about"])
    return say.unknown(key)


def found(known: dict, key: str) -> bool:
    return bool(known) if key == "*" else facts.lookup(known, key) is not None or bool(loosely(known, key))


def loosely(known: dict, key: str) -> list:
    """Memories that mention what was asked ("my dentist appointment" finds "dentist on Friday"), but
    never for a fact with a name of its own: "my cat's name" is not "your name"."""
    return [] if key.endswith("name") or key in say.PHRASES else facts.mentioning(known, key.replace("_", " "))


def forget(intent: Intent, turn: Turn):
    key, value = intent.slots["key"], intent.slots.get("value")
    what = f"that {say.phrase(key, value)}" if value else f"your {key.replace('_', ' ')}"
    tool = turn.tool("forget")
    if tool is None:
        return "I can't forget anything: I have no tool to delete memories."
    search = turn.tool("recall")
    if not takes_key(tool) and search:  # memory services delete by id: search first, then delete
        [result] = yield [call(search, query=value or say.query(key), limit=5, scope="user")]
        words = set(re.findall(r"[a-z0-9]{3,}", (value or say.query(key)).lower())) - {"user"}
        ids = [i for i, text in facts.ids_in(result) if words & set(re.findall(r"[a-z0-9]+", text.lower()))]
        if not ids:
            return f"I couldn't find anything about {what.removeprefix('that ')} to forget."
        results = yield [call(tool, id=ids[0])]
    elif (rest := others(turn, key, value)) and (keeper := turn.tool("remember")) and takes_key(keeper):
        results = yield [call(keeper, key=key, value=rest)]  # "forget that I like museums": keep jazz
    else:
        results = yield [call(tool, key=key, id=key)]
    if reason := refusal(results):
        return f"I couldn't forget that. {reason}"
    return f"Done: I've forgotten {what}."


def others(turn: Turn, key: str, value: str | None) -> str:
    """A list-like fact without one of its items ("museums, jazz" without museums), or ""."""
    held = facts.lookup(turn.known(), key) if key in LISTS and value else None
    items = [item for item in re.split(r",\s*|\s+and\s+", held or "") if item and item.lower() != value.lower()]
    return ", ".join(items) if held and len(items) < len(re.split(r",\s*|\s+and\s+", held)) else ""


HANDLERS = {"calculate": calculate, "remember": remember, "ask": ask, "forget": forget, **TASKS}
