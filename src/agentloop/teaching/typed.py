"""Time fields of unusual types (rule 150): an iCal RRULE, a count of days from now, a Unix timestamp, a duration.

Each is filled from what the request says, in the field's own type, or asked for (required) or left out (optional);
never the user's phrase in a field that wants a rule or a number, never a placeholder 0.
"""
import calendar
import re

from .timing import DAYS, clock_of, moment
from .toolbox import Missing, cadence, type_of, words

NOT_MINE = object()
FREQ = {"day": "DAILY", "weekday": "WEEKLY", "week": "WEEKLY", "month": "MONTHLY", "year": "YEARLY", "hour": "HOURLY"}
DAY_CODES = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


def typed_value(tool, param: str, hint: str, phrase: str, every: str, now, said: str):
    """The value of a time field of an unusual type, NOT_MINE for any other field, None to leave an optional one out."""
    spec = tool.params[param]
    counted, named = type_of(spec) in ("integer", "number"), set(words(param))
    if re.search(r"\bRRULE\b|\bFREQ=|\brecurrence rule\b", f"{hint} {param}", re.I):
        return needed(tool, param, rrule(every))
    if re.search(r"\bcron\b", f"{hint} {param}", re.I) and not counted:
        return needed(tool, param, cron(every, phrase))
    if counted and "day" in named and named & {"from", "now", "in", "after", "delay", "wait", "later", "ahead"}:
        return needed(tool, param, days_ahead(phrase, now))
    if re.search(r"\bunix\b|\bepoch\b" + r"|\btimestamp\b" * counted, f"{param.replace('_', ' ')} {hint}", re.I):  # a string too (rule 221)
        seconds = calendar.timegm(moment(phrase, now).timetuple()) if now and phrase.strip() else None
        return needed(tool, param, seconds if counted or seconds is None else str(seconds))
    if counted and any(words(p) == ["month"] for p in tool.params) and named in ({"day"}, {"month"}, {"year"}):
        when = moment(phrase, now) if now and phrase.strip() else None  # add_yearly(label, month, day): the date in parts
        return needed(tool, param, when and getattr(when, named.pop()))
    if counted and (named & {"duration", "length", "long", "lasting"} or lasts(tool, param)):
        return needed(tool, param, duration(said, "hour" if "hour" in named else "minute"))
    return NOT_MINE


def lasts(tool, param: str) -> bool:
    """schedule_call(contact, start, minutes): "minutes" beside a full start time (and no hour) is how long, not the clock's."""
    others = [p for p in tool.params if p != param]
    return param.lower() in ("minutes", "mins") and not any("hour" in words(p) for p in others) and any(
        re.search(r"\bISO\b|YYYY|date[- ]?time|timestamp", str(tool.params[p].get("description", "")), re.I)
        or set(words(p)) & {"start", "datetime", "when", "at"} for p in others)


def needed(tool, param: str, value):
    if value is None and param in tool.required:
        raise Missing(tool, param)
    return value


def rrule(every: str) -> str | None:
    """"every other Thursday" as FREQ=WEEKLY;INTERVAL=2;BYDAY=TH; None when no recurrence is said."""
    said = cadence(every) if every else None
    if not said or said[0] not in FREQ:
        return None
    unit, count = said
    rule = f"FREQ={FREQ[unit]}" + (f";INTERVAL={count}" if count > 1 else "")
    days = [DAY_CODES[i] for i, day in enumerate(DAYS) if re.search(rf"\b{day}", every, re.I)]
    if unit == "weekday":
        days = DAY_CODES[:5]
    return rule + (f";BYDAY={','.join(days)}" if days and FREQ[unit] == "WEEKLY" else "")


def cron(every: str, phrase: str) -> str | None:
    """"every night at 2" as "0 2 * * *", "every Monday at 9:30" as "30 9 * * 1", "every weekday at 7" as "0 7 * * 1-5",
    "every 15 minutes" as "*/15 * * * *"; None when no recurrence, or no clock for one that needs it, is said."""
    often = re.search(r"\bevery (\d+ )?(minute|min|hour|hr)s?\b|\b(hourly)\b", every or "", re.I)
    said = ((("hour" if often[3] or often[2].startswith("h") else "minute"), int(often[1] or 1)) if often
            else cadence(every) if every else None)
    if not said:
        return None
    unit, count = said
    if unit in ("minute", "hour"):
        return f"*/{count} * * * *" if unit == "minute" else f"0 */{count} * * *" if count > 1 else "0 * * * *"
    clock = clock_of(phrase)
    if clock is None or count != 1:
        return None  # "every other Friday" has no cron form
    days = [str(i + 1) for i, day in enumerate(DAYS) if re.search(rf"\b{day}", every, re.I)]
    dow = "1-5" if unit == "weekday" else ",".join(d.replace("7", "0") for d in days) if unit == "week" and days else "*"
    if unit == "week" and dow == "*" or unit not in ("day", "week", "weekday"):
        return None  # a week with no day said, a month or a year: asked for
    return f"{clock[1]} {clock[0]} * * {dow}"


def days_ahead(phrase: str, now) -> int | None:
    """Whole days from today: "in 3 days" 3, "tomorrow" 1, "next week" 7, a date its distance; None if none is said."""
    if not phrase.strip() or now is None:
        return None
    if re.search(r"\bnext week\b", phrase, re.I):
        return 7
    return (moment(phrase, now).date() - now.date()).days or None


def duration(said: str, unit: str) -> int | None:
    """A length said with the entry ("a 45 minute call", "for 2 hours", "an hour-long chat") in `unit`; None if none."""
    found = re.search(r"\b(\d+(?:\.\d+)?|an?|one|half an?)[\s-]*(minute|min|hour|hr)s?(?:[\s-]*long)?\b", said, re.I)
    if not found:
        return None
    count = {"a": 1, "an": 1, "one": 1, "half a": 0.5, "half an": 0.5}.get(found[1].lower()) or float(found[1])
    minutes = count * (60 if found[2].lower() in ("hour", "hr") else 1)
    return round(minutes / 60) if unit == "hour" else round(minutes)
