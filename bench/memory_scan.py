"""Recall by a plain scan of every memory (what MemoryStore does) against a word index.

    python bench/memory_scan.py [questions]

For 1,000, 10,000 and 100,000 memories (bench/memory_tokens.py's made-up facts: Zipf words,
so some are in thousands of memories), how long `recall` takes as the store does it, reading
every item, and through an inverted index (word -> ids) that scores only the items having one
of the query's words, with the store's own scoring. Both give the same memories (checked);
the ratio says what the index would save. The last column is the worst case for both: a word
in every memory ("user"), where an index has nothing to skip. Target: under 50 ms.
"""
import copy
import platform
import random
import statistics
import sys
import time

from agentloop.memory import terms
from memory_tokens import TOPICS, WORDS, ZIPF, facts, store_of


def through_index(store, index, question, budget):
    """The store's recall, scoring only the items an index of words finds for the question."""
    found = set().union(*(index.get(word, ()) for word in terms(question)))
    view = copy.copy(store)
    view._meta = {memory_id: store._meta[memory_id] for memory_id in found}
    return view.recall(question, budget, scope="user:42")


def milliseconds(call, questions):
    """Median and p95 of `call(question)` in ms of wall time, and the median in ms of this
    process's CPU time (on a shared machine the wall time also counts the other processes)."""
    for question in questions[:10]:
        call(question)
    wall, cpu = [], []
    for question in questions:
        start, start_cpu = time.perf_counter(), time.process_time()
        call(question)
        wall.append((time.perf_counter() - start) * 1000)
        cpu.append((time.process_time() - start_cpu) * 1000)
    return statistics.median(wall), statistics.quantiles(wall, n=20)[18], statistics.median(cpu)


def main(count: int = 100, budget: int = 200) -> None:
    rng = random.Random(1)
    questions = [f"What about my {rng.choice(TOPICS)} and the {' '.join(rng.choices(WORDS, cum_weights=ZIPF, k=2))}?"
                 for _ in range(count)]
    print(f"recall, {budget}-token budget, {count} questions; {platform.python_implementation()} "
          f"{platform.python_version()} on {platform.machine()}; ms: median / p95 (median CPU)")
    print(f"  {'memories':>8}  {'scan':>21}  {'index':>21}  {'scan/index':>10}  {'user: scan / index':>29}")
    for size in (1_000, 10_000, 100_000):
        store = store_of(facts(size))
        index = {}
        for memory_id, (words, *_) in store._meta.items():
            for word in words:
                index.setdefault(word, set()).add(memory_id)
        for question in questions + ["user"]:
            assert through_index(store, index, question, budget) == store.recall(question, budget, "user:42")
        scan = milliseconds(lambda q: store.recall(q, budget, scope="user:42"), questions)
        indexed = milliseconds(lambda q: through_index(store, index, q, budget), questions)
        worst = [milliseconds(call, ["user"] * 5) for call in
                 (lambda q: store.recall(q, budget, scope="user:42"), lambda q: through_index(store, index, q, budget))]
        print(f"  {size:>8,}  {'%6.2f / %6.2f (%6.2f)' % scan}  {'%6.2f / %6.2f (%6.2f)' % indexed}  "
              f"{scan[0] / indexed[0]:10.1f}  {worst[0][0]:6.1f} ({worst[0][2]:5.1f}) / {worst[1][0]:6.1f} ({worst[1][2]:5.1f})")


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:2]))
