"""Reference solutions for lesson 4's exercises."""
from collections import Counter


def trim_history(history, keep):
    kept = history[len(history) - keep:] if keep else []
    while kept and kept[0]["role"] != "user":
        kept = kept[1:]
    return kept


def transcript(history):
    return "\n".join(f"{m['role']}: {m['content']}" for m in history
                     if m["role"] in ("user", "assistant") and m.get("content"))


def count_roles(history):
    return Counter(m["role"] for m in history)
