"""Lesson 7 exercises: a new output gate (phone numbers), a memory gate, a forget tool."""
import json

from .. import llm
from ..checks import attempt, exercise, expect

REMEMBER = {"type": "function", "function": {"name": "remember", "description": "Remember a fact about the user.",
            "parameters": {"type": "object", "properties": {"key": {"type": "string"}, "value": {"type": "string"}},
                           "required": ["key", "value"]}}}
FORGET = {"type": "function", "function": {"name": "forget", "description": "Forget a fact about the user.",
          "parameters": {"type": "object", "properties": {"key": {"type": "string"}}, "required": ["key"]}}}


def _converse(question, tools, run, messages=()):
    """One question through a small loop with the teaching model; `run(name, args)` is the tool.
    Returns (the final text, the messages)."""
    messages = [*messages, {"role": "user", "content": question}]
    for _ in range(4):
        message = llm.ask(messages, tools=tools)
        messages.append(message)
        if not message.get("tool_calls"):
            return message.get("content") or "", messages
        for call in message["tool_calls"]:
            result = run(call["function"]["name"], json.loads(call["function"]["arguments"]))
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": str(result)})
    return "", messages


@exercise("7.1 A new gate: phone numbers")
def check_redact_phones(redact_phones):
    for text, masked in (("Call +44 20 7946 0958 at 9.", "Call [phone] at 9."),
                         ("My number is 555-123-4567", "My number is [phone]"),
                         ("Ring (030) 1234567 or 0176 12345678.", "Ring [phone] or [phone]."),
                         ("Fax: 555.123.4567", "Fax: [phone]")):
        got = attempt(redact_phones, text)
        expect(isinstance(got, str), f"return the text as a string, not {type(got).__name__}.")
        expect(got == masked, f"redact_phones({text!r}) returned {got!r}, expected {masked!r}.",
               fix="a phone number: an optional +, then 7 to 15 digits with spaces, dashes, dots or "
                   "brackets between them; replace the whole number with '[phone]'.")
    for plain in ("Your order 1042 ships on 2026-01-20.", "2 + 3 = 5", "It costs 1,250 euros.",
                  "Card •••• 4444, born 1990.", "Room 12, floor 3, at 10:30."):
        got = attempt(redact_phones, plain)
        expect(got == plain, f"redact_phones({plain!r}) returned {got!r}: only phone numbers change.",
               fix="count the digits (7 to 15) and leave a date such as 2026-01-20 alone.")


@exercise("7.2 A memory gate")
def check_memory_gate(my_memory_gate):
    for key, value, what in (("card_number", "5555 5555 5555 4444", "a card number"),
                             ("password", "hunter2", "a password"),
                             ("note", "my password is hunter2", "a value that mentions a password")):
        got = attempt(my_memory_gate, key, value)
        expect(isinstance(got, str) and got.startswith("Not stored"),
               f"my_memory_gate({key!r}, {value!r}) returned {got!r}: refuse {what} with a string starting 'Not stored'.")
    got = attempt(my_memory_gate, "birthday", "Jan 20th")
    expect(isinstance(got, str) and got.startswith("Not stored") and "ask the user" in got.lower(),
           f"my_memory_gate('birthday', 'Jan 20th') returned {got!r}: a birthday without a year is "
           "'Not stored: ... Ask the user: which year?'.")
    for key, value in (("birthday", "Jan 20th 1990"), ("name", "Ada"), ("prefers", "tea"), ("age", "36")):
        got = attempt(my_memory_gate, key, value)
        expect(got is None, f"my_memory_gate({key!r}, {value!r}) returned {got!r}: let an ordinary, complete fact "
                            "through by returning None.")
    stored = {}

    def remember(name, args):
        refusal = my_memory_gate(args.get("key", ""), args.get("value", ""))
        if refusal:
            return refusal
        stored[args["key"]] = args["value"]
        return f"Remembered {args['key']}"

    answer, messages = _converse("Remember it's my birthday on Jan 20th", [REMEMBER], remember)
    expect("year" in answer.lower() and not stored,
           f"with your gate in front of remember, the model answered {answer!r}; it should ask which year.",
           fix="for a birthday with no four-digit year, return 'Not stored: ... Ask the user: which year?'; the "
               "model relays a result that asks a question.")
    answer, _ = _converse("1990", [REMEMBER], remember, messages)
    expect(stored.get("birthday") == "Jan 20th 1990",
           f"after the user said 1990, memory holds {stored}; your gate should let 'Jan 20th 1990' through.",
           fix="return None for a birthday that has a year (re.search(r'\\d{4}', value)).")


@exercise("7.3 A forget tool")
def check_forget(forget_fact, memory):
    expect(isinstance(memory, dict), "pass the lesson's memory dict as the second argument: check_forget(forget_fact, memory).")
    before = dict(memory)  # the check plants a fact of its own and puts the memory back afterwards
    try:
        memory["birthday"] = "Jan 20th 1990"
        got = attempt(forget_fact, "birthday")
        expect(isinstance(got, str) and got, f"forget_fact('birthday') returned {got!r}: return a message for the model.",
               fix="return f'Forgot {key}.' after deleting it.")
        expect("birthday" not in memory,
               "forget_fact('birthday') returned, but 'birthday' is still in memory: del memory[key].")
        got = attempt(forget_fact, "shoe_size")
        expect(isinstance(got, str) and got.lower().startswith("nothing"),
               f"forget_fact('shoe_size') returned {got!r}; for a key that isn't stored, return 'Nothing is stored under ...'.")
        memory["birthday"] = "Jan 20th 1990"
        answer, _ = _converse("Forget my birthday", [FORGET], lambda name, args: forget_fact(**args))
        expect("birthday" not in memory, f"the model called your forget tool and answered {answer!r}, "
                                             "but 'birthday' is still in memory.",
               fix="forget_fact(key) deletes memory[key] from the dict it was given (and saves the file).")
    finally:
        memory.clear()
        memory.update(before)
