"""Reference solutions for lesson 7's exercises.

guarded_forget uses the lesson's names (user_message, forget): run it in the lesson's namespace, as the
exercise cell does. Lesson 8 carries these answers where lesson 7's exercise cells stood."""
import re

from agentloop.sensitive import phone_numbers

# phone_numbers finds them (dates, order numbers and prices are left alone); the gate masks each one.
def redact_phones(text):
    for phone in phone_numbers(text):
        text = text.replace(phone, "[phone]")
    return text


# A time of day: 3pm, 9.30 am, 15:00. A date (March 3rd) or a flight number (BA 117) is not one.
TIME_OF_DAY = r"\b\d{1,2}(?:[:.]\d\d)?\s*(?:am|pm)\b|\b\d{1,2}[:.]\d\d\b"
NEEDS_A_TIME = ("appointment", "meeting", "flight")


def needs_a_time(key, value):
    if any(word in key.lower() for word in NEEDS_A_TIME) and not re.search(TIME_OF_DAY, value, re.IGNORECASE):
        return f"Not stored: the {key.replace('_', ' ')} has no time of day. Ask the user: at what time?"
    return None


# forget deletes, so it runs only when the user's own words this turn ask for a deletion; a page, an
# email or a scheduled task cannot. The refusal says what happened, so the model can tell the user.
ASKS_TO_DELETE = r"\b(?:forget|delete|erase|remove)\b"


def guarded_forget(key):
    if not re.search(ASKS_TO_DELETE, user_message["text"], re.IGNORECASE):
        return f"Not done: only the user can ask me to forget {key}, and they did not ask."
    return forget(key)
