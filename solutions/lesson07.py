"""Reference solutions for lesson 7's exercises."""
import re

from agentloop.storage import save_json

# A phone number: an optional +, then digits with spaces, dashes, dots or brackets between them.
# The pattern finds candidates; the digit count (7 to 15, the E.164 maximum) and the date check
# decide, because a regex alone cannot tell 2026-01-20 from 555-1234567.
PHONE = r"(?<![\w-])\+?\(?\d[\d ().-]{5,}\d(?![\w-])"


def redact_phones(text):
    def mask(match):
        digits = re.sub(r"\D", "", match.group())
        is_date = re.fullmatch(r"\d{4}-\d\d-\d\d", match.group())
        return "[phone]" if 7 <= len(digits) <= 15 and not is_date else match.group()
    return re.sub(PHONE, mask, text)


SECRETS = {"a card number": r"\b(?:\d[ -]?){12,18}\d\b", "a password": r"\b(?:password|passcode|pin)\b"}


def my_memory_gate(key, value):
    for what, pattern in SECRETS.items():
        if re.search(pattern, f"{key} {value}", re.IGNORECASE):
            return f"Not stored: it looks like {what}, and secrets never go into memory."
    if "birthday" in key and not re.search(r"\b(?:19|20)\d\d\b", value):
        return f"Not stored: the {key} is incomplete. Ask the user: which year?"
    return None


MEMORY_FILE = "memory_07.json"
memory = {}


def forget_fact(key):
    if key not in memory:
        return f"Nothing is stored under {key}."
    del memory[key]
    save_json(MEMORY_FILE, memory)
    return f"Forgot {key}."
