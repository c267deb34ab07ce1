"""Reference solutions for lesson 1's exercises (for teachers and the tests)."""
import json
import time
import urllib.error
import urllib.request

from agentloop import endpoint

# The lesson's own POST, as the notebook defines it (the answers below are built on it).
BASE_URL = endpoint.start()
API_KEY = "sk-placeholder"


def post_chat(messages, model="teaching-model"):
    body = json.dumps({"model": model, "messages": messages}).encode()
    request = urllib.request.Request(
        BASE_URL + "/chat/completions", data=body, method="POST",
        headers={"Content-Type": "application/json", "Authorization": f"Bearer {API_KEY}"})
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.loads(reply.read())


def agent_with(system, question):
    # The same call as agent(), with the system prompt passed in instead of the SYSTEM constant: the
    # caller decides the persona and what the model knows (lesson 6 puts memory there the same way).
    messages = [{"role": "system", "content": system}, {"role": "user", "content": question}]
    return post_chat(messages)["choices"][0]["message"]["content"]


def post_chat_or_error(messages, model="teaching-model"):
    # An error status comes with a body, like a reply: the server's explanation is in it, in the
    # same {"error": {"message": ...}} shape every OpenAI-compatible API uses.
    try:
        return post_chat(messages, model)
    except urllib.error.HTTPError as error:
        return json.loads(error.read())["error"]["message"]


def post_chat_patiently(messages, model="teaching-model"):
    # Only a 429 (too many requests) is worth a second try: the server says how long to wait.
    # Anything else (a 400: the request is wrong) would fail the same way again, so it goes up.
    try:
        return post_chat(messages, model)
    except urllib.error.HTTPError as error:
        if error.code != 429:
            raise
        time.sleep(float(error.headers.get("Retry-After", 1)))
        return post_chat(messages, model)
