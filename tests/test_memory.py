"""The memory store (agentloop.memory): every feature lesson 9 and the extras rely on."""
import json
from datetime import datetime, timedelta

import pytest

from agentloop.memory import Clock, Item, MemoryStore, level, terms
from agentloop.tokens import count_tokens


@pytest.fixture
def clock():
    return Clock("2026-01-05T09:00")


@pytest.fixture
def store(clock):
    return MemoryStore(clock=clock)


def contents(items):
    return [item.content for item in items]


def test_write_gives_every_field(store):
    item = store.write("user:42", "The user's name is Ada", {"key": "name"}, importance="high")
    assert item == Item("m1", "user:42", "The user's name is Ada", {"key": "name"}, 0.9,
                        "2026-01-05T09:00:00", None)
    assert store.get("m1") is item and len(store) == 1


def test_ids_are_m1_m2_and_never_reused(store):
    assert [store.write("user:42", f"fact {n}").id for n in range(3)] == ["m1", "m2", "m3"]
    assert store.delete("m3")
    assert store.write("user:42", "another").id == "m4"


@pytest.mark.parametrize("given, expected", [("low", 0.2), ("medium", 0.5), ("HIGH", 0.9),
                                             (0.7, 0.7), ("0.3", 0.3), (5, 1.0), (-1, 0.0)])
def test_importance_as_a_word_or_a_number(given, expected):
    assert level(given) == expected


def test_an_unknown_importance_is_a_clear_error(store):
    with pytest.raises(ValueError, match="low, medium, high"):
        store.write("user:42", "x", importance="urgent")


def test_delete(store):
    store.write("user:42", "The user likes tea")
    assert store.delete("m1") is True
    assert store.delete("m1") is False and store.delete("m99") is False
    assert store.get("m1") is None and store.search("tea") == [] and store.list() == []


def test_expiry_hides_then_expire_deletes(store, clock):
    store.write("user:42", "The user is in Paris this week", expires=timedelta(days=6))
    store.write("user:42", "The user likes tea", expires="2026-01-20")
    store.write("user:42", "The user's name is Ada")
    assert store.get("m1").expires == "2026-01-11T09:00:00"
    assert store.get("m2").expires == "2026-01-20T00:00:00"  # a date alone means its midnight
    clock.advance(days=6, seconds=-1)
    assert len(store.list()) == 3
    clock.advance(seconds=1)  # the moment it expires, it is gone
    assert contents(store.list()) == ["The user's name is Ada", "The user likes tea"]
    assert store.get("m1") is None and store.search("Paris") == [] and store.recall("Paris", 100) == []
    assert len(store) == 3  # hidden, not yet deleted
    assert [item.id for item in store.expire()] == ["m1"]
    assert len(store) == 2 and "m1" not in store.items


def test_expires_accepts_a_datetime(store):
    item = store.write("user:42", "x", expires=datetime(2026, 2, 1, 12, 30, 15, 999))
    assert item.expires == "2026-02-01T12:30:15"


def test_scopes_are_isolated(store):
    store.write("user:42", "The user's name is Ada")
    store.write("user:7", "The user's name is Bob")
    store.write("agent:researcher", "Tea was first drunk in China")
    assert contents(store.search("name", scope="user:42")) == ["The user's name is Ada"]
    assert contents(store.search("name", scope="user:7")) == ["The user's name is Bob"]
    assert contents(store.list("user:42")) == ["The user's name is Ada"]
    assert contents(store.recall("name", 100, scope="user:42")) == ["The user's name is Ada"]
    assert store.search("tea", scope="user:42") == []
    assert len(store.search("name")) == 2  # no scope: every scope
    assert len(store.list(["user:42", "agent:researcher"])) == 2


def test_list_is_newest_first_with_a_limit(store, clock):
    for n in range(4):
        store.write("user:42", f"fact {n}")
        clock.advance(minutes=1)
    assert contents(store.list("user:42")) == ["fact 3", "fact 2", "fact 1", "fact 0"]
    assert contents(store.list("user:42", limit=2)) == ["fact 3", "fact 2"]


def test_search_terms_ignore_case_stop_words_and_plurals():
    assert terms("What is my favourite Drinks?") == {"favourite", "drink"}
    assert terms("The user's cups of teas, 1990") == {"user", "cup", "tea", "1990"}
    assert terms("class") == {"class"}  # a double s is not a plural


def test_search_matches_words_in_content_and_metadata(store):
    store.write("user:42", "The user prefers green tea", {"topic": "drinks"})
    store.write("user:42", "The user's name is Ada")
    assert contents(store.search("TEA")) == ["The user prefers green tea"]
    assert contents(store.search("what do I drink")) == ["The user prefers green tea"]  # via metadata
    assert store.search("which beverage") == []  # keywords only: no synonyms (that is what embeddings add)
    assert store.search("") == [] and store.search("what is it") == []  # only stop words: nothing to match


def test_ranking_relevance_plus_importance_newest_on_ties(store, clock):
    store.write("user:42", "The user drank tea in Kyoto")                 # m1: 1/1 + 0.5
    clock.advance(days=1)
    store.write("user:42", "The user prefers green tea")                  # m2: 1/1 + 0.5, newer
    store.write("user:42", "The user likes tea and cake", importance=0.1)  # m3: 1/1 + 0.1
    store.write("user:42", "Cake is a treat", importance="high")          # m4: 0/1 for "tea"
    assert [i.id for i in store.search("tea")] == ["m2", "m1", "m3"]
    # relevance is the share of the query's words, and weighs as much as importance:
    # m4 (1/2 + 0.9) beats m3 (2/2 + 0.1), which beats m2 and m1 (1/2 + 0.5, newest first)
    assert [i.id for i in store.search("tea cake")] == ["m4", "m3", "m2", "m1"]
    assert [i.id for i in store.search("tea", limit=1)] == ["m2"]


def test_same_time_ties_break_by_the_newer_id(store):
    store.write("user:42", "tea one")
    store.write("user:42", "tea two")
    assert contents(store.search("tea")) == ["tea two", "tea one"]


def test_recall_honours_the_budget_in_rank_order(store):
    store.write("user:42", "The user's name is Ada", importance="high")                 # 7 tokens
    store.write("user:42", "The user's name was once written down on a long, long list of names")
    store.write("user:42", "name: Ada")                                                  # 3 tokens
    ranked = store.ranked("name")
    assert [i.id for i in ranked] == ["m1", "m3", "m2"]
    for budget in range(0, 40):
        chosen = store.recall("name", budget)
        assert sum(count_tokens(i.content) for i in chosen) <= budget
        assert [i.id for i in chosen] == [i.id for i in ranked if i in chosen]  # best first
    assert store.recall("name", 5) == [store.get("m3")]  # m1 does not fit, the shorter one does
    assert [i.id for i in store.recall("name", 10)] == ["m1", "m3"]
    assert len(store.recall("name", 1000)) == 3


def test_recall_skips_what_does_not_fit_and_keeps_trying(store):
    store.write("user:42", "tea " * 20, importance="high")
    store.write("user:42", "tea please")
    assert contents(store.recall("tea", 5)) == ["tea please"]


def test_save_and_load_round_trip(store, clock, tmp_path):
    store.write("user:42", "The user's name is Ada", {"key": "name"}, importance="high")
    store.write("user:42", "The user is in Paris this week", expires=timedelta(days=6))
    store.write("agent:researcher", "Tea was first drunk in China", {"topic": "tea"}, importance=0.3)
    store.delete("m2")
    path = tmp_path / "memory.json"
    store.save(path)
    data = json.loads(path.read_text())
    assert data["next_id"] == 4 and [i["id"] for i in data["items"]] == ["m1", "m3"]
    loaded = MemoryStore.load(path, clock=clock)
    assert loaded.items == store.items
    assert contents(loaded.search("tea")) == ["Tea was first drunk in China"]  # the index is rebuilt
    assert loaded.write("user:42", "new").id == "m4"  # ids carry on, never reused


def test_load_without_a_file_is_an_empty_store(tmp_path, clock):
    loaded = MemoryStore.load(tmp_path / "none.json", clock=clock)
    assert len(loaded) == 0 and loaded.write("user:42", "x").id == "m1"


def test_load_with_a_wrong_next_id_never_reuses_an_id(tmp_path, clock):
    path = tmp_path / "memory.json"
    path.write_text(json.dumps({"next_id": 1, "items": [
        {"id": "m7", "scope": "user:42", "content": "x", "metadata": {}, "importance": 0.5,
         "created": "2026-01-05T09:00:00", "expires": None}]}))
    assert MemoryStore.load(path, clock=clock).write("user:42", "y").id == "m8"


def test_default_clock_is_the_real_time(tmp_path):
    item = MemoryStore().write("user:42", "x")
    assert abs(datetime.fromisoformat(item.created) - datetime.now()) < timedelta(seconds=5)


def test_two_agents_share_one_store(store):
    """The researcher writes into its scope; the summariser, allowed to read it, finds it;
    the user's scope never sees it."""
    researcher, summariser = ["agent:researcher"], ["agent:researcher", "agent:summariser"]
    store.write("user:42", "The user prefers green tea")
    note = store.write(researcher[0], "Finding: tea was first drunk in China", {"topic": "tea"})
    assert store.search("China", scope=summariser) == [note]
    store.write("agent:summariser", "Summary: tea began in China")
    assert contents(store.search("China", scope=summariser)) == [
        "Summary: tea began in China", "Finding: tea was first drunk in China"]
    assert store.search("China", scope=researcher) == [note]
    assert store.search("China", scope="user:42") == []


def test_clock_moves_by_hand():
    clock = Clock("2026-01-05T09:00")
    assert clock() == datetime(2026, 1, 5, 9)
    assert clock.advance(days=1, hours=2) == datetime(2026, 1, 6, 11) == clock()
