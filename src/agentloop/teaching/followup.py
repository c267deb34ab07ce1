"""A follow-up that leans on the conversation (rule 215): "and plus 1?", "now times 3", "what about half of that?", "add 10
to it" after an arithmetic answer take that answer as their first operand; with no answer before them, they are asked."""
import re

from .understand import Intent, understand

ANSWERED = r"(?:\bthe answer is|=)\s*(?P<n>-?\d[\d,]*(?:\.\d+)?)\.?\s*$"  # how the model says a sum's result
LEAD = (r"^\W*(?:(?:and|now|then|so|ok|okay|also|please|what about|how about|and what about|what if (?:i|we|you)|can you|could you|"
        r"what(?:'s| is)|what do (?:i|we|you) get if (?:i|we|you))\W+)*")
POINTER = r"\b(?:that (?:number|result|answer|total|amount)|the (?:result|answer|total|number|amount)|it|that|this)\b"
OPERATOR = r"(?:plus|minus|times|multiplied by|divided by|over|to the power of|x|[-+*/^×÷])"


def previous_answer(replies: list) -> str | None:
    """The number the model's latest reply with a sum's result gave ("The answer is 42.", "12 + 30 = 42"), else None."""
    found = next((m for reply in reversed(replies) if (m := re.search(ANSWERED, reply or "", re.I))), None)
    return found.group("n").replace(",", "") if found else None


def leaned_on(text: str, operand: str) -> str | None:
    """The follow-up with the operand put where it leans: first before a bare operator ("plus 1": "42 plus 1"), first in
    "add 10 to it" ("42 plus 10"), else in place of "it"/"that" ("half of that": "half of 42"). None for other shapes."""
    body = re.sub(LEAD, "", text, flags=re.I).strip(" ?!.")
    if re.match(rf"{OPERATOR}\s*-?\d", body, re.I):
        return f"{operand} {body}"
    if added := re.fullmatch(rf"add (-?\d[\d,.]*) (?:on )?to {POINTER}", body, re.I):
        return f"{operand} plus {added.group(1)}"
    if timed := re.fullmatch(rf"times {POINTER} by (-?\d[\d,.]*)", body, re.I):
        return f"{operand} times {timed.group(1)}"
    if len(body.split()) <= 8 and len(re.findall(POINTER, body, re.I)) == 1:
        return re.sub(POINTER, operand, body, count=1, flags=re.I)
    return None


def points_back(text: str) -> bool:
    """Whether a sum leans on something said before ("what's that plus 5 times 2?"): "it"/"that" beside an operator."""
    return bool(re.search(rf"{POINTER}\s+{OPERATOR}\b|\b{OPERATOR}\s+{POINTER}|\bof {POINTER}\W*$", text, re.I))


def leaning(turn) -> list | str | None:
    """The sums a follow-up asks, with the previous answer as their first operand; a question when there is none to lean
    on; None when the message is no arithmetic follow-up (what it means then is another rule's)."""
    operand = previous_answer(turn.replies)
    meant = leaned_on(turn.text, operand or "7")
    intents = understand(meant) if meant else []
    if not intents or any(i.kind != "calculate" for i in intents):
        return None
    if operand is None:
        return "What number should I start from? There is no earlier answer in this conversation to build on."
    return intents
