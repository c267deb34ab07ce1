"""The memory store at scale: search against a plain scan, hand-edited files, time zones."""
import random
from datetime import datetime

import pytest

from agentloop.memory import Clock, MemoryStore, terms


def reference(store, query, scope=None, now=None):
    """What search should give, by the obvious method: score every live item, sort them all.
    Relevance is the share of the query's words an item has (in content or metadata), plus
    its importance; ties go to the newer time, then the newer id."""
    wanted = terms(query)
    now = now or store.clock()
    found = []
    for item in store.items.values():
        words = terms(item.content) | terms(" ".join(str(v) for v in item.metadata.values()))
        shared = len(wanted & words)
        if not shared or (scope is not None and item.scope not in ({scope} if isinstance(scope, str) else scope)):
            continue
        if item.expires is not None and datetime.fromisoformat(item.expires) <= now:
            continue
        found.append((shared / len(wanted) + item.importance, datetime.fromisoformat(item.created),
                      int(item.id[1:]), item.id))
    return [memory_id for *_, memory_id in sorted(found, reverse=True)]


def ids(items):
    return [item.id for item in items]


def tea_store(count):
    store, rng = MemoryStore(clock=Clock()), random.Random(count)
    for n in range(count):
        store.write("user:42", f"The user tried {rng.choice(['green', 'black', 'oolong'])} tea number {n}")
    return store


@pytest.mark.parametrize("count", [10, 1500, 5000])
def test_a_word_found_nowhere_does_not_hide_the_words_that_are_found(count):
    """Failed on main for 1,500 and 5,000: 'shipment' is in no memory, so it counted as the
    rare word and the search looked only at the items that have it: none."""
    store = tea_store(count)
    assert ids(store.search("tea shipment")) == reference(store, "tea shipment")[:5]
    assert len(store.search("tea shipment")) == 5
