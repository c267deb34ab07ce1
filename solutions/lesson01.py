"""Reference solutions for lesson 1's exercises (for teachers and the tests)."""


def reply_text(response):
    return response["choices"][0]["message"]["content"]


def make_messages(system, question):
    return [{"role": "system", "content": system}, {"role": "user", "content": question}]


def total_tokens(responses):
    return sum(response["usage"]["total_tokens"] for response in responses)
