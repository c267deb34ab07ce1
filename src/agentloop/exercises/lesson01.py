"""Lesson 1 exercises: reading a response, an agent that takes its system prompt, counting tokens."""
from .. import trace
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
    expect(attempt(reply_text, other) == "Rome.", "read the text from the response you are given, don't hard-code it.",
           fix="return response['choices'][0]['message']['content'] of the response argument.")


@exercise("1.2 An agent that takes its system prompt")
def check_agent_with(agent_with):
    for name in ("Ada", "Bob"):  # two facts, so an answer typed in by hand fails one of them
        system = f"You are a helpful assistant. The user's name is {name}."
        start = len(trace.events)
        got = attempt(agent_with, system, "What is my name?")
        sent = [event.payload for event in trace.events[start:] if event.kind == "request"]
        expect(sent, "agent_with made no model call; it should send the messages to the model.",
               fix="return agentloop.ask(messages)['content'], as agent() does.")
        expected = [{"role": "system", "content": system}, {"role": "user", "content": "What is my name?"}]
        expect(sent[-1]["messages"] == expected,
               f"the model was sent {sent[-1]['messages']}; send the system prompt you were given, then the question.",
               fix="messages = [{'role': 'system', 'content': system}, {'role': 'user', 'content': question}].")
        expect(isinstance(got, str), f"agent_with returned {type(got).__name__}; return the reply's text.",
               fix="the text is agentloop.ask(messages)['content'].")
        expect(name in got, f"the model read '{system}' and agent_with returned {got!r}.",
               fix="return the reply's content as the model wrote it: it already names the user.")


@exercise("1.3 Count the tokens you spent")
def check_total_tokens(total_tokens):
    responses = [SAMPLE, {**SAMPLE, "usage": {"prompt_tokens": 5, "completion_tokens": 1, "total_tokens": 6}}]
    got = attempt(total_tokens, responses)
    expect(got == 20, f"total_tokens(responses) returned {got!r}; add up response['usage']['total_tokens'].")
    expect(attempt(total_tokens, []) == 0, "with no responses you spent 0 tokens.",
           fix="start the total at 0 (sum() of nothing is 0).")
