"""Lesson 9 exercises: injecting within a budget, ranking memories, deleting only in scope."""
from ..checks import attempt, exercise, expect
from ..memory import Clock, MemoryStore
from ..tokens import count_tokens


@exercise("9.1 Fit memories into a token budget")
def check_fit_to_budget(fit_to_budget):
    texts = ["The user's name is Ada", "The user prefers green tea", "Ada", "The user lives in a small flat in Paris"]
    first, second, third, _ = (count_tokens(t) for t in texts)  # 7, 5, 1, 9 tokens
    got = attempt(fit_to_budget, texts, 100)
    expect(isinstance(got, list), f"fit_to_budget returned {got!r}, not a list.",
           fix="return a list of the texts chosen, [] if none fits.")
    expect(got == texts, f"with room for everything, fit_to_budget returned {got!r}.",
           fix="return all the texts, in the order given.")
    for budget, expected in ((first + second, texts[:2]), (first + third, [texts[0], texts[2]]),
                             (first - 1, [texts[1], texts[2]])):
        got = attempt(fit_to_budget, texts, budget)
        spent = sum(count_tokens(t) for t in got) if isinstance(got, list) else 0
        expect(spent <= budget, f"with a budget of {budget} you returned {got!r}, {spent} tokens: never go over.",
               fix="count_tokens(text) for each text, and take it only if it fits in what is left.")
        expect(got == expected, f"with a budget of {budget} you returned {got!r}, expected {expected!r}: take "
                                "the texts in order, skip one that doesn't fit and keep trying the next ones.",
               fix="continue past a text that doesn't fit rather than break: a smaller one after it may still fit.")
    got = attempt(fit_to_budget, texts, 0)
    expect(got == [], f"with a budget of 0 you returned {got!r}: a budget of 0 fits nothing.",
           fix="start from [] and add only texts whose tokens fit.")
    got = attempt(fit_to_budget, [], 50)
    expect(got == [], f"with no texts you returned {got!r}.", fix="no texts: return [].")


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
    expect(isinstance(got, list) and len(got) == 4, f"rank returned {got!r}; return all the items, reordered.",
           fix="sorted(items, key=..., reverse=True): the same items, best first.")
    expect(got[0] is name, f"for the query 'name' the first item was {got[0].get('content')!r}: which memory "
                           "should come first?",
           fix="the one that contains the word comes first: its score is relevance 1 + importance 0.9.")
    expect(got[1:] == [tea, old_tea, paris], f"for 'name' you ranked {[i['content'] for i in got]}: after the "
                                             "relevant item come the others by importance, the newest first on ties.",
           fix="sort on the pair (score, item['created']), reversed.")
    got = attempt(rank, list(items), "Tea")
    shown = [i["content"] for i in got]
    expect(any(i is tea for i in got[:2]) and any(i is old_tea for i in got[:2]),
           f"for 'Tea' you ranked {shown}: the two memories with the word tea come first, in upper or lower case.",
           fix="compare words in lower case (query.lower(), content.lower()): 'Tea' matches 'tea'.")
    expect(got[:2] == [tea, old_tea], f"for 'Tea' you ranked {shown}: two memories with equal scores.",
           fix="on equal scores the newer one goes first: sort on (score, created), reversed.")
    expect(got[2] is name, f"for 'Tea' you ranked {shown}.",
           fix="after the two tea memories comes the most important one (the name): relevance + importance.")
    low_match = _item("The user likes tea and cake", 0.2, "2026-01-03T09:00:00")
    got = attempt(rank, [name, low_match], "tea cake")
    expect(got[0] is low_match, f"for 'tea cake' you ranked {[i['content'] for i in got]}: a memory with both "
                                "words and importance 0.2 beats one with neither and 0.9.",
           fix="relevance is the share of the query's words that appear: both words (1.0) + 0.2 beats none (0) + 0.9.")
    half = _item("The user likes cake", 0.9, "2026-01-04T09:00:00")
    got = attempt(rank, [low_match, half], "tea cake")
    expect(got[0] is half, f"for 'tea cake' you ranked {[i['content'] for i in got]}: one of the two words and "
                           "importance 0.9 beats both words and 0.2, since relevance is a share.",
           fix="relevance is a share, from 0 to 1: one of two words (0.5) + 0.9 beats both words (1.0) + 0.2; "
               "divide the words found by the query's words.")


@exercise("9.3 Delete only in scope")
def check_forget_memory(forget_memory):
    store = MemoryStore(clock=Clock())
    mine = store.write("user:42", "The user's birthday is Jan 20th 1990")
    theirs = store.write("user:7", "The user's birthday is May 1st 1985")
    got = attempt(forget_memory, store, "user:42", theirs.id)
    expect(store.get(theirs.id) is not None, f"forget_memory(store, 'user:42', {theirs.id!r}) deleted another user's "
                                             "memory.", fix="look the item up and check item.scope first.")
    expect(got == f"No memory {theirs.id}.", f"for another user's memory you returned {got!r}: so that nothing "
                                             "leaks, user:42 must not learn that it exists.",
           fix=f"return 'No memory {theirs.id}.', the same as for one that doesn't exist.")
    got = attempt(forget_memory, store, "user:42", "m99")
    expect(got == "No memory m99.", f"for an id that doesn't exist you returned {got!r}.",
           fix="store.get(memory_id) is None: return 'No memory m99.'.")
    got = attempt(forget_memory, store, "user:42", mine.id)
    expect(store.get(mine.id) is None, f"forget_memory(store, 'user:42', {mine.id!r}) did not delete the user's own memory.",
           fix="store.delete(memory_id) once the scope matches.")
    expect(got == f"Deleted {mine.id}.", f"after deleting you returned {got!r}.", fix=f"return 'Deleted {mine.id}.'.")
