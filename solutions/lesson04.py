"""Reference solutions for lesson 4's exercises."""
from collections import Counter


def trim_history(history, keep):
    # Keep the tail, then drop from the front until a user message starts it: a tool result or an
    # assistant reply whose question was cut off would make the API refuse the request.
    kept = history[len(history) - keep:] if keep else []
    while kept and kept[0]["role"] != "user":
        kept = kept[1:]
    return kept


def transcript(history):
    # Tool messages and tool-call-only replies have no text a person would read.
    return "\n".join(f"{m['role']}: {m['content']}" for m in history
                     if m["role"] in ("user", "assistant") and m.get("content"))


def count_roles(history):
    # Counter is a dict that counts; a plain dict with .get(role, 0) + 1 works as well.
    return Counter(m["role"] for m in history)
