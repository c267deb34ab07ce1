"""A lookup by the person or thing named (rule 213): "What's on Ana Ruiz's account?", "look up the customer Jo Park"."""
import json
import re

from .rules import SENSITIVE
from .tasks import NOT_LOOKUPS, data_of, refusal, words_of
from .understand import Intent

NAMED = r"(?P<name>[A-Z][a-z]+(?: [A-Z][a-z]+){0,2})"
ASKED_OF = [rf"\b{NAMED}'s (?P<thing>[a-z]+)\b",  # "What's on Ana Ruiz's account?"
            rf"^\W*(?i:please\s+)?(?i:look up|pull up|fetch|find|get|show me|open)\s+(?:the\s+)?(?P<thing>[a-z]+)\s+(?:for\s+|of\s+)?{NAMED}\W*$"]
CREDENTIAL = SENSITIVE["a password or another secret"]


def named_lookup(turn) -> list:
    """A question about a named person's or thing's record, and the one tool taking one text whose words name that record
    (account, customer, profile ...): it is called with the name. [] otherwise: never a guessed argument."""
    for asked in (found for pattern in ASKED_OF for found in re.finditer(pattern, turn.text)):
        if asked.group("name").split()[0] in ("What", "Who", "Where", "When", "How", "That", "It", "My", "The"):
            continue
        thing = asked.group("thing").lower()
        fits = [t for t in turn.tools if len(t.required or t.params) == 1 and t.kind not in NOT_LOOKUPS
                and thing[:5] in {w[:5] for w in words_of(f"{t.name} {t.description}")}]
        if len(fits) == 1:
            return [Intent("named_lookup", {"tool": fits[0].name, "name": asked.group("name"), "thing": thing})]
    return []


def looked_up(intent, turn):
    """The record the tool returned, its fields said with any credential (a key, token, password) kept back."""
    tool = next(t for t in turn.tools if t.name == intent.slots["tool"])
    [result] = yield [(tool.name, {next(iter(tool.required or tool.params)): intent.slots["name"]})]
    if reason := refusal([result]):
        return f"I couldn't look up {intent.slots['name']}. {reason}"
    try:
        record = json.loads(result)
    except ValueError:
        record = None
    if isinstance(record, dict):
        kept = [k for k in record if re.search(CREDENTIAL, k.replace("_", " "), re.I)]
        said = ", ".join(f"{k.replace('_', ' ')}: {v}" for k, v in record.items() if k not in kept)
        return f"{intent.slots['name']}'s {intent.slots['thing']}: {said}" + (f" ({', '.join(kept)} kept back)" if kept else "") + "."
    lines = [line for line in data_of(result).splitlines() if not re.search(CREDENTIAL, line, re.I)]
    return f"{intent.slots['name']}'s {intent.slots['thing']}: {' '.join(lines)}" if lines else \
        f"I found {intent.slots['name']}'s {intent.slots['thing']}, but it holds only what I must keep back."
