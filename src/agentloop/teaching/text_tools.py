"""Text tools read by their shape and what their description is about (rules 208-209).

A replacer takes three texts (the text, the part to find, what goes in its place), whatever its name:
`swap_out(text, old, new)`, `substitute(source, target, replacement)`. A counter of a class of letters
("Number of vowels (a e i o u) in a text") is chosen because the request names the same class.
"""
import re

from . import arithmetic
from .understand import Intent
from .toolbox import type_of

QUOTED = r"[\"“'‘](?P<{0}>[^\"”'’]+)[\"”'’]"
PIECE = r"(?:{0}|(?P<{1}w>[^\s,:;\"“'‘]+))"  # a quoted piece, or one word
VERB = r"(?P<verb>replace|swap(?: out)?|change|substitute|switch|turn)"
EVERY = r"(?:(?:every|each|all|any)\s+(?:(?:occurrences?|instances?|cases?) of\s+)?(?:the\s+)?)?"
TEXT_AFTER = r"\s+in(?:side)?(?:\s+(?:this|the (?:text|sentence|string|line|phrase)))?\s*:?\s*(?P<text>.+?)\s*$"
ASKED_TO_REPLACE = [  # "replace every 'cat' with 'dog' in: ...", "swap red for blue in '...'", "change X to Y in ..."
    rf"^\W*(?:(?:please|pls|can you|could you|would you)\s+)*{VERB}\s+{EVERY}{PIECE.format(QUOTED.format('old'), 'old')}"
    rf"\s+(?P<link>with|for|to|into|by)\s+{PIECE.format(QUOTED.format('new'), 'new')}{TEXT_AFTER}",
    rf"^\W*in\s+{QUOTED.format('text')}\s*,?\s*{VERB}\s+{EVERY}{PIECE.format(QUOTED.format('old'), 'old')}"  # "In 'x', replace o with 0"
    rf"\s+(?P<link>with|for|to|into|by)\s+{PIECE.format(QUOTED.format('new'), 'new')}\W*$",
]
ROLES = {  # a replacer's parameters by what their names (or descriptions) say they hold
    "new": r"new|replacement|replace_?with|repl|with|to|after|by|insert|substitute|sub_?with|into",
    "old": r"old|find|search|target|pattern|from|before|needle|match|substring|sub|remove|what|this|look_?for|seek",
    "text": r"text|string|str|s|source|input|sentence|content|body|haystack|passage|message|original|in|line|phrase|data|value",
}


def replace_asked(text: str) -> dict | None:
    """The text, the old part and the new one a request to replace names, or None. The text must be quoted or follow a
    colon (or both parts be quoted), so "change my city to Berlin in my profile" is no text edit. "Substitute X for Y"
    puts X in Y's place."""
    for pattern in ASKED_TO_REPLACE:
        found = re.match(pattern, text.strip(), re.I | re.S)
        if not found:
            continue
        parts = found.groupdict()
        old, new = parts.get("old") or parts.get("oldw"), parts.get("new") or parts.get("neww")
        body = parts["text"].strip()
        quoted = re.fullmatch(r"[\"“'‘](.+)[\"”'’]\W*", body, re.S)
        if not (quoted or ":" in text[:found.start("text") + 1] or parts.get("old") and parts.get("new") or pattern is ASKED_TO_REPLACE[1]):
            return None
        body = quoted.group(1) if quoted else body
        if found.group("verb").lower() == "substitute" and found.group("link").lower() == "for":
            old, new = new, old
        return {"text": body, "old": old, "new": new}
    return None


def replacer_roles(tool) -> dict | None:
    """{role: parameter} for a tool that takes three texts (the text, the old part, the new part), each parameter's
    role read from its name, else its description; None when the tool has another shape."""
    params = [p for p in tool.params if type_of(tool.params[p] if isinstance(tool.params[p], dict) else {}) in ("string", None)]
    if len(params) != 3 or len(tool.params) != 3:
        return None
    roles = {}
    for role in ("new", "old", "text"):
        for param in params:
            spec = tool.params[param] if isinstance(tool.params[param], dict) else {}
            said = f"{param} {spec.get('description', '')}"
            if param not in roles.values() and role not in roles and re.search(rf"(?:^|[\s_])(?:{ROLES[role]})(?:$|[\s_.,])", said, re.I):
                roles[role] = param
    return roles if len(roles) == 3 else None


def replacing(turn) -> list:
    """A request to replace one piece of a text with another, and a tool of the replacer's shape: one call, each part in
    its parameter (rule 208). Without such a tool the text tools' rule holds: it is done by hand."""
    asked = replace_asked(turn.text)
    if not asked:
        return []
    tool = next((t for t in turn.tools if replacer_roles(t)), None)
    return [Intent("replace_text", {**asked, "tool": tool.name if tool else None})]


def replace_text(intent, turn):
    """The replacer called with the three parts, its result said; by hand (Python's str.replace) with no replacer."""
    text, old, new = intent.slots["text"], intent.slots["old"], intent.slots["new"]
    tool = next((t for t in turn.tools if t.name == intent.slots["tool"]), None)
    if tool is None:
        return f"With every {old!r} replaced by {new!r}: {text.replace(old, new)}"
    roles = replacer_roles(tool)
    [result] = yield [(tool.name, {roles["text"]: text, roles["old"]: old, roles["new"]: new})]
    return f"{tool.name} returned: {result.strip()}"


LETTER_CLASSES = r"vowels?|consonants?|digits?|numerals?|capital letters?|upper-?case letters?|lower-?case letters?|punctuation(?: marks?)?|spaces?"
CLASS_ASKED = (rf"\b(?:count|tally|number of|how many)\s+(?:the\s+|of\s+the\s+)?(?P<cls>{LETTER_CLASSES})\b"
               rf"(?:\s+(?:are\s+)?(?:there\s+)?(?:in|does|do|inside)\b)?\s*(?P<rest>.*)$")


def class_counted(turn) -> list:
    """"Count the vowels in 'education'", "how many consonants does 'rhythm' have?": with a tool that takes one text and
    whose name or description names that class of letters, the tool is used on the text (rule 209). [] otherwise: a
    miscount of letters without a tool is the lessons' failure on purpose, never this rule's."""
    asked = re.search(CLASS_ASKED, turn.text, re.I | re.S)
    if not asked:
        return []
    stem = asked.group("cls").lower().split()[0].rstrip("s").replace("-", "")[:5]
    text = text_in(asked.group("rest"))
    tools = [t for t in turn.tools if len([p for p in t.params if p in t.required or not t.required]) == 1
             and type_of(next(iter(t.params.values())) or {}) in ("string", None)
             and re.search(rf"\b{stem}", f"{t.name.replace('_', ' ')} {t.description}".replace("-", ""), re.I)]
    if not text or len(tools) != 1:
        return []
    return [Intent("use", {"tool": tools[0].name, "text": text})]


def text_in(rest: str) -> str:
    """The text a count is asked of: quoted, after a colon, or the one word left ("in strawberry?", "does banana have")."""
    quoted = re.search(r"[\"“]([^\"”]+)[\"”]|(?<!\w)['‘]([^'’]+)['’](?!\w)", rest)
    if quoted:
        return next(g for g in quoted.groups() if g)
    if ":" in rest:
        return rest.split(":", 1)[1].strip()
    word = re.fullmatch(r"\W*(?:the (?:word|name)\s+)?([A-Za-z]+)(?:\s+(?:have|has|contain|hold))?\W*", rest)
    return word.group(1) if word else ""


def without_sentence_end(value, said: str):
    """A text taken from the user's words without the punctuation that ends their sentence ("swap cat for dog." sends
    "dog", "reverse the word pots." "pots"); kept inside quotes ("shout 'Stop!'"), in a passage handed over after a colon
    (rule 74: "count the words: I came, I saw."), in an abbreviation ("U.S."), and in any value not said as such."""
    ending = re.search(r"(?<![\s.][A-Za-z])[.!?,;]+$", value) if isinstance(value, str) else None
    if not ending or value not in said or re.search(re.escape(value) + r"\s*[\"'”’]|:\s*" + re.escape(value), said):
        return value
    return value[:ending.start()].rstrip()


SENSES = {  # a small table of near-synonyms: what a request asks for, and the words a description says it with (rule 253)
    "count": "count counts counted number many tally tallies total",
    "tidy": "clean cleans tidy tidies fix fixes neaten neatens collapse collapses normalise normalises normalize normalizes "
            "squeeze squeezes squash squashes",
    "space": "space spaces spacing whitespace whitespaces blank blanks gap gaps",
    "character": "character characters char chars letter letters length long glyph glyphs symbol symbols",
}
SENSE_OF = {word: sense for sense, said in SENSES.items() for word in said.split()}
ASKED_AS_VERB = (r"^\W*(?:(?:please|pls|kindly|can you|could you|would you)\s+)*(?P<verb>[a-z]+)(?:\s+up)?\s+"
                 r"(?:(?:the|all the|all|any|this|that|my|its)\s+)?(?P<object>[a-z]+)\s+(?P<rest>(?:in|of|on|inside|within)\b.*)$")


def senses_in(said: str) -> list:
    """The senses of SENSES that a text's words carry, in their order ("Collapse runs of spaces": tidy, then space)."""
    return list(dict.fromkeys(SENSE_OF[w] for w in re.findall(r"[a-z]+", said.lower()) if w in SENSE_OF))


def says(description: str, verb: str, thing: str, every_one: bool = False) -> bool:
    """Whether a description does the verb to the thing: it carries the verb's sense, and the thing is the first other
    sense it names ("Number of characters in a string, spaces included" counts characters, not spaces); a count that
    leaves some out ("letters, ignoring spaces") is no count of `every_one` (all the characters)."""
    said = senses_in(description)
    return verb in said and [s for s in said if s != verb][:1] == [thing] and not (every_one and leaves_out(description))


def every_one(word: str) -> bool:
    """"characters", "chars", "length": every one of them, where "letters" may leave the spaces out."""
    return SENSE_OF.get(word.lower()) == "character" and not word.lower().startswith("letter")


LEAVES_OUT = r"\b(?:ignor\w*|exclud\w*|without|except|skipp\w*|not count\w*)\b|\b(?:not counted|left out)\b"


def leaves_out(description: str) -> bool:
    return bool(re.search(LEAVES_OUT, description, re.I))


def said_otherwise(tool, text: str) -> bool:
    """Whether a request's verb is one of the table's (count, clean up ...) and the tool's description does not do it (to
    the object named, when the table knows the object): that tool is never the nearest one for it ("Count the spaces in ..." is
    no job for "Strips whitespace from the ends"; rule 253)."""
    if sliced := slice_asked(text):  # "the first 4 letters of ...": only a tool that keeps that side (rule 271)
        return not slices(tool, sliced[0], sliced[2])
    asked = re.match(ASKED_AS_VERB, text.strip(), re.I | re.S)
    verb = asked and SENSE_OF.get(asked.group("verb").lower())
    if verb not in ("count", "tidy"):
        return False
    thing = SENSE_OF.get(asked.group("object").lower())
    return not says(tool.description, verb, thing, every_one(asked.group("object"))) if thing else verb not in senses_in(tool.description)


def described_request(turn) -> list:
    """"Count the characters in 'Mississippi'", "Clean up the spacing in '...'": a request said as a verb and its object,
    both in the table of senses, and the one offered tool that takes one text and whose DESCRIPTION does that verb to that object
    (`Number of characters in a string`, `Collapse runs of spaces into one`): the tool is used on the text, whatever its
    name (rule 253). A description that says something else (a space counter for "clean up the spacing") is not chosen;
    [] when no tool or several fit, and the other rules read the request."""
    asked = re.match(ASKED_AS_VERB, turn.text.strip(), re.I | re.S)
    if not asked or not (verb := SENSE_OF.get(asked.group("verb").lower())) or not (thing := SENSE_OF.get(asked.group("object").lower())):
        return []
    text = text_in(re.sub(r"^\w+\s*", "", asked.group("rest")))
    tools = [t for t in turn.tools if len(t.required or t.params) == 1 and type_of(next(iter(t.params.values()), None) or {}) in ("string", None)
             and says(t.description, verb, thing, every_one(asked.group("object")))]
    if not text or verb == thing or len(tools) != 1:
        return []
    return [Intent("use", {"tool": tools[0].name, "text": text})]


SIDES = {"first": r"\b(?:first|start|beginning|begins?|prefix|leading|head|left(?:most)?)\b",
         "last": r"\b(?:last|end|ending|ends|suffix|trailing|tail|right(?:most)?|final)\b"}
SLICE_ASKED = (r"\b(?P<side>first|last|opening|final|initial)\s+(?P<n>\d+|one|two|three|four|five|six|seven|eight|nine|ten)\s+"
               r"(?P<unit>letters?|characters?|chars?|symbols?|words?)\s+(?:of|in|from)\b(?P<rest>.*)$")


def slice_asked(text: str):
    """"the first 4 letters of 'Wednesday'", "last three words of: ...": (side, count, "character" or "word", the text), or
    None (rule 271)."""
    asked = re.search(SLICE_ASKED, text, re.I | re.S)
    if not asked:
        return None
    side = "first" if asked.group("side").lower() in ("first", "opening", "initial") else "last"
    unit = "word" if asked.group("unit").lower().startswith("word") else "character"
    return side, int(arithmetic.numbers_in_words(asked.group("n").lower())), unit, text_in(asked.group("rest"))


def slices(tool, side: str, unit: str) -> bool:
    """Whether a tool takes a text and a count and its description keeps that side's characters (or words)."""
    kinds = sorted(type_of(spec if isinstance(spec, dict) else {}) or "string" for spec in tool.params.values())
    said = tool.description.lower()
    return kinds in (["integer", "string"], ["number", "string"]) and bool(
        re.search(SIDES[side], said)) and (unit in senses_in(said) or unit == "word" and re.search(r"\bwords?\b", said))


def sliced_request(turn) -> list:
    """A slice by count ("give me the first 4 letters of 'Wednesday'") and the one tool that takes a text and a count and
    whose description keeps that side: called with both (rule 271); with no such tool, an honest "no rule", never a tool
    that does another thing to the text (a reverser)."""
    asked = slice_asked(turn.text)
    if not asked or not asked[3] or not turn.tools:
        return []
    side, count, unit, text = asked
    tools = [t for t in turn.tools if slices(t, side, unit)]
    if len(tools) != 1:
        return [Intent("unknown", {"text": turn.text})]
    return [Intent("use", {"tool": tools[0].name, "text": text, "number": count})]


PIECE_QUOTED = r"[\"“'‘](?P<{0}>[^\"”'’]+)[\"”'’]"
APPEARS = r"(?:appear|show up|occur|come up|turn up|crop up|feature|get used|is used|are used)s?"
OCCURRENCES_ASKED = [  # "how many times does 'ss' show up in 'mississippi'?", "count the occurrences of 'an' in 'banana'"
    rf"\bhow (?:many times|often)\s+(?:does|do|did|will|is|are)\s+(?:the (?:letters?|substring|string|word|sequence|pair)\s+)?"
    rf"{PIECE_QUOTED.format('needle')}\s+{APPEARS}\s+(?:in|inside|within)\b\s*(?P<rest>.+)$",
    rf"\bcount\s+(?:(?:the|all the|how many)\s+)?(?:(?:occurrences|instances|appearances|times)\s+of\s+)?(?:the\s+)?"
    rf"{PIECE_QUOTED.format('needle')}s?\s+(?:in|inside|within)\b\s*(?P<rest>.+)$",
]
NEEDLE = r"needle|sub(?:string)?|pattern|target|find|search|part|piece|fragment|what|word|letters?|chars?|term|query|look_?for"
COUNTS_OCCURRENCES = r"\bhow many times\b|\boccurrences?\b|\bappears?\b|\boccurs?\b|\bcounts?\b.*\b(?:substring|times)\b"


def occurrences_asked(text: str) -> tuple | None:
    """(the piece, the text) a request to count the occurrences of a quoted piece in a text asks for, or None."""
    for pattern in OCCURRENCES_ASKED:
        if found := re.search(pattern, text, re.I | re.S):
            body = text_in(found.group("rest"))
            return (found.group("needle"), body) if body else None
    return None


def occurrence_roles(tool) -> dict | None:
    """{"needle": param, "text": param} for a tool that takes two texts and whose description counts how many times one
    appears in the other; which is which read from the names (or descriptions): needle, substring, pattern ... (rule 273)."""
    params = list(tool.params)
    if len(params) != 2 or not re.search(COUNTS_OCCURRENCES, tool.description, re.I) or any(
            type_of(tool.params[p] if isinstance(tool.params[p], dict) else {}) not in ("string", None) for p in params):
        return None
    said = {p: f"{p} {(tool.params[p] or {}).get('description', '') if isinstance(tool.params[p], dict) else ''}" for p in params}
    needles = [p for p in params if re.search(rf"(?:^|[\s_])(?:{NEEDLE})(?:$|[\s_.,])", said[p], re.I)]
    if len(needles) != 1:
        return None
    return {"needle": needles[0], "text": next(p for p in params if p != needles[0])}


def occurrences_counted(turn) -> list:
    """"How many times does 'ss' show up in 'mississippi'?" and the one tool that counts occurrences of a piece in a
    text (`occurrences(haystack, needle)`): called with each part in its parameter (rule 273); [] otherwise."""
    asked = occurrences_asked(turn.text)
    tools = [t for t in turn.tools if occurrence_roles(t)] if asked else []
    if len(tools) != 1:
        return []
    return [Intent("count_occurrences", {"needle": asked[0], "text": asked[1], "tool": tools[0].name})]


def count_occurrences(intent, turn):
    """The occurrence counter called with the piece and the text; its result said as the count."""
    tool = next(t for t in turn.tools if t.name == intent.slots["tool"])
    roles = occurrence_roles(tool)
    [result] = yield [(tool.name, {roles["text"]: intent.slots["text"], roles["needle"]: intent.slots["needle"]})]
    needle, text, count = intent.slots["needle"], intent.slots["text"], result.strip()
    if re.fullmatch(r"\d+", count):
        return f"{needle!r} appears {count} time{'s' * (count != '1')} in {text!r} ({tool.name} returned {count})."
    return f"{tool.name} returned: {count}"
