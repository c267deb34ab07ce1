"""Lesson 7 exercises: an output gate, a memory gate, a forget tool."""
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


@exercise("7.1 Mask what must not be shown")
def check_redact(my_redact):
    got = attempt(my_redact, "Card 5555 5555 5555 4444 is on file.")
    expect(isinstance(got, str), f"return the masked text as a string, not {type(got).__name__}.")
    expect("5555" not in got, f"my_redact('Card 5555 5555 5555 4444 is on file.') returned {got!r}: "
                              "the first twelve digits must not show.")
    expect("4444" in got, f"my_redact kept too little: {got!r}; show the card's last four digits (4444).")
    got = attempt(my_redact, "Use 4000-0566-5566-5556 today.")
    expect("0566" not in got and "5556" in got,
           f"a card written with dashes is a card too: my_redact('Use 4000-0566-5566-5556 today.') returned {got!r}.")
    got = attempt(my_redact, "Write to ada.lovelace@example.com please.")
    expect("ada.lovelace" not in got and "lovelace@" not in got,
           f"my_redact returned {got!r}: hide the part of an email address before the @.")
    for plain in ("Your order 1042 ships on 2026-01-20.", "2 + 3 = 5", "Call +44 20 7946 0958 at 9."):
        got = attempt(my_redact, plain)
        expect(got == plain, f"my_redact({plain!r}) returned {got!r}: leave text without a card or an email as it is.")


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
           f"with your gate in front of remember, the model answered {answer!r}; it should ask which year.")
    answer, _ = _converse("1990", [REMEMBER], remember, messages)
    expect(stored.get("birthday") == "Jan 20th 1990",
           f"after the user said 1990, memory holds {stored}; your gate should let 'Jan 20th 1990' through.")


@exercise("7.3 A forget tool")
def check_forget(forget_fact, memory):
    expect(isinstance(memory, dict), "pass the lesson's memory dict as the second argument: check_forget(forget_fact, memory).")
    before = dict(memory)  # the check plants a fact of its own and puts the memory back afterwards
    try:
        memory["birthday"] = "Jan 20th 1990"
        got = attempt(forget_fact, "birthday")
        expect(isinstance(got, str) and got, f"forget_fact('birthday') returned {got!r}: return a message for the model.")
        expect("birthday" not in memory,
               "forget_fact('birthday') returned, but 'birthday' is still in memory: del memory[key].")
        got = attempt(forget_fact, "shoe_size")
        expect(isinstance(got, str) and got.lower().startswith("nothing"),
               f"forget_fact('shoe_size') returned {got!r}; for a key that isn't stored, return 'Nothing is stored under ...'.")
        memory["birthday"] = "Jan 20th 1990"
        answer, _ = _converse("Forget my birthday", [FORGET], lambda name, args: forget_fact(**args))
        expect("birthday" not in memory, f"the model called your forget tool and answered {answer!r}, "
                                             "but 'birthday' is still in memory.")
    finally:
        memory.clear()
        memory.update(before)
