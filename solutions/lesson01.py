"""Reference solutions for lesson 1's exercises (for teachers and the tests)."""
import agentloop


def reply_text(response):
    # choices is a list (a request may ask for several answers); the reply is the first message.
    return response["choices"][0]["message"]["content"]


def agent_with(system, question):
    # The same call as agent(), with the system prompt passed in instead of the SYSTEM constant: the
    # caller decides the persona and what the model knows (lesson 6 puts memory there the same way).
    messages = [{"role": "system", "content": system}, {"role": "user", "content": question}]
    return agentloop.ask(messages)["content"]


def total_tokens(responses):
    # usage is per response and billed per call, so a conversation costs the sum of its calls.
    return sum(response["usage"]["total_tokens"] for response in responses)
