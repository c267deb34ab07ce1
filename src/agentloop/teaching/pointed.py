"""A request that points back at what was just said (rule 147): "in 2 hours I need to call the bank, remind me",
"45 minutes from now I have to check the oven. Ping me", "Dad's birthday is on 14 August - add it every year".

The asking clause holds only a verb and a pointer ("remind me", "add it", "put that in the calendar", "make it repeat
every year"); the other clauses hold the task and its time. The task is the statement without its subject ("I need
to call the bank" is "call the bank"), a birthday or an anniversary is its clean title ("Dad's birthday"), and the
time and recurrence are read wherever they are said, so a delay said first still fills a minutes parameter.
"""
import re

from .timing import timing
from .understand import Intent

ASKING = (r"^\W*(?:(?:so|and|then|just|please|pls|can you|could you|would you|will you|ok|okay)\s+)*"
          r"(?:(?:remind|ping|nudge|alert|notify|buzz|text|message|tell) me|"
          r"(?:add|put|pop|stick|schedule|book|save|make|set|mark|enter|pencil|log|keep|note) (?:it|that|this)(?: up| down| in)?|"
          r"(?:set|add|create|make|schedule|put in|give me)(?: up)? (?:an?|the) (?:\w+ )?(?:reminder|event|entry|alarm|alert|nudge)(?: for it| for that)?|"
          r"(?:don't|do not) let me forget(?: it| that| this)?)"
          r"(?P<rest>.*)$")
AROUND = (r"\b(?:(?:in|on|into|to|onto) )?(?:my|the|our) (?:calendar|diary|agenda|schedule|planner|to-?dos?(?: list)?|"
          r"todo list|list|reminders)(?=\W|$)|\b(?:please|pls|thanks|then|"
          r"too|for me|about it|of it|when it's time|as an? (?:\w+ )?(?:event|entry|reminder)|so (?:it|that it) (?:comes back|repeats)|"
          r"(?:repeat|recur|come back)s?|a reminder)\b")
EVERY = {"every year": r"\b(?:every|each) year\b|\byearly\b|\bannual(?:ly)?\b", "every month": r"\b(?:every|each) month\b|\bmonthly\b",
         "every week": r"\b(?:every|each) week\b|\bweekly\b", "every day": r"\b(?:every|each) day\b|\bdaily\b"}
SUBJECT = (r"^\W*(?:(?:i|we)(?:'ve| have)? (?:need|have|want|ought|gotta|got)\b(?: to)?|(?:i|we) (?:should|must|gotta|'ve got|have got)\b|"
           r"(?:i'm|i am|we're|we are) (?:off to|going to|heading to|due at|booked in at)\b|"
           r"(?:i|we)(?:'ve got| have got| have|'ve) (?=an? |my |the |our )|(?:i'm|i am|we're|we are)(?= \w+ing\b))\s*")
OCCASION = (r"^(?:(?:it's|it is)\s+)?(?P<title>.*?\b(?:birthday|bday|anniversary|name ?day))\s+(?:(?:is|falls|'s|will be|comes)\s+)?"
            r"(?:on\s+)?(?P<date>.+)$|^(?P<event>(?:my |our |the )?(?!i\b|we\b|it\b)[a-z][\w' ]*?)\s+(?:is|are|will be|takes place|happens|"
            r"starts)\s+(?P<at>(?:on|at|this|next|tomorrow|today|tonight)\b.+)$")


TO_DO = (r"^\W*(?:(?:please|pls|can you|could you|just|and)\s+)*(?:add|put|pop|stick|jot down|write down|throw)\s+"
         r"(?P<task>[^,;]+?)\s+(?:to|on|onto)\s+(?:my|the|our)\s+(?:to-?do|todo|task)s?(?: list)?(?:,? please)?\W*$")


def pointed_request(text: str) -> list | None:
    """The schedule intent of a statement followed (or preceded) by a request that only points at it, or None."""
    if (listed := re.match(TO_DO, text, re.I)) and not timing(listed.group("task"))[0]:
        return [Intent("schedule", {"task": listed.group("task").strip(" '\""), "when": "", "clause": ""})]  # no time: none asked
    if re.search(r"[\"“”‘]|(?<![a-z])'(?![a-z])", text, re.I) or re.search(r"\?\s*\S", text):
        return None  # quoted words are someone's message, and a question is no statement to schedule (other rules read them)
    parts = [p for p in re.split(r"\s*(?:[,;!?]|[.:](?=\s|$)|\s[-–—])\s*", text.strip()) if p.strip()]
    asks = [i for i, p in enumerate(parts) if (m := re.match(ASKING, p, re.I)) and not leftover(m.group("rest"))]
    if len(asks) != 1 or len(parts) < 2:
        return None
    asked = parts[asks[0]]
    said = " ".join(p for i, p in enumerate(parts) if i != asks[0])
    every = next((e for e, said_so in EVERY.items() if re.search(said_so, f"{asked} {said}", re.I)), "")
    occasion = re.match(OCCASION, said, re.I)
    if occasion:  # "Dad's birthday is on 14 August", "my sister's wedding is on 19 December at 2pm": its title, its time
        when, _, _ = timing(occasion.group("date") or occasion.group("at"))
        task = title_of(occasion.group("title") or occasion.group("event"))
    else:
        when, said_every, rest = timing(from_now(said))
        every = said_every if said_every and (not every or re.search(EVERY[every], said_every, re.I)) else every or said_every
        task = re.sub(r"\s+(?:by|before|until|on|at|for)$", "", re.sub(SUBJECT, "", rest, flags=re.I).strip(" ,."), flags=re.I)
        task = re.sub(r"^(?:i|we)\s+(?=[a-z]+\s+\w)", "", task, flags=re.I)  # "I play five-a-side": the thing done (rule 204)
    if not (when or every) or not task or re.match(r"(?:i|we|you|it|that)\b", task, re.I):
        return None
    return [Intent("schedule", {"task": task, "when": f"{when} {every}".strip(), "clause": f"{when} {every}".strip()})]


def leftover(rest: str) -> str:
    """What an asking clause says beyond where, how often and politeness ("" when nothing)."""
    rest = re.sub(AROUND, " ", rest, flags=re.I)
    for said_so in EVERY.values():
        rest = re.sub(said_so, " ", rest, flags=re.I)
    return re.sub(r"\W+", "", rest)


def from_now(text: str) -> str:
    """"45 minutes from now" said as "in 45 minutes", the way a delay is read."""
    return re.sub(r"\b((?:\d+(?:\.\d+)?|an?|half an?|one|two|three|four|five|ten|twenty|thirty)\s+(?:minutes?|mins?|hours?|hrs?))"
                  r"\s+from now\b", r"in \1", text, flags=re.I)


def title_of(occasion: str) -> str:
    """"my sister Lena's birthday" is "Lena's birthday", "our wedding anniversary" is "Wedding anniversary"."""
    named = re.search(r"\b([A-Z][a-z]+(?:'s)?\s+(?:birthday|bday|anniversary|name ?day))$", occasion)
    title = named.group(1) if named else re.sub(r"^(?:my|our|the)\s+", "", occasion.strip(), flags=re.I)
    return title[0].upper() + title[1:]


SPAN = r"(?P<n>\d+(?:\.\d+)?)[ -]?(?P<unit>seconds?|secs?|s|minutes?|mins?|m|hours?|hrs?|h)\b"
LABEL = r"(?:the |my |a |an )?(?P<label>[a-z][\w' ]*?)"
TIMERS = (rf"^\W*{LABEL}\s+timer\s*(?:[:,]|\s-|for)?\s*{SPAN}\W*$",  # "Tea timer: 4 min", "eggs timer for 7 mins"
          rf"^\W*(?:(?:please|pls|can you|could you)\s+)?(?:set|start|make)?\s*(?:an? |the )?timer for {LABEL}\s*(?:[:,]|\s-)?\s*{SPAN}\W*$",
          rf"^\W*(?:(?:please|pls|can you|could you)\s+)?(?:set|start|make)?\s*(?:an? )?{SPAN}\s+timer\s+for\s+{LABEL}\W*$",  # "a 4 minute timer for tea"
          rf"^\W*{LABEL}\s*(?:[:,]|\s-)\s*(?:an? )?{SPAN}\s+timer\W*$")  # "Pizza: 12 min timer"
UNITS = {"s": "seconds", "sec": "seconds", "m": "minutes", "min": "minutes", "h": "hours", "hr": "hours"}


def terse_timer(text: str) -> list | None:
    """A timer asked tersely is a task due after its span (rule 193): "Tea timer: 4 min", "timer for the rice, 15 minutes",
    "a 3 min timer for eggs" schedule tea, rice, eggs in 4, 15, 3 minutes; never the span as the label."""
    said = next((m for pattern in TIMERS if (m := re.match(pattern, text.strip(), re.I))), None)
    if not said or re.fullmatch(r"(?:set|start|make|a|an|the|my)", said.group("label").strip(), re.I):
        return None
    unit = said.group("unit").lower().rstrip("s") or "s"
    unit = UNITS.get(unit, unit + "s")
    span = f"in {said.group('n')} {unit[:-1] if said.group('n') == '1' else unit}"
    return [Intent("schedule", {"task": said.group("label").strip(), "when": span, "clause": span})]
