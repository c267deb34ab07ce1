"""Time expressions in a request: when a task is due and how often it repeats, taken out of its words.

"tmrw remind me to email Jorge" -> when "tomorrow"; "yoga Thursdays 6:30pm" -> when "Thursday 6:30pm",
every "Thursday"; "stretch every 15 minutes" -> every "15 minutes". What is left is the task.
"""
import re

DAY = r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)"
MONTH = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|" \
        r"nov(?:ember)?|dec(?:ember)?)"
UNIT = r"(?:minute|min|hour|hr|day|week|fortnight|month|year)s?"
HOUR = r"\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d\d"
CLOCK = rf"(?:\d{{1,2}}(?::\d\d)?\s*[-–]\s*\d{{1,2}}(?::\d\d)?\s*(?:am|pm)\b|(?:{HOUR})(?:\s*[-–]\s*(?:{HOUR}|\d{{1,2}}))?|noon|midday|midnight|(?<=at )\d{{1,2}}\b(?![:.]\d))"
ORDINAL = r"(?:\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|fifth|last)"
EVERY = (rf"\b(?:(?:every|each|on) )?{DAY}s?(?:(?:,| and| &) {DAY}s?)+\b|(?:\bon )?(?:\bthe )?\b{ORDINAL} of (?:every|each) month\b|\b(?:every|each)\s+(?:other\s+|single\s+)?(?:\d+\s+{UNIT}|{UNIT}|{DAY}|weekday|weekend|morning|afternoon|"
         rf"evening|night|{ORDINAL}(?: of (?:the|every|each) month)?)\b|(?<!the )(?<!my )(?<!our )(?<!this )\b(?:daily|weekly|monthly|yearly|annually|hourly|"
         rf"nightly)\b|\b{DAY}s\b|\bon weekdays\b")
WHEN = (rf"\b(?:(?:tomorrow|tmrw|tmr) (?:morning|afternoon|evening|night)|tomorrow|tmrw|tmr|tonight|today|"
        rf"later(?: today| on| tonight)?|soon|in a (?:bit|while)|"
        rf"(?:on )?{DAY} (?:morning|afternoon|evening|night)|this (?:morning|afternoon|evening|weekend|{DAY})|next (?:{DAY}|week|month|year|weekend)|(?:on )?{DAY}|in (?:an?|one|half an|\d+(?:\.\d+)?) {UNIT}(?: and a half)?|"
        rf"(?:at |by )?{CLOCK}|(?:on )?(?:the )?{ORDINAL}(?: of {MONTH})?|(?:on )?{MONTH} {ORDINAL}|(?:on )?{MONTH} \d{{1,2}}\b|"
        rf"(?:on )?\d{{1,2}}(?:st|nd|rd|th)? (?:of )?{MONTH}\b|(?:on )?\d{{4}}-\d\d-\d\d\b|(?:on )?\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?\b|"
        rf"(?:in|at) the (?:morning|afternoon|evening))\b")
SHORT = {"tmrw": "tomorrow", "tmr": "tomorrow"}
from .grammar import NUDGE


def timing(text: str) -> tuple[str, str, str]:
    """(when, every, the text without them): the due time, the recurrence ("" when none), the task's words."""
    text = re.sub(r"\b(?:two|three|four|five|six|ten|fifteen|twenty|thirty)\b(?=\s+(?:minute|hour|day|week|month)s)",
                  lambda m: str(["two", "three", "four", "five", "six"].index(m.group().lower()) + 2)
                  if m.group().lower() in ("two", "three", "four", "five", "six")
                  else {"ten": "10", "fifteen": "15", "twenty": "20", "thirty": "30"}[m.group().lower()], text, flags=re.I)
    every = " ".join(m.group().strip() for m in re.finditer(EVERY, text, re.I))
    rest = re.sub(EVERY, " ", text, flags=re.I)
    found = [m for m in re.finditer(WHEN, rest, re.I) if not re.search(r"\b(?:about|of|re)\s+$", rest[:m.start()], re.I)
             or m is next(re.finditer(WHEN, rest, re.I))]  # "call grandma about sunday lunch": sunday is the lunch's
    found = [m for i, m in enumerate(found) if i == 0 or not re.search(r"\b(?:about|of|re)\s+$", rest[:m.start()], re.I)]
    when = " ".join(SHORT.get(m.group().lower(), m.group().strip()) for m in found)
    for m in reversed(found):  # "starting this saturday": the lead-in goes with the time it leads to
        lead = re.search(r"\b(?:starting|beginning|commencing|effective)(?: (?:on|from))?\s+$", rest[:m.start()], re.I)
        rest = rest[:lead.start() if lead else m.start()] + " " + rest[m.end():]
    return when.strip(), every.strip(), re.sub(r"\s+", " ", rest).strip(" ,.!")


def task_of(text: str) -> str:
    """The task in a scheduling request: its words without the asking ("add ... to my calendar", "remind me to")."""
    text = re.sub(r",?\s*(?:(?:can|could) you |please |pls )?(?:make sure|so) (?:that )?i (?:don't|do not|won't) forget\W*$|"
                  r",?\s*(?:labell?ed|called|titled)\s+(?=\w+\W*$)", " ", text, flags=re.I)  # leftover request words
    text = re.sub(rf"\b(?:i|we) (?:have|need|want|got|ought) to\b|\bi must\b|,?\s*(?:so|and|pls|please)?\s*{NUDGE} me"
                  r"(?: about it| of it)?\b|\b(?:by|before|until)\s*(?=,|$)", " ", text, flags=re.I)
    task = re.sub(rf"^\W*(?:(?:please|pls|can you|could you|can u|could u|hey|ok|okay|and|also)\W+)*(?:set up|set|add|put|schedule|"
                  r"book me|get me|book|create|make|enter|queue(?: up)?|plan|{NUDGE} me(?: to| about| of)?|"
                  r"don't let me forget(?: to)?|remember to)?\s*(?:an? )?(?:reminder|event|entry|job|task|nudge|alarm)?"
                  r"\s*(?:to|for|about)?\s+", " ", text, flags=re.I)
    task = re.sub(r"\b(?:to|on|in|into) (?:my|the) (?:calendar|agenda|schedule|queue|list|to-?do list|diary)\b|"
                  r"\b(?:please|pls|for me|thanks)\b|\bat\s*$|\bon\s*$", " ", task, flags=re.I)
    task = re.sub(r"^(?:a |an )?(?:recurring |repeating |regular |weekly |daily )?(?:thing|reminder|event|task|job|entry|"
                  r"something|alarm|note|slot)\W*(?:to|for|about)\s+", "", task.strip(" ,"), flags=re.I)
    task = re.sub(r"^\W*(?:(?:can you|could you|please|pls)\s+)*(?:put|pop|stick|pencil|write|jot) (.+?) (?:in|on|down)(?: for)?\s*$",
                  r"\1", task, flags=re.I)  # "put dentist in for friday 3:30"
    task = re.sub(r",?\s*(?:(?:can you|could you|please|pls)\s+)*(?:set (?:that|it|this) up|sort (?:that|it) out)\W*$", "", task,
                  flags=re.I)
    task = re.sub(r"^\W*(?:(?:i|we) (?:have|need|want|got|ought) to\s+|(?:i|we) (?:should|must)\s+|block (?:off|out)\s+|reserve\s+)",
                  "", task, flags=re.I)
    task = re.sub(r"[.,]?\s*(?:(?:can|could) (?:u|you)|pls|please)\s+(?:queue|schedule|add|book|set up|put|remember|do)\s+"
                  r"(?:that|it|this)(?: up| in| for me)?\W*$", "", task, flags=re.I)
    task = re.sub(r",?\s*(?:(?:can you|could you|please|pls)\s+)*(?:put|add|stick|pop|throw|get) (?:that|it|this)(?: in| on| down)?"
                  r"(?: (?:my|the) (?:calendar|diary|agenda|schedule|planner|list|queue|to-?do list))?\W*$|^\W*(?:is|are)\s+", "", task, flags=re.I)
    task = re.sub(r"^\W*(?:set up|set|add|put|schedule|book|create|make)\s+(?:a |an )?(?:recurring |repeating )?"
                  r"(?:thing|reminder|event|task|job|entry|something)\W*(?:to|for|about)?\s*", "", task, flags=re.I)
    task = re.sub(r"\s+(?:in|on) for$|\s+(?:for|on|at|by|in)$|^(?:me|us)\s+", "", re.sub(r"\s+", " ", task).strip(" ,.!:-"), flags=re.I)
    return task.strip(" ,.!:-")
