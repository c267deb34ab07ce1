"""Rules 90-99 of the teaching model (docs/teaching_model.md): actions the user asks for (sums over a story,
text and checker tools chosen by description, scheduling by the schema's shape, negated requests, reply style,
fetching a page), each tried through a real agent loop with tools and phrasings of our own."""
import json

from test_teaching_corpus import loop

DATED = "You help with plans. It is Wednesday 11 March 2026 (2026-03-11), 14:00 now."


def tool(name, description, fn, required=None, **params):
    """A schema (a param's type, or a dict for an enum) and its implementation, as loop() takes them."""
    props = {p: (t if isinstance(t, dict) else {"type": t}) for p, t in params.items()}
    return name, ({"type": "function", "function": {"name": name, "description": description, "parameters": {
        "type": "object", "properties": props, "required": list(params) if required is None else required}}}, fn)


def tools(*made):
    return dict(made)


# 90. A weekday enum gets the day the user named, never the first weekly choice or today's.
DAYS = {"type": "string", "enum": ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]}


def weekly(log):
    return tools(tool("repeat_reminder", "Creates a repeating reminder.", lambda **k: log.append(k) or f"created {k}",
                      required=["text", "every"], text="string",
                      every={"type": "string", "enum": ["daily", "weekly", "monthly"]}, day_of_week=DAYS))


def test_a_weekday_enum_takes_the_day_named():
    for said, day in (("Every Thursday, remind me to water the ferns.", "thu"),
                      ("Remind me every Sunday evening to plan the week.", "sun")):
        log = []
        loop(said, weekly(log), DATED)
        assert log and log[0]["day_of_week"] == day and log[0]["every"] == "weekly", (said, log)


def test_an_optional_weekday_enum_is_left_out_when_no_day_is_named():
    log = []
    loop("Remind me every week to call grandpa.", weekly(log), DATED)
    assert log and "day_of_week" not in log[0], log
