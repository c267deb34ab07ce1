"""Scheduled entries by the user's name for them (rules 145-148).

Two ideas, each one function:
- *called off in any words*: "stop the swim thing", "I'm not going to book club", "drop swim", "swimming is off",
  "get rid of the X reminder": with a tool that cancels scheduled work offered, a request to take an entry away
  is a cancel, never a new entry and never a memory delete (plan.py calls `called_off` once);
- *the title it is listed under*: the user's words ("gym session", "the plant watering reminder") matched to the
  titles the tools list (in a description, an enum, a listing or an error that names them): "gym", "water plants".
"""
import re

from .timing import timing
from .toolbox import role_of, stem
from .understand import Intent

# Words that name the kind of entry or when it is, not which one it is ("the gym thing on Thursday" is "gym").
KIND_WORDS = {"the", "a", "an", "my", "our", "your", "this", "that", "these", "those", "thing", "things", "stuff",
              "session", "reminder", "event", "entry", "appointment", "task", "job", "alarm", "booking", "slot", "item",
              "one", "to", "for", "on", "at", "of", "in", "and", "it", "calendar", "schedule", "agenda", "diary",
              "planner", "today", "tomorrow", "tonight", "week", "weekend", "next", "every", "morning", "evening",
              "afternoon", "night", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"}
SCHEDULED_NOUNS = (r"\b(?:reminders?|events?|sessions?|class(?:es)?|lessons?|meetings?|appointments?|bookings?|alarms?|"
                   r"jobs?|tasks?|to-?dos?|practices?|thing|stuff|slots?|entry|entries)\b")
LEAD = r"^\W*(?:(?:please|pls|can you|could you|would you|just|ok|okay|and|so|now|then|oh|also|i (?:need|want) you to)\s+)*"
TAKE_AWAY = (r"cancel|call off|forget about|(?:take|tick|cross|knock)(?=\s.+\b(?:off|out|away)\b)|drop|scrap|ditch|bin|nix|axe|kill|stop(?! (?:at|by|in|off)\b)|remove|delete|clear|get rid of|scratch|strike|"
             r"cross off|take (?:out|off|away|down)|skip")
PLACES = r"(?:\s+(?:from|off|out of)\s+(?:the |my |our )?(?:calendar|agenda|diary|schedule|planner|list|queue))"
AWAY = r"(?:\s+(?:off|out|away))"
EVENT_VERBS = r"cancel|call off|skip|stop|take (?:out|off)"  # words that only scheduled work is taken away with
POINTERS = (r"(?:it|that|this|them|those|that one|this one|(?:that|this) (?:job|reminder|event|task|entry|thing|appointment|"
            r"meeting|booking|alarm|item)s?)")
ENDING = r"(?:,?\s+(?:please|pls|thanks|for me|any ?more|now|too))*\W*$"


def root(word: str) -> str:
    """A word as its entry title may spell it: plants -> plant, watering -> water, swimming -> swim."""
    word = stem(word.lower())
    for ending in ("ing", "ed"):
        if word.endswith(ending) and len(word) > len(ending) + 2:
            word = word[:-len(ending)]
            if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz":
                word = word[:-1]  # swimm -> swim
            break
    return word


FUNCTION_WORDS = {"with", "about", "from", "by", "into", "me", "i", "his", "her", "their", "its"}  # "the call with mom" is "call mom"


def named_words(text: str) -> set:
    """The words of a name that say which entry it is (its kind, its time and function words left out)."""
    return {root(w) for w in re.findall(r"[a-z]{2,}", text.lower().replace("'s", "")) if w not in KIND_WORDS | FUNCTION_WORDS}


def matched_title(what: str, titles: list) -> str | None:
    """The one listed title that shares the most words with the user's name for it ("gym session": "gym", "the plant
    watering reminder": "water plants"); None when none shares a word or two share as many."""
    said = named_words(what)
    scored = sorted(((len(said & named_words(t)), t) for t in dict.fromkeys(titles)), key=lambda s: -s[0])
    if not scored or not scored[0][0] or (len(scored) > 1 and scored[1][0] == scored[0][0]):
        return None
    return scored[0][1]


LISTED = (r"\b(?:[a-z]+ )?(?:events?|entries|reminders?|jobs?|tasks?|titles?|items?|to-?dos?|appointments?|bookings?|alarms?|"
          r"names?)\s*(?:are|include|is)?\s*:\s*(?P<items>[^.:\n]+?)(?:\.(?:\s|$)|\n|$)")


def titles_in(text: str, fewest: int = 1, bare: bool = True) -> list:
    """The titles a text lists after a label and a colon ("Existing events: standup, water plants, gym." or
    "Error: no event 'x'; Known: standup, gym"), each a few words; [] when it lists fewer than two. A list after a
    bare colon counts only where `bare` (a tool's answer; in a description, "for later: once, or every N minutes"
    is how the tool works, not what is listed)."""
    labelled = [found.group("items") for found in re.finditer(LISTED, text or "", re.I)]
    unlabelled = re.findall(r"[:]\s*([^:\n]+?)\.?\s*$", text or "") if bare else []
    for at, items in enumerate(labelled + unlabelled):  # else after the last colon
        items = [i.strip(" '\"‘’“”.") for i in re.split(r"\s*(?:,|;|\bor\b|\band\b)\s*", items)]
        items = [i for i in items if i and len(i.split()) <= 4]
        if len(items) >= (fewest if at < len(labelled) else 2):  # "Events: Board meeting" names one; a bare colon needs a list
            return items
    return []


def listed_titles(turn, tool) -> list:
    """Every title the tools say is there before any is called: the entry parameter's enum of `tool` and any tool's
    description (an error that names what there is is read after the call, with `titles_in`)."""
    enums = [v for p, spec in tool.params.items() if isinstance(spec, dict) and isinstance(spec.get("enum"), list)
             and role_of(p, spec, {"task": 1, "id": 1, "repeat": 1, "when": 1}) in ("task", "id") for v in spec["enum"]]
    return [str(t) for t in enums + [t for other in turn.tools for t in titles_in(other.description, fewest=2, bare=False)]]


def one_of(titles: list) -> str:
    return ", ".join(titles[:-1]) + f" or {titles[-1]}" if len(titles) > 1 else "".join(titles)


def taken_away(text: str) -> tuple[str, str] | None:
    """What a message asks to take off the schedule, in any words, and how sure the words are that it is scheduled
    work: "scheduled" (a verb only scheduled work is taken away with, or an entry's noun), "named" (a generic verb:
    "drop swim"), "guessed" (only "take that off" after a statement, whose words may name an entry); None if none."""
    parts = [p for p in re.split(r"\s*(?:[,;.!]|\s[-–—])\s*(?:(?:and|so|but)\s+)?", text.strip()) if p.strip()]
    named, how, pointed, others = None, "named", False, []
    for part in parts:
        if re.match(rf"{LEAD}(?:{TAKE_AWAY})\s+{POINTERS}{AWAY}?{PLACES}?{ENDING}", part, re.I):
            pointed = True  # "take that off", "get rid of it": what it is was said in another clause
            continue
        verb = re.match(rf"{LEAD}(?:{TAKE_AWAY})\s+(?:(?:the|my|our|that|this)\s+)?(?P<what>.+?){AWAY}?{PLACES}?{ENDING}", part, re.I)
        if verb and named is None and not re.match(r"(?:doing|being|talking|it|that)\b", verb.group("what"), re.I):
            what = verb.group("what")
            sure = re.match(rf"{LEAD}(?:{EVENT_VERBS})\b", part, re.I) or re.search(SCHEDULED_NOUNS, what, re.I)
            return clean(what), "scheduled" if sure else "named"
        said = (re.match(rf"{LEAD}(?:i'm|i am|we're|we are|i|we)\s+(?:not|won't be|will not be|am not)\s+(?:going|coming|doing|"
                         rf"attending|making it)\s+(?:to\s+)?(?P<what>.+?){ENDING}", part, re.I)
                or re.match(rf"{LEAD}(?:i'm|i am|we're|we are)\s+(?:skipping|dropping|missing|ditching)\s+(?P<what>.+?){ENDING}", part, re.I)
                or re.match(rf"{LEAD}(?:i'll|i will|we'll|we will|i'm going to|i am going to|gonna)\s+(?:skip|miss|drop|ditch)\s+"
                            rf"(?P<what>.+?){ENDING}", part, re.I)
                or re.match(rf"{LEAD}(?:i|we)\s+(?:can't|cannot|can not|won't)\s+make\s+(?:it\s+(?:to\s+)?)?(?P<what>.+?){ENDING}", part, re.I)
                or re.match(rf"{LEAD}(?:i|we)\s+(?:don't|do not|no longer|won't|will not)\s+(?:need|want)\s+(?P<what>.+?)"
                            rf"(?:\s+(?:any ?more|now|again))?{ENDING}", part, re.I)
                or re.match(rf"{LEAD}no more\s+(?P<what>.+?){ENDING}", part, re.I)
                or re.search(rf"(?:^\W*|\b(?:so|and|then)\s+)no\s+(?P<what>[a-z]+ing\b.*?){ENDING}", part, re.I)  # "so no running this week"
                or re.match(rf"{LEAD}(?P<what>(?:the |my |our )?[a-z][\w' ]*?)\s*(?:(?:is|'s|are|has been|have been|'s been|got|was|were)\s+"
                            rf"(?:off|cancell?ed|called off|not happening|no longer needed|not needed(?: any ?more)?|not on)|"
                            rf"(?:isn't|is not|aren't|are not|won't be)\s+(?:happening|on|going ahead|needed))"
                            rf"(?:\s+(?:this|next|for|on|tomorrow|today|tonight|now)\b[^,]*)?{ENDING}", part, re.I))
        if said and named is None:
            named = said.group("what")
            how = ("guessed" if re.search(r"\b(?:going|coming|doing|making it) (?:to )?(?!the |my |our )|\bmake (?!it\b|the |my |our )",
                                          part, re.I)  # "I'm not going to eat meat", "I can't make pasta": no entry named
                   else "named" if re.search(r"\b(?:need|want|no more)\b", part, re.I) else "scheduled")
        elif not said:
            others.append(part)
    others = [o for o in others if not re.fullmatch(r"(?:\W*(?:actually|hmm+|no|nope|ok|okay|oh|wait|sorry|on second thought)\W*)+", o, re.I)]
    if named is None and pointed and not others:
        return "", "pointed"  # "actually, cancel it": what was scheduled just before
    if named is None and pointed and len(others) == 1:  # "I already booked the flights, take that off"
        return clean(re.sub(r"^\W*(?:i|we)(?:'ve| have)?\s+(?:already\s+|just\s+)?", "", others[0], flags=re.I)), "guessed"
    if named is None or re.fullmatch(POINTERS, named.strip(), re.I):
        return None
    return clean(named), "scheduled" if pointed or re.search(SCHEDULED_NOUNS, named, re.I) else how


def clean(what: str) -> str:
    """The entry's name without its time ("the gym thing on thursday" is "gym thing") or an article."""
    _, _, words = timing(what)
    words = re.sub(r"\s+(?:thing|stuff)\b|\s+(?:this|next|that)(?:\s+(?:week|weekend|time|month))?\s*$", "", words or what, flags=re.I)
    return re.sub(r"^(?:the|my|our|that|this)\s+", "", words.strip(" ,.!?'\""), flags=re.I) or what


MEMORY_ASK = r"\b(?:forget\w*|unlearn\w*|memor\w+|remember\w*|notes?|on file|you know|about me)\b"
ADDING = r"\b(?:remind|ping|nudge|add|put|schedule|book|set|create|plan|make|pencil)\b"
READ_OTHERWISE = {"unknown", "forget", "schedule", "remember", "not_so", "none", "reminder", "unscheduled", "pointer"}


def called_off(turn, intents: list) -> list | None:
    """A request to take an entry off the schedule, read as a cancel when a tool that cancels is offered: the other
    readings (a new event, a memory delete, a statement) are never the user's meaning. With a memory delete offered, a
    memory verb ("forget my X") stays a memory delete; a name no tool lists is cancelled only when the words say it is
    scheduled, or a generic verb has no memory delete beside it."""
    tool = turn.tool("cancel")
    memory = re.search(MEMORY_ASK, turn.text, re.I)
    if tool is None or any(i.kind in ("cancel", "move") for i in intents) or \
            not all(i.kind in READ_OTHERWISE for i in intents) or (memory and turn.tool("forget")):
        return None
    found = taken_away(turn.text)
    if not found:
        return None
    what, how = found
    if how == "pointed":  # "cancel it" after "Scheduled: yoga (Friday at 6pm)": the entry this chat just added
        just_added = re.match(r"Scheduled: (.+?)(?: \(|\.$)", turn.last_reply)
        what, how = (just_added.group(1), "scheduled") if just_added else ("", "")
        if not what:
            return None
    listed = matched_title(what, listed_titles(turn, tool)) or (how == "guessed" and any(
        "id" in p.lower() for p in tool.required))  # an id is looked up in the listing, which says whether anything matches
    if any(i.kind in ("schedule", "reminder") for i in intents) and re.search(ADDING, turn.text, re.I) and not listed:
        return None  # "drop the kids at school at 8, put it in the calendar": a new entry asked for in so many words
    if listed or (not memory and (how == "scheduled" or how == "named" and not turn.tool("forget"))):
        return [Intent("cancel", {"what": what, "how": how})]
    return None


MOVER = r"\b(?:move[sd]?|reschedul\w*|postpone\w*|shift\w*|new (?:\w+ )?(?:start|time|date)|another (?:day|time))\b"
INSTEAD = (r"^\W*(?:(?:so|ok|okay|actually|hmm)\W+)*(?:(?:can|could|shall|should) (?:we|i|you) (?:do|have|hold|make|switch|put|move|"
           r"have) |(?:let's|let us|we'll|we will|i'll|i will|i'd rather) (?:do |have |hold |go to )?|(?:make|switch) )?"
           r"(?P<rest>.+?)\s+instead\W*$")


def moved_instead(turn, intents: list) -> list | None:
    """"Can we do the piano lesson on Sunday at 3 instead?", "let's have dinner with Kim on Saturday instead": an entry
    and a new time said with "instead" is a move, with a tool that moves offered (rule 152)."""
    mover = any(re.search(MOVER, f"{t.name.replace('_', ' ')} {t.description}", re.I) for t in turn.tools)
    said = re.match(INSTEAD, turn.text, re.I)
    if not mover or not said or not all(i.kind in READ_OTHERWISE for i in intents):
        return None
    when, every, what = timing(said.group("rest"))
    what = re.sub(r"^(?:the|my|our)\s+", "", what.strip(" ,"), flags=re.I)
    if not when or every or not what or re.match(r"(?:it|that|this|i|we|you|me|remind|ping|nudge|schedule|set|add|book|put|"
                                                 r"make|move|cancel|tell|ask)\b", what, re.I):
        return None  # "remind me on Friday instead" asks again; it names no entry to move
    return [Intent("move", {"what": what, "when": re.sub(r"^(?:on|at)\s+", "", when, flags=re.I), "said": turn.text})]
