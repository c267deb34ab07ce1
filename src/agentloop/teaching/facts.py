"""Facts about the user: finding them in what the user says, and in memory text.

"My name is Ada, I prefer tea" holds two facts: ("name", "Ada") and ("prefers", "tea").
Memory comes back to the model as text (a system prompt, a tool result), in whatever
shape the student chose: "name: Ada", "- name = Ada", {"name": "Ada"}, or
"The user's name is Ada". `facts_in_memory` reads all of those.
"""
import json
import re

_END = r'(?=\s*(?:[,;!?"]|\.(?:\s|$)|\band\b|\bbut\b|$))'
STATED = [  # (pattern on what the user says, the key it gives)
    (r"\bcall me (?P<v>[\w' -]+?)" + _END, "name"),
    (r"\bi (?:really )?prefer (?P<v>[\w' -]+?)" + _END, "prefers"),
    (r"\bi (?:really )?(?:like|love) (?P<v>[\w' -]+?)" + _END, "likes"),
    (r"\bi live in (?P<v>[\w' -]+?)" + _END, "lives_in"),
    (r"\bi(?: am|'m) (?:in|at|visiting) (?P<v>[\w' -]+?)" + _END, "location"),
    (r"\bi(?: am|'m) (?P<v>\d+) years old", "age"),
    (r"\bi work as (?:an? )?(?P<v>[\w' -]+?)" + _END, "job"),
    (r"\bit'?s my birthday (?:on )?(?P<v>[\w' -]+?)" + _END, "birthday"),
    (r"\bmy (?P<k>[a-z]+(?: [a-z]+)?) is (?:on )?(?P<v>[\w'@.+/: -]+?)" + _END, None),
]
QUESTIONS = [  # (pattern on a question, the key it asks about; "*" is everything)
    (r"\bwhat(?:'s| is) my (?P<k>[a-z]+(?: [a-z]+)?)\b", None),
    (r"\bwhen(?:'s| is) my (?P<k>[a-z]+(?: [a-z]+)?)\b", None),
    (r"\bdo you (?:know|remember) my (?P<k>[a-z]+(?: [a-z]+)?)\b", None),
    (r"\bwho am i\b", "name"),
    (r"\bwhat do i (?:prefer|drink)\b", "prefers"),
    (r"\bwhat do i (?:like|love)\b", "likes"),
    (r"\bwhere do i live\b", "lives_in"),
    (r"\bwhere am i\b", "location"),
    (r"\bhow old am i\b", "age"),
    (r"\bwhat do i do\b|\bwhat(?:'s| is) my job\b", "job"),
    (r"\b(?:what do you know|what do you remember|tell me what you know) about me\b", "*"),
]
PHRASES = {"name": "your name is {}", "prefers": "you prefer {}", "likes": "you like {}",
           "lives_in": "you live in {}", "location": "you are in {}", "age": "you are {} years old",
           "job": "you work as {}"}
STOP = {"question", "answer", "turn", "favourite", "favorite", "problem"}


def key_of(text: str) -> str:
    return re.sub(r"\W+", "_", text.strip().lower()).strip("_")


def stated_facts(text: str) -> list[tuple[str, str]]:
    """Facts the user states about themselves, in the order stated, one per key."""
    found = []
    for pattern, key in STATED:
        for match in re.finditer(pattern, text, re.IGNORECASE):
            found.append((match.start(), key or key_of(match.group("k")), match.group("v").strip()))
    facts = {}
    for _, key, value in sorted(found):
        if key not in STOP:
            facts.setdefault(key, value)
    return list(facts.items())


def asked_key(text: str) -> str | None:
    """The key a question asks about ("what is my name?" -> "name"), or None."""
    for pattern, key in QUESTIONS:
        match = re.search(pattern, text, re.IGNORECASE)
        if match:
            return key or key_of(match.group("k"))
    return None


def facts_in_memory(text: str) -> dict:
    """Every fact in memory text, whatever its shape (JSON, key: value lines, sentences)."""
    facts = {}
    for data in _json_in(text):
        _collect(data, facts)
    for line in re.split(r"[\n;]|(?<=[a-z0-9])\.\s", text):
        _read_line(line.strip(" -*•\t"), facts)
    return facts


def texts_in(result: str) -> list[str]:
    """The memory texts in a tool result: the "content" of each JSON item, or the text."""
    found = []
    for data in _json_in(result):
        items = data if isinstance(data, list) else [data]
        found += [str(i.get("content") or i.get("text") or i.get("memory") or "")
                  for i in items if isinstance(i, dict)]
    return [t for t in found if t] or [result]


def _json_in(text: str) -> list:
    try:
        return [json.loads(text)]
    except ValueError:
        found = []
        for blob in re.findall(r"\{[^{}]*\}", text):  # flat objects inside prose
            try:
                found.append(json.loads(blob))
            except ValueError:
                pass
        return found


def _collect(data, facts: dict) -> None:
    if isinstance(data, list):
        for item in data:
            _collect(item, facts)
    elif isinstance(data, dict):
        for key, value in data.items():
            if isinstance(value, (dict, list)):
                _collect(value, facts)
            elif key in ("content", "text", "memory", "fact"):
                _read_line(str(value), facts)
            elif isinstance(value, (str, int, float)) and key != "id":
                facts.setdefault(key_of(key), str(value))


def _read_line(line: str, facts: dict) -> None:
    """'name: Ada', 'name = Ada' or a sentence such as "The user's name is Ada"."""
    match = re.match(r"^([A-Za-z][\w ]{0,30}?)\s*(?::|=|->)\s*([^{}\[\]]+)$", line)
    if match:
        facts.setdefault(key_of(match.group(1)), match.group(2).strip(" ."))
        return
    line = re.sub(r"\b(?:the )?user's\b", "my", line, flags=re.IGNORECASE)
    line = re.sub(r"\b(?:the )?user (prefer|like|love|live|work)s\b", r"i \1", line, flags=re.IGNORECASE)
    line = re.sub(r"\b(?:the )?user is\b", "i am", line, flags=re.IGNORECASE)
    for key, value in stated_facts(line):
        facts.setdefault(key, value)


def phrase(key: str, value: str) -> str:
    """("name", "Ada") -> "your name is Ada"."""
    return PHRASES.get(key, "your " + key.replace("_", " ") + " is {}").format(value)


def lookup(facts: dict, key: str) -> str | None:
    """The value for a key, allowing near names (favourite_drink ~ prefers, etc.)."""
    if key in facts:
        return facts[key]
    aliases = {"name": ["user_name", "username", "first_name"], "prefers": ["preference", "drink"],
               "birthday": ["birth_date", "date_of_birth", "birthdate", "dob"]}
    for alias in aliases.get(key, []):
        if alias in facts:
            return facts[alias]
    return next((v for k, v in facts.items() if key in k.split("_")), None)
