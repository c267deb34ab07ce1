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


def _roles(messages) -> object:
    """The roles of a list of messages, to show in a hint; anything else as it is."""
    if isinstance(messages, list) and all(isinstance(m, dict) for m in messages):
        return [m.get("role") for m in messages]
    return messages


@exercise("4.1 Trim the history without breaking it")
def check_trim_history(trim_history):
    history = _conversation()
    got = attempt(trim_history, history, 2)
    expect(got == history[-2:], f"trim_history(history, 2) returned {got!r}; keep the last 2 messages.",
           fix="history[-keep:] when keep > 0, as a new list.")
    expect(len(history) == 6, f"after trim_history the history you were given has {len(history)} messages, not 6.",
           fix="build and return a new list (a slice); don't pop or del from the history.")
    got = attempt(trim_history, history, 5)
    expect(got == history[-2:], f"trim_history(history, 5) returned the roles {_roles(got)}: the model rejects an "
                                "orphan tool result (a 400 error) and a chat that starts mid-reply.",
           fix="after slicing, drop messages from the front until the first one's role is 'user'; the two "
               "assistant and tool messages must not start the list.")
    got = attempt(trim_history, history, 6)
    expect(got == history, f"trim_history(history, 6) returned the roles {_roles(got)}: all 6 messages fit.",
           fix="when keep >= len(history), return a copy of the whole history.")
    got = attempt(trim_history, history, 0)
    expect(got == [], f"keeping 0 messages gives [], got {got!r}.",
           fix="history[-0:] is the whole list: handle keep == 0 (or less) first.")


@exercise("4.2 A readable transcript")
def check_transcript(transcript):
    got = attempt(transcript, _conversation())
    expected = "user: What is 2 + 3?\nassistant: The answer is 5.\nuser: Thanks!\nassistant: You're welcome."
    expect(isinstance(got, str), f"transcript returned {got!r}: return one string.",
           fix="'\\n'.join(the lines).")
    expect("call_1" not in got and "\ntool:" not in got and "None" not in got,
           "your transcript shows what the user never sees: tool traffic.",
           fix="leave out tool messages and assistant messages with no text (content None).")
    expect(got == expected, f"expected:\n{expected}\ngot:\n{got}",
           fix="one f\"{message['role']}: {message['content']}\" line per message kept, joined with '\\n'.")


@exercise("4.3 Count the messages by role")
def check_count_roles(count_roles):
    got = attempt(count_roles, _conversation())
    expect(dict(got or {}) == {"user": 2, "assistant": 3, "tool": 1},
           f"count_roles returned {got!r}, expected {{'user': 2, 'assistant': 3, 'tool': 1}}.",
           fix="count message['role'] over the whole history: Counter(m['role'] for m in history).")
    got = attempt(count_roles, [])
    expect(dict(got or {}) == {}, f"for an empty history count_roles returned {got!r}: it has no roles.",
           fix="start from an empty dict (or Counter) and only add what you find.")
