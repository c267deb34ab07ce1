"""Lesson 4 exercises: trimming history safely, a transcript, counting messages by role."""
from ..checks import attempt, exercise, expect


def _conversation():
    """user, assistant(tool call), tool, assistant, user, assistant: two questions."""
    call = {"id": "call_1", "type": "function", "function": {"name": "add", "arguments": '{"a": 2, "b": 3}'}}
    return [
        {"role": "user", "content": "What is 2 + 3?"},
        {"role": "assistant", "content": None, "tool_calls": [call]},
        {"role": "tool", "tool_call_id": "call_1", "content": "5"},
        {"role": "assistant", "content": "The answer is 5."},
        {"role": "user", "content": "Thanks!"},
        {"role": "assistant", "content": "You're welcome."},
    ]


@exercise("4.1 Trim the history without breaking it")
def check_trim_history(trim_history):
    history = _conversation()
    got = attempt(trim_history, history, 2)
    expect(got == history[-2:], f"trim_history(history, 2) returned {got!r}; keep the last 2 messages.")
    expect(len(history) == 6, "return a new list; don't change the history you were given.")
    got = attempt(trim_history, history, 5)
    expect(got == history[-2:], "trim_history(history, 5) must not start with an assistant or tool message: "
                                "an orphan tool result is a 400 error. Drop messages until one starts with 'user'.")
    got = attempt(trim_history, history, 6)
    expect(got == history, "when everything fits, keep everything.")
    got = attempt(trim_history, history, 0)
    expect(got == [], f"keeping 0 messages gives [], got {got!r}.")


@exercise("4.2 A readable transcript")
def check_transcript(transcript):
    got = attempt(transcript, _conversation())
    expected = "user: What is 2 + 3?\nassistant: The answer is 5.\nuser: Thanks!\nassistant: You're welcome."
    expect(isinstance(got, str), f"return one string, not {type(got).__name__}.")
    expect("call_1" not in got and "\ntool:" not in got and "None" not in got,
           "leave out tool messages and assistant messages with no text (content None).")
    expect(got == expected, f"expected:\n{expected}\ngot:\n{got}")


@exercise("4.3 Count the messages by role")
def check_count_roles(count_roles):
    got = attempt(count_roles, _conversation())
    expect(dict(got or {}) == {"user": 2, "assistant": 3, "tool": 1},
           f"count_roles returned {got!r}; count message['role'] over the whole history.")
    expect(dict(attempt(count_roles, []) or {}) == {}, "an empty history has no roles.")
