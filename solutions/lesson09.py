"""Reference solutions for lesson 9's exercises."""
import re

from agentloop.tokens import count_tokens


def fit_to_budget(texts, budget):
    # Greedy in ranked order, but skip (not stop at) a text that does not fit: a shorter, lower-ranked
    # memory can still use the tokens that are left.
    chosen, left = [], budget
    for text in texts:
        cost = count_tokens(text)
        if cost <= left:
            chosen.append(text)
            left -= cost
    return chosen


def rank(items, query):
    # Sort by (score, created) descending: the higher score first, and on a tie the newer ISO time,
    # which sorts as text.
    wanted = set(re.findall(r"\w+", query.lower()))

    def score(item):
        relevance = len(wanted & set(re.findall(r"\w+", item["content"].lower()))) / max(len(wanted), 1)
        return relevance + item["importance"], item["created"]

    return sorted(items, key=score, reverse=True)


def forget_memory(store, scope, memory_id):
    # The same answer for "not there" and "someone else's": telling them apart would reveal that
    # another user has a memory with that id.
    item = store.get(memory_id)
    if item is None or item.scope != scope:
        return f"No memory {memory_id}."
    store.delete(memory_id)
    return f"Deleted {memory_id}."
