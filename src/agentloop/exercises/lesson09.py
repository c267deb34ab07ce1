"""Lesson 9 exercises: injecting within a budget, ranking memories, deleting only in scope."""
from ..checks import attempt, exercise, expect
from ..memory import Clock, MemoryStore
from ..tokens import count_tokens


@exercise("9.1 Fit memories into a token budget")
def check_fit_to_budget(fit_to_budget):
    texts = ["The user's name is Ada", "The user prefers green tea", "Ada", "The user lives in a small flat in Paris"]
    first, second, third, _ = (count_tokens(t) for t in texts)  # 7, 5, 1, 9 tokens
    got = attempt(fit_to_budget, texts, 100)
    expect(isinstance(got, list), f"return a list of texts, not {type(got).__name__}.")
    expect(got == texts, f"with room for everything, fit_to_budget returned {got!r}; return all the texts, in order.")
    for budget, expected in ((first + second, texts[:2]), (first + third, [texts[0], texts[2]]),
                             (first - 1, [texts[1], texts[2]])):
        got = attempt(fit_to_budget, texts, budget)
        spent = sum(count_tokens(t) for t in got) if isinstance(got, list) else 0
        expect(spent <= budget, f"with a budget of {budget} you returned {got!r}, {spent} tokens: never go over.")
        expect(got == expected, f"with a budget of {budget} you returned {got!r}, expected {expected!r}: take the texts "
                                "in order, skip one that doesn't fit and keep trying the next ones.")
    expect(attempt(fit_to_budget, texts, 0) == [], "a budget of 0 fits nothing: return [].")
    expect(attempt(fit_to_budget, [], 50) == [], "no texts: return [].")


def _item(content, importance, created):
    return {"content": content, "importance": importance, "created": created}


@exercise("9.2 Rank memories")
def check_rank(rank):
    name = _item("The user's name is Ada", 0.9, "2026-01-01T09:00:00")
    tea = _item("The user prefers green tea", 0.5, "2026-01-02T09:00:00")
    old_tea = _item("The user drank tea in Kyoto", 0.5, "2025-06-01T09:00:00")
    paris = _item("The user is in Paris this week", 0.2, "2026-01-05T09:00:00")
    items = [paris, old_tea, name, tea]
    got = attempt(rank, list(items), "name")
    expect(isinstance(got, list) and len(got) == 4, f"rank returned {got!r}; return all the items, reordered.")
    expect(got[0] is name, f"for the query 'name' the first item was {got[0].get('content')!r}; the one that "
                           "contains the word comes first (relevance 1 + importance 0.9).")
    expect(got[1:] == [tea, old_tea, paris], "after the relevant item come the others by importance, "
                                             f"the newest first on ties; got {[i['content'] for i in got]}.")
    got = attempt(rank, list(items), "Tea")
    shown = [i["content"] for i in got]
    expect(any(i is tea for i in got[:2]) and any(i is old_tea for i in got[:2]),
           f"for 'Tea' you ranked {shown}: the two memories with the word tea come first (compare words in lower case).")
    expect(got[:2] == [tea, old_tea], f"for 'Tea' you ranked {shown}: two memories with equal scores, so the newer "
                                      "one goes first.")
    expect(got[2] is name, f"for 'Tea', after the two tea memories comes the most important one (the name); "
                           f"got {[i['content'] for i in got]}.")
    low_match = _item("The user likes tea and cake", 0.2, "2026-01-03T09:00:00")
    got = attempt(rank, [name, low_match], "tea cake")
    expect(got[0] is low_match, "relevance is the share of the query's words that appear: both words (1.0) + 0.2 "
                                f"beats none (0) + 0.9; got {[i['content'] for i in got]}.")
    half = _item("The user likes cake", 0.9, "2026-01-04T09:00:00")
    got = attempt(rank, [low_match, half], "tea cake")
    expect(got[0] is half, "relevance is a share, from 0 to 1: one of two words (0.5) + 0.9 beats both words (1.0) "
                           f"+ 0.2; got {[i['content'] for i in got]}.")


@exercise("9.3 Delete only in scope")
def check_forget_memory(forget_memory):
    store = MemoryStore(clock=Clock())
    mine = store.write("user:42", "The user's birthday is Jan 20th 1990")
    theirs = store.write("user:7", "The user's birthday is May 1st 1985")
    got = attempt(forget_memory, store, "user:42", theirs.id)
    expect(store.get(theirs.id) is not None, f"forget_memory(store, 'user:42', {theirs.id!r}) deleted another user's "
                                             "memory: check item.scope first.")
    expect(got == f"No memory {theirs.id}.", f"for another user's memory return 'No memory {theirs.id}.' (the same "
                                             f"as for one that doesn't exist, so nothing leaks); got {got!r}.")
    got = attempt(forget_memory, store, "user:42", "m99")
    expect(got == "No memory m99.", f"for an id that doesn't exist return 'No memory m99.', got {got!r}.")
    got = attempt(forget_memory, store, "user:42", mine.id)
    expect(store.get(mine.id) is None, f"forget_memory(store, 'user:42', {mine.id!r}) did not delete the user's own memory.")
    expect(got == f"Deleted {mine.id}.", f"after deleting, return 'Deleted {mine.id}.', got {got!r}.")
