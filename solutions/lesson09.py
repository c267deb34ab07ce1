"""Reference solutions for lesson 9's exercises."""
import re

from agentloop.tokens import count_tokens


def fit_to_budget(texts, budget):
    chosen, left = [], budget
    for text in texts:
        cost = count_tokens(text)
        if cost <= left:
            chosen.append(text)
            left -= cost
    return chosen


def rank(items, query):
    wanted = set(re.findall(r"\w+", query.lower()))

    def score(item):
        relevance = len(wanted & set(re.findall(r"\w+", item["content"].lower()))) / max(len(wanted), 1)
        return relevance + item["importance"], item["created"]

    return sorted(items, key=score, reverse=True)


def forget_memory(store, scope, memory_id):
    item = store.get(memory_id)
    if item is None or item.scope != scope:
        return f"No memory {memory_id}."
    store.delete(memory_id)
    return f"Deleted {memory_id}."
