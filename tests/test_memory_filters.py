"""The store's filters (since, tags, minimum importance, metadata) against a plain scan of every item."""
import random
from datetime import datetime, timedelta

import pytest

from agentloop.memory import Clock, MemoryStore, level, terms

WORDS = "tea coffee name city job paris berlin music report plan".split()
TAGS = ["work", "home", "drinks"]


def filled(seed):
    rng = random.Random(seed)
    clock = Clock("2026-01-01T09:00")
    store = MemoryStore(clock=clock)
    for n in range(120):
        clock.advance(hours=rng.randint(0, 30))
        metadata = {"tags": rng.sample(TAGS, rng.randint(0, 2)), "source": rng.choice(["chat", "import"])}
        store.write(rng.choice(["user:1", "user:2"]), " ".join(rng.sample(WORDS, 3)), metadata,
                    importance=rng.choice(["low", "medium", "high", 0.7]),
                    expires=rng.choice([None, None, timedelta(days=rng.randint(1, 60))]))
    return store, rng


def scan(store, scope, since, tags, min_importance, where):
    """What the filters mean, item by item, with nothing shared with the store's code but `level`."""
    now = store.clock()
    return [item for item in store.items.values()
            if item.scope == scope and (item.expires is None or datetime.fromisoformat(item.expires) > now)
            and (since is None or datetime.fromisoformat(item.created) >= datetime.fromisoformat(since))
            and all(tag in item.metadata["tags"] for tag in tags)
            and (min_importance is None or item.importance >= level(min_importance))
            and all(item.metadata.get(key) == value for key, value in where.items())]


@pytest.mark.parametrize("seed", range(20))
def test_list_and_search_keep_exactly_what_a_plain_scan_keeps(seed):
    store, rng = filled(seed)
    store.clock.advance(days=rng.randint(0, 40))
    for _ in range(25):
        scope = rng.choice(["user:1", "user:2"])
        filters = {"since": rng.choice([None, f"2026-01-{rng.randint(1, 28):02d}T{rng.randint(0, 23):02d}:00"]),
                   "tags": rng.sample(TAGS, rng.randint(0, 2)),
                   "min_importance": rng.choice([None, "medium", "high", 0.6]),
                   "where": rng.choice([{}, {"source": "chat"}, {"source": "import"}])}
        expected = scan(store, scope, **filters)
        assert [i.id for i in store.list(scope, **filters)] == [i.id for i in reversed(expected)]
        query = " ".join(rng.sample(WORDS, 2))
        found = store.ranked(query, scope, **filters)
        assert {i.id for i in found} == {i.id for i in expected if terms(query) & terms(i.content)}
        assert store.search(query, 3, scope, **filters) == found[:3]


def test_a_single_tag_may_be_given_as_a_string():
    store = MemoryStore(clock=Clock("2026-01-05T09:00"))
    store.write("user:1", "The user drinks tea", {"tags": ["drinks"]})
    store.write("user:1", "The user writes reports", {"tags": ["work"]})
    assert [m.content for m in store.list("user:1", tags="drinks")] == ["The user drinks tea"]
