"""Reference solutions for lesson 1's exercises (for teachers and the tests)."""


def reply_text(response):
    # choices is a list (a request may ask for several answers); the reply is the first message.
    return response["choices"][0]["message"]["content"]


def make_messages(system, question):
    # The system message goes first: it is the job description the model reads before the user.
    return [{"role": "system", "content": system}, {"role": "user", "content": question}]


def total_tokens(responses):
    # usage is per response and billed per call, so a conversation costs the sum of its calls.
    return sum(response["usage"]["total_tokens"] for response in responses)
