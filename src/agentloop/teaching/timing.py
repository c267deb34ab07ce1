"""Time expressions in a request: when a task is due and how often it repeats, taken out of its words.

"tmrw remind me to email Jorge" -> when "tomorrow"; "yoga Thursdays 6:30pm" -> when "Thursday 6:30pm",
every "Thursday"; "stretch every 15 minutes" -> every "15 minutes". What is left is the task.
"""
import re
from datetime import datetime, timedelta

DAY = r"(?:(?:mon|tues|wednes|thurs|fri|satur|sun)day|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun)"
MONTH = r"(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|" \
        r"nov(?:ember)?|dec(?:ember)?)"
UNIT = r"(?:minute|min|hour|hr|day|week|fortnight|month|year)s?"
HOUR = r"\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d\d"
CLOCK = rf"(?:\d{{1,2}}(?::\d\d)?\s*[-–]\s*\d{{1,2}}(?::\d\d)?\s*(?:am|pm)\b|(?:{HOUR})(?:\s*[-–]\s*(?:{HOUR}|\d{{1,2}}))?|noon|midday|midnight|(?<=at )\d{{1,2}}\b(?![:.]\d)|\d{{1,2}}(?= (?:tonight|tomorrow (?:morning|night|evening)|this evening)))"
ORDINAL = r"(?:\d{1,2}(?:st|nd|rd|th)|first|second|third|fourth|fifth|last)"
EVERY = (rf"\b(?:(?:every|each|on) )?{DAY}s?(?:(?:,| and| &) {DAY}s?)+\b|(?:\bon )?(?:\bthe )?\b{ORDINAL} of (?:every|each) month\b|\b(?:every|each)\s+(?:other\s+|alternate\s+|second\s+(?={DAY}|week|month|year)|single\s+)?(?:\d+\s+{UNIT}|{UNIT}|{DAY}|weekday|weekend|morning|afternoon|"
         rf"evening|night|{ORDINAL}(?: of (?:the|every|each) month)?)\b|(?<!the )(?<!my )(?<!our )(?<!this )\b(?:daily|weekly|monthly|yearly|annually|hourly|"
         rf"nightly|fortnightly|biweekly|bi-weekly)\b|\b{DAY}s\b|\bon week(?:day|end)s\b")
YEAR = r"(?:,? (?:20|19)\d\d\b)?"  # "December 5th 2026", "on 3 March, 2027": the year is the date's, never the task's
WHEN = (rf"\b(?:(?:the )?day after (?:tomorrow|tmrw|tmr)|(?:on )?(?:the )?{ORDINAL} of next month|(?:tomorrow|tmrw|tmr) (?:morning|afternoon|evening|night)|tomorrow|tmrw|tmr|tonight|today|"
        rf"later(?: today| on| tonight)?|soon|in a (?:bit|while)|"
        rf"(?:on )?{DAY} (?:morning|afternoon|evening|night)|this (?:morning|afternoon|evening|weekend|{DAY})|next (?:{DAY}|week|month|year|weekend)|(?:on )?{DAY}|in (?:an?|one|half an|\d+(?:\.\d+)?) (?:{UNIT}|sec(?:ond)?s?\b)(?: and a half)?|"
        rf"(?:at |by )?{CLOCK}|(?:on )?(?:the )?{ORDINAL}(?: of {MONTH})?{YEAR}|(?:on )?{MONTH} {ORDINAL}{YEAR}|(?:on )?{MONTH} \d{{1,2}}\b{YEAR}|"
        rf"(?:on )?\d{{1,2}}(?:st|nd|rd|th)? (?:of )?{MONTH}\b{YEAR}|(?:on )?\d{{4}}-\d\d-\d\d\b|(?:on )?\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?\b|"
        rf"(?:in|at) the (?:morning|afternoon|evening)|(?<=runs )\d{{1,2}}(?::\d\d)?\s*[-–]\s*\d{{1,2}}(?::\d\d)?)\b")
SHORT = {"tmrw": "tomorrow", "tmr": "tomorrow"}
from .grammar import ASKING, NUDGE


HOURS_SAID = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
HOUR_SAID = rf"(?P<h>1[0-2]|[1-9]|{'|'.join(HOURS_SAID)})"


def spoken_clock(text: str) -> str:
    """A clock time said in words, as digits: "half past ten" and (British) "half ten" are 10:30, "quarter past
    six" 6:15, "quarter to five" 4:45, "seven o'clock" 7:00. The part of the day ("in the morning", "pm") stays."""
    def hour(match) -> int:
        said = match.group("h").lower()
        return HOURS_SAID.index(said) + 1 if said in HOURS_SAID else int(said)

    text = re.sub(rf"\bhalf(?: past)? {HOUR_SAID}\b(?! (?:minute|hour|day|week|month|year)s?\b)", lambda m: f"{hour(m)}:30", text, flags=re.I)
    text = re.sub(rf"\bquarter past {HOUR_SAID}\b", lambda m: f"{hour(m)}:15", text, flags=re.I)
    text = re.sub(rf"\bquarter to {HOUR_SAID}\b", lambda m: f"{(hour(m) - 2) % 12 + 1}:45", text, flags=re.I)
    text = re.sub(r"\b(\d{1,2})\.(\d\d)\s*(?=(?:am|pm|a\.m\.|p\.m\.)(?!\w))|(?<=\bat )(\d{1,2})\.(\d\d)\b",
                  lambda m: f"{m[1] or m[3]}:{m[2] or m[4]}", text, flags=re.I)  # "8.30am", "at 7.45": a clock, not a decimal
    return re.sub(rf"\b{HOUR_SAID} o'?clock\b", lambda m: f"{hour(m)}:00", text, flags=re.I)


# Days named rather than dated (rule 202): a fixed-date holiday is its date; a movable one, or a personal day, is asked.
APOS = "['’]?s?['’]?"
FIXED_DAYS = {rf"new year{APOS} eve|hogmanay": (12, 31), rf"new year{APOS} day|new year{APOS}(?= |$)": (1, 1),
              rf"valentine{APOS}(?: day)?": (2, 14), rf"(?:st\.? |saint )?patrick{APOS} day": (3, 17),
              rf"april fool{APOS}(?: day)?": (4, 1), "halloween|hallowe'en": (10, 31), "christmas eve": (12, 24),
              "christmas(?: day)?|xmas(?: day)?": (12, 25), "boxing day": (12, 26), "bonfire night|guy fawkes night": (11, 5),
              "groundhog day": (2, 2), "cinco de mayo": (5, 5), "juneteenth": (6, 19), "canada day": (7, 1),
              "bastille day": (7, 14), "(?:armistice|remembrance|veterans{APOS}) day".replace("{APOS}", APOS): (11, 11)}
MOVABLE_DAYS = (rf"\b(?:easter(?: sunday| monday)?|good friday|thanksgiving(?: day)?|mother{APOS} day|father{APOS} day|"
                rf"labou?r day|memorial day|president{APOS} day|(?:martin luther king|mlk)(?: jr\.?)? day|black friday|"
                r"cyber monday|diwali|hanukk?ah|chanukah|ramadan|eid(?: al[- ]\w+)?|passover|rosh hashanah|yom kippur|"
                r"(?:chinese|lunar) new year|ash wednesday|pentecost|mardi gras|shrove tuesday|pancake day|holi|"
                rf"super bowl sunday|election day|remembrance sunday)\b")
PERSONAL_DAY = (r"\b(?:my|our|his|her|their|[a-z]+'s) (?:birthday|bday|anniversary|wedding(?: day| anniversary)?|graduation|"
                r"name day|due date)\b")
TIMED = r"(?= *,? *(?:at \d|(?:at noon|at midnight|in the (?:morning|afternoon|evening)|morning|afternoon|evening|night)\b))"
ON_A_DAY = r"(?:(?<=\bfor )(?=[\w' ]+?\b{TIMED})|(?<=\bon )|(?<=\bto )|(?<=\bat )|(?<=\bthe day of )|^)(?:(?:this|next|the coming) )?".replace(
    "{TIMED}", TIMED)  # "by Christmas", "before Halloween": a deadline, no day to do it on
COUNTED_FROM = r"\b(?=\w+ (?:day|week)s? (?:before|after) )"  # "2 days before Halloween"
AROUND = r"(?:(?P<n>the|a|one|two|three|\d+) (?P<u>day|week)s? (?P<way>before|after) )?"
MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
               "November", "December"]


FIXED_NAMED = re.compile("|".join(f"(?P<g{i}>{name})" for i, name in enumerate(FIXED_DAYS)), re.I)
FIXED_SAID = re.compile(rf"(?:{ON_A_DAY}|{COUNTED_FROM}){AROUND}\b(?P<name>{FIXED_NAMED.pattern})\b"
                        r"(?:,? (?P<year>(?:20|19)\d\d)\b)?(?: (?P<part>morning|afternoon|evening|night)\b)?"
                        r"(?= *(?:$|[,.!?;:\-–]|at\b|remind|to\b|by\b|from\b|and\b|i\b|we\b|in the\b|this year|next year))", re.I)


def iso_apart(text: str) -> str:
    """An ISO date-time as the date and its clock: "due 2026-12-01T02:00" is "due 2026-12-01 at 02:00" (rule 220)."""
    return re.sub(r"\b(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d)(?::\d\d)?(?:Z|[+-]\d\d:?\d\d)?\b", r"\1 at \2", text)


def named_dates(text: str) -> str:
    """A day named by a fixed-date holiday, as its date: "on Christmas Eve at 6pm" is "on December 24 at 6pm", "the day
    after Boxing Day" "December 27" (rule 202). A name that leads a noun ("Christmas presents") is the task's."""
    if not FIXED_NAMED.search(text):  # most requests name no holiday: nothing to read
        return text

    def dated(m) -> str:
        month, day = list(FIXED_DAYS.values())[next(i for i in range(len(FIXED_DAYS)) if m[f"g{i}"])]
        count = {"the": 1, "a": 1, "one": 1, "two": 2, "three": 3}.get((m["n"] or "").lower()) or int(m["n"] or 0)
        shift = count * (7 if (m["u"] or "").lower() == "week" else 1) * (-1 if (m["way"] or "").lower() == "before" else 1)
        date = datetime(2001, month, day) + timedelta(days=shift)
        part = {"night": " in the evening"}.get((m["part"] or "").lower(), f" in the {m['part'].lower()}" if m["part"] else "")
        year = f" {m['year']}" if m["year"] and not shift else ""  # "Christmas Day 2026": that year's (rule 220)
        return f"{MONTH_NAMES[date.month - 1]} {date.day}{year}{part}"  # "Christmas morning": December 25 in the morning
    return FIXED_SAID.sub(dated, text)


A_DATE = (rf"\b{DAY}\b|\b{MONTH} \d|\d {MONTH}\b|\btomorrow\b|\btoday\b|\btonight\b|\d{{4}}-\d\d-\d\d|\d/\d|"
          r"\bin \d+ (?:day|week|month)s?\b|\bnext (?:week|month)\b|\d(?:st|nd|rd|th)\b")  # a day said, by date or by name


def day_of_the_title(task: str) -> str:
    """The day a title opens with, when it is a fixed-date holiday's event ("New Year's Eve party", "the Halloween
    parade"): "on December 31", else "" (a verb first, "buy Christmas crackers", is a task about it) (rule 202)."""
    for name in FIXED_DAYS:
        if re.match(rf"^(?:the |our |my |a )?(?:{name})\b(?!'s)", task, re.I):
            return named_dates(f"on {re.match(rf'^(?:the |our |my |a )?((?:{name}))', task, re.I).group(1)}")
    return ""


def month_and_day(value: str) -> str | None:
    """The month and day a remembered date holds ("14 March", "March 14th", "1990-03-14", "03/14"), as "March 14";
    None when it holds none, or only an order of numbers that could be read either way ("04/05")."""
    if said := re.search(rf"\b({MONTH}) (\d{{1,2}})|\b(\d{{1,2}})(?:st|nd|rd|th)? (?:of )?({MONTH})\b", value, re.I):
        name, day = (said[1], said[2]) if said[1] else (said[4], said[3])
        return f"{MONTH_NAMES[MONTHS.index(name[:3].lower())]} {int(day)}"
    if iso := re.search(r"\b\d{4}-(\d\d)-(\d\d)\b", value):
        return f"{MONTH_NAMES[int(iso[1]) - 1]} {int(iso[2])}"
    if (pair := re.search(r"\b(\d{1,2})[-/](\d{1,2})\b", value)) and (int(pair[1]) > 12) != (int(pair[2]) > 12):
        month, day = (int(pair[2]), int(pair[1])) if int(pair[1]) > 12 else (int(pair[1]), int(pair[2]))
        return f"{MONTH_NAMES[month - 1]} {day}" if month <= 12 else None
    return None


def undated_day(text: str) -> str | None:
    """A day the request names but no fixed date gives ("on Easter Sunday", "the day after Thanksgiving", "on my
    anniversary"), when the request gives no other date: said back to ask which date it is; None otherwise (rule 202)."""
    text = named_dates(text)
    found = re.search(rf"(?:{ON_A_DAY}|{COUNTED_FROM}){AROUND}(?:{MOVABLE_DAYS}|{PERSONAL_DAY})", text, re.I) or re.search(
        rf"\b(?:on|at|this|next|the day of) (?P<name>(?:[A-Z][a-z]+ )+Day)\b", text)  # "on Founders Day": a day of theirs
    if not found or re.search(A_DATE, text[:found.start()] + " " + text[found.end():], re.I):
        return None
    named = re.sub(r"\b(?:my|our)\b", "your", found.group().strip(), flags=re.I)
    return re.sub(r"^(?:on|at|this|next|the day of) ", "", named, flags=re.I)



def day_of_the_clock(when: str, whole: str, clause: str) -> str:
    """A clock time with the day the clause says apart from it: "On Friday remind me at 11pm", "On New Year's Eve remind
    me at 11pm" are that day at 11pm, never today's (rule 202); a deadline ("by June 30") is no day of the clock."""
    rest = whole.replace(when, " ").strip() if when and when in whole else ""
    if not rest or clock_of(rest) or not clock_of(when) or re.search(rf"\b{DAY}\b|\b{MONTH}\b|\d{{4}}|\btomorrow\b|\btoday\b|"
                                                                     r"\btonight\b|\d(?:st|nd|rd|th)\b|\bin \d", when, re.I):
        return when
    bare = re.sub(r"^(?:on|at|by|before|until|till)\s+", "", rest, flags=re.I)
    deadline = re.search(rf"\b(?:by|before|until|till)\s+(?:the\s+)?{re.escape(bare)}", named_dates(clause), re.I)
    return when if deadline else f"{rest} {when}"


A_THING = r" (?!(?:at|on|in|by|around|and|or|of|to|for|every|each)\b)[a-z]+"  # "morning run": a thing done then, not a time
MORNING_THINGS = rf"\b(?:wake|wakes|waking|woken|wake-?up|get(?:ting)? (?:me |us )?up|out of bed|alarm|breakfast|sunrise|morning(?={A_THING}))\b"
EVENING_THINGS = rf"\b(?:dinner|supper|party|drinks|concert|gig|bedtime|go(?:ing)? to (?:bed|sleep)|dusk|sunset|(?:evening|night)(?={A_THING}))\b"
BARE_HOUR = (r"(?:(?<=\bat )|(?<=\bby )|(?<=\baround ))(?P<h>[1-9]|1[01])(?P<m>:\d\d)?\b|(?<![\d:])(?P<h2>[1-9]|1[01])(?P<m2>:\d\d)\b|"
             r"(?<=\bfor )(?P<h3>[1-9]|1[01])\b(?=\s*(?:$|[,.!?]|tomorrow|tonight|on\b|every|each|\w+day\b))")  # "alarm for 6", not "for 4 people"
NOT_A_CLOCK = r"(?!\s*(?:am|pm|a\.m|p\.m|[:.]?\d|%|\s*(?:minute|min|hour|hr|day|week|month|year|o'clock)s?\b))"


def half_of_day(text: str, context: str = "") -> str:
    """A clock time with no am/pm, read by what is done at it: "wake me up at 6:15", "alarm for 5:30", "breakfast at 7"
    are in the morning, "dinner at 8", "bedtime at 10" in the evening, written as said with am/pm (rule 203). With
    neither or both kinds of thing, the text is as it was (rule 151's default then holds)."""
    said = f"{text}. {context}"  # the time's own words, or the clause it came from ("wake me | at 5:50 tomorrow")
    morning, evening = re.search(MORNING_THINGS, said, re.I), re.search(EVENING_THINGS, said, re.I)
    if bool(morning) == bool(evening):
        return text
    late = bool(re.search(r"\bbed(?:time)?\b|\bsleep\b", said, re.I))  # "go to bed at 1" is after midnight

    def half(m) -> str:
        hour = int(m.group("h") or m.group("h2") or m.group("h3"))
        return m.group() + ("am" if morning or late and hour <= 4 else "pm")
    return re.sub(f"(?:{BARE_HOUR}){NOT_A_CLOCK}", half, text, flags=re.I)


def clock_as_sent(phrase: str) -> str:
    """A reply's time as the call carried it: "at 5" sent as 17:00 is said "at 5pm", "at 6:15" sent as 06:15 "at 6:15am"
    (rule 203): never a time the call did not carry."""
    found, clock = re.search(f"(?:{BARE_HOUR}){NOT_A_CLOCK}", phrase, re.I), clock_of(phrase)
    if not found or not clock:
        return phrase
    minutes = f":{clock[1]:02d}" if clock[1] or ":" in found.group() else ""
    return f"{phrase[:found.start()]}{clock[0] % 12 or 12}{minutes}{'am' if clock[0] < 12 else 'pm'}{phrase[found.end():]}"

QUOTE = r"(?<!\w)[\"“‘'][^\"“”’']*?\d[^\"“”’']*[\"”’'](?!\w)"  # a quote with a number in it: "reply 'see you at 5'"


def timing(text: str) -> tuple[str, str, str]:
    """(when, every, the text without them): the due time, the recurrence ("" when none), the task's words. A time
    inside quotes is words to say or write, not when: "remind me to text her 'see you at 5' tomorrow at 8am"."""
    quotes = re.findall(QUOTE, text)
    if quotes:
        when, every, rest = timing(re.sub(QUOTE, lambda m: f"quoted{quotes.index(m.group())}", text))
        return when, every, re.sub(r"\bquoted(\d+)\b", lambda m: quotes[int(m.group(1))], rest)
    text = half_of_day(named_dates(spoken_clock(iso_apart(hedges_dropped(spelled_durations(text))))))  # "on Christmas Eve" is "on December 24", "wake me at 6" 6am (202, 203)
    text = re.sub(r"\b(?:in )?a fortnight(?:'s time)?\b", "in 2 weeks", text, flags=re.I)  # "in a fortnight" is 14 days
    text = re.sub(r"\b(?:two|three|four|five|six|ten|fifteen|twenty|thirty)\b(?=\s+(?:minute|hour|day|week|month)s)",
                  lambda m: str(["two", "three", "four", "five", "six"].index(m.group().lower()) + 2)
                  if m.group().lower() in ("two", "three", "four", "five", "six")
                  else {"ten": "10", "fifteen": "15", "twenty": "20", "thirty": "30"}[m.group().lower()], text, flags=re.I)
    text = said_plainer(text)  # "a week from today" is "in 1 week", "this weekend" Saturday (rule 175)
    in_month, text = day_in_month(text)  # "the first Monday of next month", "the last day of every month" (rule 175)
    every = " ".join(m.group().strip() for m in re.finditer(EVERY, text, re.I))
    every = " ".join(filter(None, [f"on {in_month}" if re.search(r"\b(?:every|each) month\b", in_month) else "", every]))
    rest = re.sub(EVERY, " ", text, flags=re.I)
    found = [m for m in re.finditer(WHEN, rest, re.I)  # "call grandma about sunday lunch": sunday is the lunch's
             if not re.search(r"\b(?:about|of|re)\s+$", rest[:m.start()], re.I)]  # ("about 4pm" is a time: hedges_dropped)
    when = " ".join(filter(None, [in_month * (in_month not in every)] + [SHORT.get(m.group().lower(), m.group().strip())
                                                                                      for m in found]))
    for m in reversed(found):  # "starting this saturday": the lead-in goes with the time it leads to
        lead = re.search(r"\b(?:starting|beginning|commencing|effective|runs)(?: (?:on|from))?\s+$", rest[:m.start()], re.I)
        rest = rest[:lead.start() if lead else m.start()] + " " + rest[m.end():]
    return when.strip(), every.strip(), re.sub(r"\s+", " ", rest).strip(" ,.!")


CLOCK_LIKE = (r"(?:\d{1,2}(?::\d\d)?\s*(?:am|pm|a\.m\.|p\.m\.)|\d{1,2}:\d\d|noon|midnight|"
              r"\d{1,2}(?=\s*(?:$|[,.!?;)]|o'clock|tomorrow|tonight|on\b|in the\b)))")
HEDGE = r"\b(?:(?:let'?s |lets )?say\s+)?(?:about|around|roughly|approximately|approx\.?|circa|somewhere around)\s+"
AFTER_THAT = (r",?\s+and\s+(?:then\s+)?(?P<every>(?:every|each)\s+(?:\w+\s+)?\w+|daily|weekly|monthly|yearly)\s+"
              r"(?:after(?:wards)?(?:\s+(?:that|this|it))?|from then on|from then onwards?|from there on|thereafter|onwards?|on)\b")


READ_IN_WORDS = [  # rule 309: lengths of time "in ..." already reads in words, so a free-text time keeps them so
    (r"\b(?:an?|one) hour and a half\b", "90 minutes"),
    (r"\b(?:a )?half(?: an|-an| a)? hour\b", "30 minutes"),
]
SPELLED_DURATIONS = [  # rule 309: lengths of time said in words that nothing else reads, as a count
    (r"\b(?:a )?three quarters of an hour\b", "45 minutes"),
    (r"\b(?:a )?quarter(?: of an|-an| an)? hour\b", "15 minutes"),
    (r"\ba couple(?: of)? (minute|hour|day|week)s\b", r"2 \1s"),
]
LENGTH = r"\d+(?:\.\d+)?|an?|one|two|three|four|five|ten|twenty|half an|(?:an?|one) hour and a"


def spelled_durations(text: str, rules=SPELLED_DURATIONS) -> str:
    """"a quarter of an hour", "three quarters of an hour", "a couple of minutes" as counts (15, 45 and 2 minutes), and
    "<so long> from now" as "in <so long>" (`ahead`)."""
    for said, count in rules:
        text = re.sub(said, count, text, flags=re.I)
    return ahead(text)


def ahead(text: str) -> str:
    """"<so long> from now", wherever it is said, as "in <so long>": "Two hours from now, ..." (rule 309) and "remind me to
    call the bank 2 hours from now" (rule 344), so the time is read and the task keeps none of it."""
    for said, count in SPELLED_DURATIONS:  # "... a quarter of an hour from now": 15 minutes
        text = re.sub(rf"{said}(?= from now\b)", count, text, flags=re.I)
    return re.sub(rf"(?<!\bof )(?<!\band )\b({LENGTH}) (minute|min|hour|hr|half|day|week)(s?) from now\b(?! on\b)", r"in \1 \2\3", text, flags=re.I)


def hedges_dropped(text: str) -> str:
    """A time said loosely is the time said (rule 296): "let's say about 4pm" is at 4pm, "7ish" and "7-ish" 7, "in about
    20 minutes" in 20 minutes, "around noon" at noon; and "..., and then every day after" is the recurrence of the time
    before it ("tomorrow at 8am every day"). A number that is no clock ("about 5 people") is left as it is."""
    text = re.sub(r"(\d(?::\d\d)?\s*(?:am|pm)?|noon|midnight)\s*-?ish\b", r"\1", text, flags=re.I)
    text = re.sub(rf"\b(in|for|at|by|until|till)\s+{HEDGE}", r"\1 ", text, flags=re.I)  # "in about 20 minutes", "at around 5"
    text = re.sub(rf"(?:\s*,)?\s*{HEDGE}(?={CLOCK_LIKE})", " at ", text, flags=re.I)
    return after_that_joined(text)


def after_that_joined(text: str) -> str:
    """"... tomorrow at 8am and then every day after (that)", "... and every week from then on": the recurrence of the time
    said before it, one request ("tomorrow at 8am every day"), never a second clause."""
    return re.sub(AFTER_THAT, lambda m: f" {m['every']}", text, flags=re.I)


QUOTED_TASK = (r"^\W*(?:(?:please|pls|can you|could you|hey|ok|okay)\W+)*(?:add|put|schedule|book|create|set up|enter|queue|pencil in|"
               r"jot down|stick|pop)\s+(?:(?:an?|the) )?(?:(?:reminder|task|to-?do|event|item|entry|job)\s+)?"
               r"(?:(?:called|titled|named|for|to|saying)\s+)?[\"“‘']"
               r"(?P<task>[^\"“”]+?)[\"”’'](?=[\s,.!?;:]|$)")  # the closing quote is one no letter follows: "mum's" stays whole


SAID_WORDS = r"(?<=\s)[\"“‘'][^\"“”’']{2,}[\"”’'](?!\w)"  # a quote after a word: words to say or write


IN_MONTH = (rf"\b(?:on )?(?:the )?(?P<nth>first|second|third|fourth|last|1st|2nd|3rd|4th) (?P<day>{DAY}|day|weekday) of "
            rf"(?P<which>next|this|the|every|each) month\b")
NTH = {"first": 1, "1st": 1, "second": 2, "2nd": 2, "third": 3, "3rd": 3, "fourth": 4, "4th": 4, "last": -1}


COUNT_WORDS = {"a": "1", "an": "1", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6", "ten": "10"}


def said_plainer(text: str) -> str:
    """Times said another way, as the forms below read them: "a week from today" is "in 1 week", "3 days from now"
    "in 3 days", "this weekend" (also "at/on the weekend") is Saturday, "(by) the end of the month" its last day."""
    text = re.sub(r"\b(an?|one|two|three|four|five|six|ten|\d+) (day|week|month)s? from (?:today|now)\b",
                  lambda m: f"in {COUNT_WORDS.get(m[1].lower(), m[1])} {m[2]}" + "s" * (COUNT_WORDS.get(m[1].lower(), m[1]) != "1"),
                  text, flags=re.I)
    text = re.sub(r"\b(?:this|at the|on the|over the) weekend\b", "on Saturday", text, flags=re.I)
    return re.sub(r"\b(?:by |at |before )?the end of (?:the|this) month\b", "on the last day of the month", text, flags=re.I)


def day_in_month(text: str) -> tuple[str, str]:
    """("the first monday of next month", the text without it): a day counted inside a month, else ("", text)."""
    found = re.search(IN_MONTH, text, re.I)
    if not found:
        return "", text
    said = f"the {found['nth'].lower()} {found['day'].lower()} of {found['which'].lower()} month"
    return said, text[:found.start()] + " " + text[found.end():]


def date_in_month(text: str, now: datetime):
    """The date "the first monday of next month", "the last day of the month" names: in this month unless it has
    passed (or "next month" is said), then in the next; None when the text names none."""
    found = re.search(IN_MONTH, text, re.I)
    if not found:
        return None
    first = now.date().replace(day=1)
    months = [(first.replace(day=28) + timedelta(days=4)).replace(day=1)] if found["which"].lower() == "next" else \
        [first, (first.replace(day=28) + timedelta(days=4)).replace(day=1)]
    for start in months:
        end = (start.replace(day=28) + timedelta(days=4)).replace(day=1) - timedelta(days=1)
        days = [start + timedelta(days=i) for i in range(end.day)]
        wanted = found["day"].lower()
        if wanted == "weekday":
            days = [d for d in days if d.weekday() < 5]
        elif wanted != "day":
            days = [d for d in days if d.weekday() == DAYS.index(wanted[:3])]
        nth = NTH[found["nth"].lower()]
        date = days[nth - 1 if nth > 0 else -1] if len(days) >= abs(nth) else None
        if date and (date > now.date() or date == now.date() and len(months) == 1 or date == now.date() and not
                     (clock_of(text) and datetime.combine(date, datetime.min.time()).replace(hour=clock_of(text)[0], minute=clock_of(text)[1]) < now)):
            return date
    return None


NAMING = (r"(?:^|(?<=\s)|(?<=,))(?:(?:and |then |please |pls )?(?:label|call|name|title|tag|mark) (?:it|this|that|the (?:alarm|reminder|"
          r"event|entry|job|task|item))(?: as)?|(?:with|under|using|and give it|give it) (?:the |a )?(?:label|title|name|tag)(?: of)?"
          r"|(?<=,) ?(?:labell?ed|called|named|titled|entitled|tagged)(?: as)?|(?:label|title|name|tag):) [\"“‘']?(?P<name>[^\"”’,.;:!?]+?)[\"”’']?\s*(?=[,.;:!?]|$)")


def named_as(text: str) -> tuple[str, str]:
    """(the name an instruction gives the entry, the request without it): "alarm for 7 tomorrow, label it gym" is
    ("gym", "alarm for 7 tomorrow"); "call it X", "tag it X", "with the title X", ", labelled X" anywhere (rule 394).
    ("", text) when none is given; "call the plumber" names nothing."""
    said = re.search(NAMING, text, re.I)
    if not said or not (name := timing(said["name"])[2].strip(" ,")):
        return "", text
    return name, re.sub(r"^[\s,.;:]+|[\s,;:]+$", "", f"{text[:said.start()]} {text[said.end():]}").strip()


def task_of(text: str) -> str:
    """The task in a scheduling request: its words without the asking ("add ... to my calendar", "remind me to");
    a quoted item is the task, whatever follows it ("add 'buy mum's present' to my to-dos, due ...")."""
    if quoted := re.match(QUOTED_TASK, text, re.I):
        return quoted.group("task").strip()
    words = re.findall(SAID_WORDS, text)
    if words:  # "reply 'got it, thanks' to Ben": the quoted words are kept as they are, politeness and all
        task = task_of(re.sub(SAID_WORDS, lambda m: f"quoted{words.index(m.group())}", text))
        return re.sub(r"\bquoted(\d+)\b", lambda m: words[int(m.group(1))], task)
    text = re.sub(r"\b(me|reminder|it|that|this|task|job|event)\s+(?:on|at|in|by)\s+(?=to\b)|^\W*(?:on|at|in|by)\s+(?=to\b)", r"\1 ", text,
                  flags=re.I)  # "remind me on [Wednesdays] to ...": the day went to the time, its "on" with it
    text = re.sub(r"^\W*(?:(?:please|pls|can you|could you)\s+)*(?:set|create|make|add|schedule)(?: up)? (?:an?|the|my) "
                  r"(?!(?:recurring|repeating|regular|daily|weekly|monthly|new|quick|one-?off)\b)([a-z][\w-]*) (?:reminder|alarm)\b",
                  r"\1", text, flags=re.I)  # "set a bedtime reminder for 10:30": the reminder is for bedtime (rule 204)
    text = re.sub(r"\s*,\s*(?:because|since|cos|as|i|i'm|i've|i'll|i'd|we|we're|we've|we'll)\b[^,]*$", "", text,
                  flags=re.I)  # "..., I have a flight": why, not what (rule 204)
    text = re.sub(r"\s*[-–—,;:]\s*(?:(?:can|could) you |please |pls |and )?(?:queue|set|add|create|make|schedule|put|book|log|file)(?: up| in)? "
                  r"(?:me )?(?:an? |the )?(?:reminder|alarm|job|task|event|entry|note|to-?do)(?: for (?:it|that|this|me))?(?: please)?\W*$", "",
                  text, flags=re.I)  # "... - queue a reminder": the asking, after a dash, is no part of the task (rule 204)
    text = re.sub(r",?\s*(?:(?:can|could) you |please |pls )?(?:make sure|so) (?:that )?i (?:don't|do not|won't) forget\W*$|"
                  r",?\s*(?:labell?ed|called|titled)\s+(?=\w+\W*$)", " ", text, flags=re.I)  # leftover request words
    text = re.sub(rf"\b(?:i|we) (?:have|need|want|got|ought) to\b|\bi must\b|,?\s*(?:so|and|pls|please)?\s*{NUDGE} me"
                  r"(?: about it| of it)?\b|\b(?:by|before|until|due(?: on| at| by)?)\s*(?=,|$)", " ", text, flags=re.I)
    task = re.sub(rf"^\W*(?:(?:please|pls|can you|could you|can u|could u|hey|ok|okay|and|also)\W+)*(?:set up|add|put(?=.*\b(?:in|on|into|to) (?:my|the|your) (?:calendar|diary|agenda|schedule|planner|list|queue)|.*\bdown\b)|schedule|"
                  rf"book me|get me|book|(?:set|create|make|plan|(?:i|we)(?: need| want| would like|'d like))(?=\s+(?:an? |the |my )?(?:reminder|event|entry|job|task|nudge|alarm|"
                  rf"appointment|booking)s?\b|\s+(?:me|to|for|about)\b)|enter|queue(?: up)?|{NUDGE} me(?: to| about| of)?|"
                  r"don't let me forget(?: to)?|remember to)?\s*(?:an? |my (?=(?:reminder|event|entry|job|task|nudge|alarm)\b))?"
                  r"(?:reminder|event|entry|job|task|nudge|alarm)?"
                  r"\s*(?:to|for|about)?(?:\s+|$)", " ", text, flags=re.I)  # "make an alarm": all asking, no task (rule 410)
    task = re.sub(r"\b(?:to|on|in|into) (?:my|the) (?:calendar|agenda|schedule|queue|list|to-?do list|diary|planner)\b|"
                  r"\b(?:please|pls|for me|thanks)\b|\bat\s*$|\bon\s*$", " ", task, flags=re.I)
    task = re.sub(r"^\W*pencil in\s+|\s+down(?:\s+for)?$|^for\s+(?=(?:my|our|the)\s+\w)", "", task.strip(" ,:"), flags=re.I)  # "pencil in X", "put X down for ..."
    task = re.sub(r"^(?:a |an )?one-?off\W+", "", task.strip(" ,:"), flags=re.I)  # "add a one-off: lunch with Priya"
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
    task = re.sub(r",?\s*(?:(?:can you|could you|please|pls)\s+)*(?:put|add|stick|pop|throw|get|book|schedule|queue|set up) (?:that|it|this)(?: in| on| down)?"
                  r"(?: (?:my|the) (?:calendar|diary|agenda|schedule|planner|list|queue|to-?do list))?\W*$|^\W*(?:is|are)\s+", "", task, flags=re.I)
    task = re.sub(r"^\W*(?:set up|set|add|put|schedule|book|create|make)\s+(?:a |an )?(?:recurring |repeating )?"
                  r"(?:thing|reminder|event|task|job|entry|something)\W*(?:to|for|about)?\s*", "", task, flags=re.I)
    task = re.sub(r"\s+(?:in|on) for$|\s+(?:for|on|at|by|in)$|^(?:me|us)\s+|^(?:for|on|at|by|in|to)$|^to\s+(?=[a-z])", "", re.sub(r"\s+", " ", task).strip(" ,.!:-"),
                  flags=re.I)
    task = re.sub(r"^(?:one |it |that )?(?:called|named|labell?ed|titled|entitled)\s+(?=\S)", "", task.strip(" ,.!?:-"), flags=re.I)
    task = "" if re.fullmatch(rf"(?:{ASKING}\W*)+", task, re.I) else task  # "can you remind me tomorrow": no task said (rule 405)
    return task.strip(" ,.!?:-")  # "an alarm for 7:30 called wake up": the label is "wake up", never "called ..." (rule 387)


# A tool that wants a time in a format ("start is ISO 'YYYY-MM-DDTHH:MM'", "hour: 0-23") gets it in that format,
# counted from the date the system prompt gives ("It is Tuesday 10 March 2026, 09:00"); with no date given, the words.
MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]


def now_in(system: str):
    """The date and time the system prompt says it is, or None."""
    iso = re.search(r"\b(\d{4})-(\d\d)-(\d\d)(?:[T ](\d\d):(\d\d))?", system)
    said = re.search(rf"\b(\d{{1,2}})(?:st|nd|rd|th)? ({MONTH}) (\d{{4}})\b|\b({MONTH}) (\d{{1,2}})(?:st|nd|rd|th)?,? (\d{{4}})\b",
                     system, re.I)
    clock = re.search(r"\b(\d{1,2}):(\d\d)\b", system)
    if not (iso or said) or not re.search(r"\b(?:it is|it's|today is|the date is|current date|now is|date:|today:)", system, re.I):
        return None
    if iso:
        year, month, day = int(iso[1]), int(iso[2]), int(iso[3])
    else:
        day, name, year = (said[1], said[2], said[3]) if said[1] else (said[5], said[4], said[6])
        year, month, day = int(year), MONTHS.index(name[:3].lower()) + 1, int(day)
    hour, minute = (int(clock[1]), int(clock[2])) if clock else (9, 0)
    return datetime(year, month, day, hour, minute)


def slashed_date(text: str, now: datetime):
    """A date written with slashes, day first unless the first number cannot be a day's month partner ("08/14" is August
    14); the next such date when no year is written; None when there is none or it is no date."""
    found = re.search(r"(?<![\d/])(\d{1,2})/(\d{1,2})(?:/(\d{2}|\d{4}))?(?![\d/])", text)
    if not found:
        return None
    first, second = int(found[1]), int(found[2])
    day, month = (second, first) if second > 12 >= first else (first, second)
    year = int(found[3]) + (2000 if found[3] and len(found[3]) == 2 else 0) if found[3] else now.year
    try:
        date = datetime(year, month, day).date()
    except ValueError:
        return None
    return date if found[3] or date >= now.date() else date.replace(year=now.year + 1)


def moment(phrase: str, now: datetime):
    """The first time a phrase ("tomorrow at 6pm", "on Mondays at 10am", "March 12 at 3pm", "in 45 minutes") names."""
    text = named_dates(iso_apart(phrase)).lower()  # "Christmas Eve at 8pm" is December 24 at 8pm (rule 202)
    if ahead := re.search(r"\bin (an?|one|half an|\d+(?:\.\d+)?) (second|sec|minute|min|hour|hr|day|week)s?( and a half)?\b", text):
        count = {"a": 1, "an": 1, "one": 1, "half an": 0.5}.get(ahead[1]) or float(ahead[1])
        count += 0.5 if ahead[3] else 0
        unit = {"sec": "second", "min": "minute", "hr": "hour"}.get(ahead[2], ahead[2])
        return at_the_clock_said(now + timedelta(**{f"{unit}s": count}), text) if unit in ("day", "week") \
            else now + timedelta(**{f"{unit}s": count})
    date, day_said = now.date(), None
    if iso := re.search(r"\b(\d{4})-(\d\d)-(\d\d)\b", text):
        date = datetime(int(iso[1]), int(iso[2]), int(iso[3])).date()
    elif slashed := slashed_date(text, now):  # "14/08": the 14th of August (a day over 12 says which is which)
        date = slashed
    elif found := re.search(rf"\b({MONTH}) (\d{{1,2}})(?:st|nd|rd|th)?\b|\b(\d{{1,2}})(?:st|nd|rd|th)? (?:of )?({MONTH})\b", text):
        name, day = (found[1], found[2]) if found[1] else (found[4], found[3])
        year = re.match(r",? ((?:20|19)\d\d)\b", text[found.end():])  # "December 5th 2027": that year, as said (rule 220)
        date = datetime(int(year[1]) if year else now.year, MONTHS.index(name[:3]) + 1, int(day)).date()
        date = date if date >= now.date() or year else date.replace(year=now.year + 1)
    elif re.search(r"\bday after (?:tomorrow|tmrw|tmr)\b", text):
        date += timedelta(days=2)
    elif "tomorrow" in text or "tmrw" in text:
        date += timedelta(days=1)
    elif in_month := date_in_month(text, now):  # "the first monday of next month" (rule 175)
        date = in_month
    elif (ordinal := re.search(rf"\b{ORDINAL} of next month\b", text)) and (day := day_of_month(ordinal.group())):
        date = next_on(day, (date.replace(day=1) + timedelta(days=32)).replace(day=1))  # "the first of next month"
    elif day := re.search(rf"\b{DAY}s?\b", text):  # "every month" names no Monday
        wanted = DAYS.index(day.group()[:3])
        date += timedelta(days=(wanted - date.weekday() - 1) % 7 + 1)  # the next one, never today
    elif ordinal := re.search(r"\b(\d{1,2})(?:st|nd|rd|th)\b", text):
        date = day_said = next_on(int(ordinal[1]), date)
    hour, minute = clock_of(text) or ((20, 0) if re.search(r"\btonight|evening\b", text) else (9, 0))
    when = datetime.combine(date, datetime.min.time()).replace(hour=hour, minute=minute)
    if day_said and when < now:  # "on the 22nd at 8am", said on the 22nd at 16:30: next month's 22nd (rule 175)
        return datetime.combine(next_on(day_said.day, date + timedelta(days=1)), when.time())
    return when + timedelta(days=1) if when < now and not re.search(rf"{DAY}|{MONTH}|\d{{4}}", text) and "today" not in text else when


def at_the_clock_said(when: datetime, text: str) -> datetime:
    """A day counted ahead keeps the clock time said with it ("in 3 days at noon" is that day at 12:00), else the
    time it is now (rule 170)."""
    clock = clock_of(re.sub(r"\bin (?:an?|one|half an|\d+(?:\.\d+)?) (?:day|week)s?\b", " ", text))
    return when.replace(hour=clock[0], minute=clock[1]) if clock else when


ORDINAL_WORDS = ["first", "second", "third", "fourth", "fifth"]


def day_of_month(ordinal: str) -> int | None:
    """The day an ordinal names: "the 15th" 15, "the first" 1; "the last" none (months differ)."""
    said = re.match(r"(\d{1,2})|(\w+)", ordinal)
    return int(said[1]) if said[1] else ORDINAL_WORDS.index(said[2]) + 1 if said[2] in ORDINAL_WORDS else None


def fits(value: str, wanted: str) -> bool:
    """Whether a value is already in the strftime format a tool asks for ("2025-04-02" fits "%Y-%m-%d")."""
    try:
        datetime.strptime(value[:len(datetime(2000, 1, 1).strftime(wanted))], wanted)
        return True
    except ValueError:
        return False


def next_on(day: int, start):
    """The first date on or after `start` that is the given day of a month ("the 31st" skips a 30-day month)."""
    first = start.replace(day=1)
    for months in range(14):
        year, month = divmod(first.month - 1 + months, 12)
        try:
            date = first.replace(year=first.year + year, month=month + 1, day=day)
        except ValueError:  # no 31st in this month
            continue
        if date >= start:
            return date
    return start


def clock_of(phrase: str) -> tuple | None:
    """The time of day a phrase names, on a 24-hour clock: "Friday at 2pm" -> (14, 0), "at 9:30" -> (9, 30),
    "noon" -> (12, 0); None when it names none ("next Tuesday")."""
    text = spoken_clock(phrase).lower()
    dateless = re.sub(rf"\b\d{{4}}-\d\d-\d\d\b|\b\d{{1,2}}/\d{{1,2}}(?:/\d{{2,4}})?\b|\b(?:in|every) \d+\b|\b\d{{1,2}}(?:st|nd|rd|th)\b|\b\d{{1,2}} (?:of )?{MONTH}\b|"
                      rf"\b{MONTH} \d{{1,2}}\b", " ", text)  # the clock is what is left once the date is out
    if clock := re.search(r"\b(\d{1,2})(?::(\d\d))?\s*(am|pm|a\.m\.|p\.m\.)?(?=\W|$)(?! ?(?:minute|min|hour|hr|day|week|month|year)s?\b)",
                          dateless):
        hour, minute = int(clock[1]) % 24, int(clock[2] or 0)
        small_hours = not clock[3] and 1 <= hour <= 4 and re.search(r"\bnight|\bnightly\b", text)  # "every night at 2" is 2am
        evening = (clock[3] or "").startswith("p") or not small_hours and (re.search(r"\btonight|evening|night|afternoon\b", text) or (
            not clock[3] and 1 <= hour <= 6 and not clock[1].startswith("0") and not re.search(r"\bmorning\b|\bdawn\b|\bearly\b", text)))  # "at 5" is 17:00
        hour += 12 if evening and hour < 12 else 0
        return (0 if (clock[3] or "").startswith("a") and hour == 12 else hour), minute
    if "noon" in text or "midday" in text:
        return 12, 0
    return (0, 0) if "midnight" in text else None


MINUTES = {"second": 1 / 60, "sec": 1 / 60, "minute": 1, "min": 1, "hour": 60, "hr": 60, "day": 1440, "week": 10080}


def delay(phrase: str, per: str, now) -> int | float | None:
    """How long from now a phrase is, counted in `per` ("minute", "second", "hour"): "in 2 hours" is 120 minutes;
    "at 5pm" only when the system prompt says what time it is now; None when it cannot be told."""
    phrase = spelled_durations(phrase, READ_IN_WORDS + SPELLED_DURATIONS)  # "in an hour and a half" is 90 minutes
    ahead = re.search(r"\bin (an?|one|half an|\d+(?:\.\d+)?) (second|sec|minute|min|hour|hr|day|week)s?( and a half)?\b", phrase, re.I)
    if ahead:
        count = {"a": 1, "an": 1, "one": 1, "half an": 0.5}.get(ahead[1].lower()) or float(ahead[1])
        minutes = (count + (0.5 if ahead[3] else 0)) * MINUTES[ahead[2].lower()]
    elif now is not None and phrase.strip():
        minutes = (moment(phrase, now) - now).total_seconds() / 60
    else:
        return None
    counted = minutes / MINUTES[per]  # "in 90 seconds" is 1.5 minutes, never rounded to 2 (rule 223)
    return round(counted) if abs(counted - round(counted)) < 1e-9 else counted


FORMATS = [("YYYY-MM-DDTHH:MM", "%Y-%m-%dT%H:%M"), ("YYYY-MM-DD HH:MM", "%Y-%m-%d %H:%M"), ("YYYY-MM-DD", "%Y-%m-%d"),
           ("HH:MM", "%H:%M")]
DATE_AND_TIME = r"\bdate[- ]?time\b|\bdate and time\b|\btimestamp\b|\bISO[- ]?8601\b(?! date\b(?![- ]?time))"


def asked_format(hint: str) -> str | None:
    """The strftime format a parameter's description asks for: a written pattern ("YYYY-MM-DD"), else a date-time
    ("ISO date-time", "ISO 8601", "datetime", "timestamp": date and time), else a date ("ISO date"), else None."""
    if written := next((f for key, f in FORMATS if key in hint), None) or pattern_written(hint) or shown_by_example(hint):
        return written
    if re.search(DATE_AND_TIME, hint, re.I):
        return "%Y-%m-%dT%H:%M"
    return "%Y-%m-%d" if re.search(r"\bISO date\b", hint) else "%Y-%m-%dT%H:%M" if re.search(r"\bISO\b", hint) else None


def format_in_prompt(system: str) -> str:
    """The format a sentence of the system prompt gives dates or times in ("Dates are ISO 8601 (YYYY-MM-DDTHH:MM).",
    "Always write times as HH:MM"), or "" (rule 221): a date it states ("Today is 2026-11-24") names no format."""
    for sentence in re.split(r"(?<=[.!?])\s+|\n", system or ""):
        if re.search(r"\b(?:dates?|times?|timestamps?|date-?times?|deadlines?)\b", sentence, re.I) and (
                found := re.search(r"\bISO[- ]?8601\b|\bISO\b|YYYY[-\w:]*(?: HH:MM)?|\bHH:MM\b", sentence)):
            return found.group()
    return ""


def pattern_written(hint: str) -> str | None:
    """A date or time pattern written in letters ("DD/MM/YYYY", "MM-DD-YYYY", "DD.MM.YYYY HH:mm") as a strftime format."""
    found = re.search(r"\b(?:YYYY|DD|MM)(?:[-/.](?:YYYY|DD|MM)){2}(?:[ T]HH[:.](?:MM|mm))?\b|\bHH[:.](?:MM|mm)\b", hint)
    if not found:
        return None
    date, _, clock = found.group().partition("HH")
    date = date.replace("YYYY", "%Y").replace("DD", "%d").replace("MM", "%m")
    return date + ("%H" + clock[0] + "%M" if clock else "")


def shown_by_example(hint: str) -> str | None:
    """The format a description shows by an example ("like 13:05", "e.g. 2026-01-31"), when it names no pattern."""
    if re.search(r"(?<![\d:])\d{4}-\d\d-\d\d(?![T \d])", hint):
        return "%Y-%m-%d"
    return "%H:%M" if re.search(r"(?<![\d:T-])\d{1,2}:\d\d(?![\d:])", hint) and not re.search(r"\d{4}-\d\d-\d\d", hint) else None


IN_WORDS = (r"\b(?:in|or) (?:plain |natural |your own )?(?:words|english|text)\b|\bplain words\b|\bnatural[- ]language\b|"
            r"\b(?:any|free)[- ](?:format|form|text)\b|\bfree-?form\b|\bas (?:the user|you) (?:says?|said) it\b")  # rule 363


def shaped(value, hint: str, phrase: str, now, hour: bool = False):
    """`value` in the format `hint` asks for ("YYYY-MM-DD", "HH:MM", "0-23", "ISO"), counted from `now`; else as it was."""
    wanted = asked_format(hint)
    hour_only = hour or re.search(r"\b0\s*-\s*23\b|\b24[- ]?(?:hour|h)\b", hint)
    if hour_only and not wanted:  # an hour as a number is on a 24-hour clock: "2pm" is 14, never 2
        clock = clock_of(phrase)
        return clock[0] if clock else None
    if re.search(IN_WORDS, hint, re.I) or not phrase or not (wanted or hour_only):
        return value
    if wanted == "%H:%M" and re.search(A_DATE, phrase, re.I) and not re.search(r"\b(?:today|tonight)\b", phrase, re.I):
        if re.search(rf"{DATE_AND_TIME}|\bISO\b|YYYY", hint, re.I):
            wanted = "%Y-%m-%dT%H:%M"  # rule 385: "HH:MM (next occurrence) or an ISO date-time": a day said needs the date
        elif re.search(r"\bnext (?:occurrence|time)\b|\bcomes? (?:round|around|up)\b", hint, re.I):
            return None  # a clock alone that rings at its next occurrence would drop the day said: asked for
    if now is None:  # "in 2 days" with no date in the prompt is no YYYY-MM-DD: asked for, never sent as words
        written = re.search(r"\d{4}-\d\d-\d\d(?:[T ]\d\d:\d\d)?", str(value))  # "on 2025-09-01" holds one
        return written.group() if written and fits(written.group(), wanted) else None
    when = moment(phrase, now)
    return when.hour if hour_only and not wanted else when.strftime(wanted)


COUNT_SAID = {"a": 1, "an": 1, "one": 1, "half an": 0.5, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "ten": 10,
              "fifteen": 15, "twenty": 20, "thirty": 30, "forty-five": 45, "ninety": 90}
BY = (r"\b(?:by )?(?P<n>an?|one|half an|two|three|four|five|six|ten|fifteen|twenty|thirty|forty-five|ninety|\d+(?:\.\d+)?)\s+"
      r"(?P<u>minute|min|hour|hr|day|week)s?(?P<half> and a half)?\b")
LATER = r"\b(?:later|after|back|out|postpone\w*|delay\w*|push(?:ed)?\b.*\bback)\b"
EARLIER = r"\b(?:earlier|sooner|before|forward|up|ahead|bring\w*|brought)\b"
NEXT = {"day": 1, "morning": 1, "evening": 1, "week": 7}


def from_the_event(phrase: str) -> bool:
    """Whether a move's new time is counted from the event itself: "to 4pm the same day", "an hour later", "a day
    earlier", "back an hour", "the following week", not from today ("to Friday", "in 2 hours")."""
    text = phrase.lower()
    return bool(re.search(r"\b(?:(?:the )?same day|that (?:same )?day|on the day|the (?:following|next) (?:day|morning|evening|week)|"
                          r"the (?:day|week) (?:after|before)|the previous (?:day|week))\b", text)
                or re.search(BY, text) and not re.search(r"\bin (?:an?|one|half an|\d+(?:\.\d+)?) ", text))


def shifted(anchor: datetime, phrase: str) -> datetime | None:
    """The event's time `anchor` moved as the phrase says ("an hour later", "back 30 minutes", "to 9am the same day",
    "the following week"); None when the way is not said ("move it by an hour": earlier or later?)."""
    text = spoken_clock(phrase.lower())
    new = anchor
    if amount := re.search(BY, text):
        way = +1 if re.search(LATER, text) else -1 if re.search(EARLIER, text) else 0
        if not way:
            return None
        count = COUNT_SAID.get(amount["n"]) or float(amount["n"])
        minutes = (count + (0.5 if amount["half"] else 0)) * MINUTES[{"min": "minute", "hr": "hour"}.get(amount["u"], amount["u"])]
        new += timedelta(minutes=way * minutes)
    elif nxt := re.search(r"\bthe (?:following|next) (day|morning|evening|week)\b|\bthe (day|week) after\b", text):
        new += timedelta(days=NEXT[nxt.group(1) or nxt.group(2)])
    elif before := re.search(r"\bthe (day|week) before\b|\bthe previous (day|week)\b", text):
        new -= timedelta(days=NEXT[before.group(1) or before.group(2)])
    if clock := clock_of(re.sub(BY, " ", text)):
        new = new.replace(hour=clock[0], minute=clock[1])
    return new if new != anchor else None


def event_time(text: str, now) -> datetime | None:
    """When an event is, from what a listing or the prompt's memory says of it ("Dentist on 2025-03-14 at 15:00",
    "2025-03-14T15:00"): it must name a date and a time, or it says nothing about when."""
    text = re.sub(r"(\d{4}-\d\d-\d\d)[T ](\d\d:\d\d)", r"\1 at \2", text or "")
    if not text or not re.search(rf"\d{{4}}-\d\d-\d\d|\b{MONTH}\b|\b{DAY}\b|\btomorrow\b", text, re.I) or not clock_of(text):
        return None
    return moment(text, now or datetime(2000, 1, 1))


DATE_WORDS = (r"\b(?:on|by|until|till|since|from|before|after|dated?|days?|due|deadline|born|expir\w*|appointment|birthday|b-?day|"
              r"meeting|anniversary|wedding|exam|party|flight|trip|holiday|interview|event|booked|scheduled)\b")
NUMERIC_DATE = r"(?<![\d/.-])(?:(?P<y>\d{4})-(?P<m>\d{1,2})-(?P<d>\d{1,2})|(?P<a>\d{1,2})/(?P<b>\d{1,2})(?:/(?P<year>\d{4}|\d{2}))?)(?![\d/-]|\.\d)"
DATE_ASKED = (r"\b(?:what|which)(?:'s| is| was)? (?:the |that |this )?(?:date|day(?: of the week)?|month|weekday)\b|\bwhen is (?:that|it)\b|"
              r"\bwhat (?:does|do) (?:that|it|this|\S*\d\S*) (?:mean|stand for)\b|\bwhat (?:date|day|month) is\b|\bread (?:it|that|this) as a date\b")


def numeric_date(text: str):
    """Rule 291: a token like 12/5, 3/4/2026 or 2026-05-12 said beside a date word ("on", "due", "my appointment",
    "birthday", "deadline") is a date, never a division: the match, or None."""
    for found in re.finditer(NUMERIC_DATE, text):
        near = text[max(0, found.start() - 30):found.start()] + " " + text[found.end():found.end() + 25]
        if re.search(DATE_WORDS, near, re.I) or found.group("y") or found.group("year"):
            return found
    return None


def date_readings(text: str) -> str | None:
    """Rule 291: a numeric date asked about, read as a date: both readings when day and month could be either
    ("12/5 is 12 May if the day comes first, or December 5 if the month does."), the weekday when the year is said."""
    found = numeric_date(text)
    if not found or not re.search(DATE_ASKED, text, re.I):
        return None
    if found.group("y"):
        readings = [(int(found.group("y")), int(found.group("m")), int(found.group("d")))]
    else:
        a, b = int(found.group("a")), int(found.group("b"))
        year = found.group("year")
        year = None if not year else int(year) + (2000 if len(year) == 2 else 0)
        readings = [(year, m, d) for m, d in ((b, a), (a, b)) if 1 <= m <= 12]  # the day first, then the month first
        readings = list(dict.fromkeys(readings))
    said = []
    for year, month, day in readings:
        try:
            date = datetime(year or 2000, month, day)  # 2000 is a leap year: 29/2 without a year stays a date
        except ValueError:
            continue
        said.append(f"{date.strftime('%A')} {day} {MONTH_NAMES[month - 1]} {year}" if year else f"{day} {MONTH_NAMES[month - 1]}")
    token = found.group()
    if not said:
        return f"{token} isn't a date I can read: no month has that day."
    if len(said) == 1:
        return f"{token} is {said[0]}."
    return (f"{token} is {said[0]} if the day comes first (as in the UK), or {said[1]} if the month comes first (as in the US). "
            "Which do you mean?")
