"""What the teaching model can do: one small function per kind of request.

Each skill looks at the turn (the last user message, the system prompt, the offered
tools, the tool results so far) and returns a Reply, or None when the request is not
its kind. The first skill that answers wins. A skill that uses tools is re-run on every
turn of the loop and finds its place from the results it has already been given.
"""
import re
from dataclasses import dataclass, field

from . import facts
from .toolbox import Tool, fill


@dataclass
class Turn:
    text: str              # the last user message
    earlier: list[str]     # the user's earlier messages in this conversation
    system: str            # the system (and developer) messages, joined
    tools: list[Tool]      # the tools the model may call now
    results: list[str]     # tool results since the last user message, in order
    last_reply: str = ""   # the assistant's previous text (a question it asked, say)

    def tool(self, *kinds: str) -> Tool | None:
        return next((t for kind in kinds for t in self.tools if t.kind == kind), None)

    def known(self) -> dict:
        """Facts about the user from the system prompt and from this conversation."""
        known = facts.facts_in_memory(self.system)
        for message in self.earlier:
            for key, value in facts.stated_facts(message):
                known[key] = value
        return known


@dataclass
class Reply:
    text: str | None = None
    calls: list = field(default_factory=list)  # [(tool name, arguments dict)]


def call(tool: Tool, **roles) -> Reply:
    return Reply(calls=[(tool.name, fill(tool, roles))])


def takes_key(tool: Tool) -> bool:
    """remember(key, value) / forget(key), rather than remember(content) / delete(memory_id)."""
    return any(p.lower() in ("key", "name", "topic", "label", "field") for p in tool.params)


def quoted(text: str, after: str = r"\bin|:|\bof") -> str:
    """The text a text tool should work on: a quoted part, else what follows `after`."""
    found = re.search(r"[\"'“‘]([^\"'”’]+)[\"'”’]", text) or re.search(
        rf"(?:{after})\s+(?:the word |the text )?(.+?)[?.!]*$", text, re.IGNORECASE)
    return found.group(1).strip() if found else text


def relay_question(turn: Turn):
    """A tool (a memory gate, say) answered "ask the user: ...": ask it, don't guess."""
    for result in turn.results:
        match = re.search(r"ask the user[:,]?\s*(.+)", result, re.IGNORECASE)
        if match:
            question = match.group(1).strip()
            return Reply(question[0].upper() + question[1:])


def refusal(turn: Turn) -> str | None:
    """Why a tool said no ("Not stored: ...", "Error: ..."), to pass on instead of claiming success."""
    for result in turn.results:
        text = result.strip()
        prefix = re.match(r"(?:not stored|not deleted|error)\b\W*", text, re.IGNORECASE)
        if prefix or re.match(r"(?:nothing|no memory)\b", text, re.IGNORECASE):
            reason = text[prefix.end():] if prefix else text
            return reason[:1].upper() + reason[1:] if reason else "The tool refused."


def refuse_harmful(turn: Turn):
    if re.search(r"\b(bomb|explosive|malware|hack into|steal)\b", turn.text, re.IGNORECASE):
        return Reply("I can't help with that.")


SENSITIVE = {"a card number": r"\b(?:\d[ -]?){13,19}\b", "a password": r"\bpassword\b|\bpin\b",
             "a government ID number": r"\b(?:ssn|social security|passport number)\b"}


def refuse_sensitive(turn: Turn):
    """Refuse to store secrets, but only when the system prompt forbids it (lesson 7)."""
    if not re.search(r"(never|do not|don't|must not) (store|save|remember)|sensitive",
                     turn.system, re.IGNORECASE):
        return None
    for what, pattern in SENSITIVE.items():
        if re.search(pattern, turn.text, re.IGNORECASE):
            return Reply(f"I won't store that: it looks like {what}, and sensitive data "
                         "must not go into memory.")


def completed_facts(turn: Turn) -> list:
    """After "Which year?" and an answer with a year, the earlier date with that year."""
    year = re.search(r"\b(19|20)\d\d\b", turn.text)
    if not (year and "year" in turn.last_reply.lower() and turn.earlier):
        return []
    return [(key, f"{value} {year.group()}") for key, value in facts.stated_facts(turn.earlier[-1])]


def third_person(key: str, value: str) -> str:
    """("name", "Ada") -> "The user's name is Ada" (how memory services store facts)."""
    sentence = facts.phrase(key, value).replace("your ", "the user's ", 1).replace(
        "you are", "the user is").replace("you ", "the user ", 1).replace(
        "user prefer ", "user prefers ").replace("user like ", "user likes ").replace(
        "user live ", "user lives ").replace("user work ", "user works ")
    return sentence[0].upper() + sentence[1:]


def remember_facts(turn: Turn):
    stated = facts.stated_facts(turn.text) or completed_facts(turn)
    if not stated:
        return None
    said = " and ".join(facts.phrase(k, v) for k, v in stated)
    if reason := refusal(turn):  # a memory gate said no: say so, don't claim it is stored
        return Reply(f"I didn't store that. {reason}")
    if turn.results:
        return Reply(f"Got it. I'll remember that {said}.")
    tool = turn.tool("remember")
    if tool is None:
        name = dict(stated).get("name")
        return Reply(f"Nice to meet you, {name}!" if name else f"Noted: {said}.")
    has_key = takes_key(tool)
    calls = []
    for key, value in stated:
        roles = {"key": key, "value": value} if has_key else {"value": third_person(key, value)}
        roles.update(importance="high" if key in ("name", "birthday") else "medium",
                     scope="user", metadata={"key": key})
        calls += call(tool, **roles).calls
    return Reply(calls=calls)


def answer_about_user(turn: Turn):
    key = facts.asked_key(turn.text)
    if key is None:
        return None
    known = turn.known()
    for result in turn.results:
        known.update(facts.facts_in_memory(result))
    if key == "*":
        if known:
            return Reply("Here is what I know: " + "; ".join(facts.phrase(k, v) for k, v in known.items()) + ".")
        tool = turn.tool("list_memory", "recall")
        if tool and not turn.results:
            return call(tool, query="user", limit=10, scope="user")
        return Reply("I don't know anything about you yet.")
    value = facts.lookup(known, key)
    if value is not None:
        return Reply(facts.phrase(key, value)[0].upper() + facts.phrase(key, value)[1:] + ".")
    tool = turn.tool("recall")
    if tool and not turn.results:
        return call(tool, query=key.replace("_", " "), limit=5, scope="user")
    return Reply(f"I don't know your {key.replace('_', ' ')} yet. Tell me and I'll remember it.")


def forget_fact(turn: Turn):
    match = re.search(r"\b(?:forget|delete|remove|erase)\b(?: that| about)?\s+(.+?)[.!?]*$", turn.text, re.I)
    if not match:
        return None
    stated = facts.stated_facts(match.group(1))
    mine = re.search(r"\bmy (\w+(?: \w+)?)", match.group(1), re.IGNORECASE)
    key = stated[0][0] if stated else facts.key_of(mine.group(1) if mine else match.group(1))
    tool = turn.tool("forget")
    if tool is None:
        return Reply("I can't forget anything: I have no tool to delete memories.")
    by_id = not takes_key(tool)
    if not turn.results:
        search = turn.tool("recall")
        if by_id and search:  # find the memory's id first, then delete it
            return call(search, query=key.replace("_", " "), limit=1, scope="user")
        return call(tool, key=key, id=key)
    if by_id and len(turn.results) == 1 and turn.tool("recall"):
        found = re.search(r"\"?id\"?\s*[:=]\s*\"?([\w:.-]+)", turn.results[0])
        if not found:
            return Reply(f"I couldn't find anything about your {key.replace('_', ' ')} to forget.")
        return call(tool, id=found.group(1))
    if reason := refusal(turn):
        return Reply(f"I couldn't forget that. {reason}")
    return Reply(f"Done: I've forgotten your {key.replace('_', ' ')}.")
