"""Lesson 1 exercises: reading a response, building messages, counting tokens."""
from ..checks import attempt, exercise, expect

SAMPLE = {"choices": [{"index": 0, "finish_reason": "stop",
                       "message": {"role": "assistant", "content": "Paris."}}],
          "usage": {"prompt_tokens": 12, "completion_tokens": 2, "total_tokens": 14}}


@exercise("1.1 The reply's text")
def check_reply_text(reply_text):
    got = attempt(reply_text, SAMPLE)
    expect(got == "Paris.", f"reply_text(response) returned {got!r}; the text is in "
                            "response['choices'][0]['message']['content'].")
    other = {**SAMPLE, "choices": [{"message": {"role": "assistant", "content": "Rome."}}]}
    expect(attempt(reply_text, other) == "Rome.", "read the text from the response you are given, don't hard-code it.")


@exercise("1.2 Build the messages")
def check_make_messages(make_messages):
    got = attempt(make_messages, "You are terse.", "Hi?")
    expected = [{"role": "system", "content": "You are terse."}, {"role": "user", "content": "Hi?"}]
    expect(isinstance(got, list), f"return a list of message dicts, not {type(got).__name__}.")
    expect(len(got) == 2, f"return two messages (system, then user); you returned {len(got)}.")
    expect(got[0].get("role") == "system", "the first message's role is 'system'.")
    expect(got[1].get("role") == "user", "the second message's role is 'user'.")
    expect(got == expected, f"expected {expected}, got {got}.")


@exercise("1.3 Count the tokens you spent")
def check_total_tokens(total_tokens):
    responses = [SAMPLE, {**SAMPLE, "usage": {"prompt_tokens": 5, "completion_tokens": 1, "total_tokens": 6}}]
    got = attempt(total_tokens, responses)
    expect(got == 20, f"total_tokens(responses) returned {got!r}; add up response['usage']['total_tokens'].")
    expect(attempt(total_tokens, []) == 0, "with no responses you spent 0 tokens.")
