"""What memory costs per turn: the whole dict (lesson 6) against budgeted recall (lesson 9).

    python bench/memory_tokens.py [budget_tokens]

For 0 to 10,000 stored memories, one turn's prompt tokens as the model bills them (the
`usage.prompt_tokens` of a real request to the teaching model: the system prompt with the
memory in it, the question, the tool schemas), once with every memory injected as lesson 6
does, and once with only what `MemoryStore.recall` picks within a token budget. Then how
long `recall` takes on 10,000 and 100,000 memories (the target: under 50 ms). Writes the
figures to stdout and a plot to bench/memory_tokens.png.
"""
import platform
import random
import statistics
import sys
import time
from pathlib import Path

import agentloop
from agentloop.memory import Clock, MemoryStore

SIZES = [0, 100, 250, 500, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 9000, 10000]
TOPICS = ["book", "film", "city", "dish", "song", "colleague", "project", "hobby", "team", "shop",
          "gift", "plant", "game", "podcast", "course", "car", "café", "trail", "museum", "recipe"]
# Values come from 5,000 made-up words, drawn the way words are used (Zipf: a few very often,
# most rarely), so some words are in thousands of memories and most in a handful.
SYLLABLES = ["ka", "lo", "mi", "ru", "te", "sa", "no", "vi", "da", "pe"]
WORDS = [a + b + c + d for a in SYLLABLES for b in SYLLABLES for c in SYLLABLES for d in SYLLABLES[:5]]
ZIPF = list(__import__("itertools").accumulate(1 / rank for rank in range(1, len(WORDS) + 1)))  # cumulative
QUESTION = "What is my favourite book?"
REMEMBER = {"type": "function", "function": {"name": "remember", "description": "Remember a fact about the user.",
            "parameters": {"type": "object", "properties": {"key": {"type": "string"}, "value": {"type": "string"}},
                           "required": ["key", "value"]}}}


def facts(count: int, seed: int = 0) -> list[tuple[str, str]]:
    """`count` different facts about a user, as (key, value), the same on every run."""
    rng = random.Random(seed)
    found = [("favourite book", "Dune")]
    while len(found) < count:
        n = len(found)
        found.append((f"{rng.choice(TOPICS)} {n}", " ".join(rng.choices(WORDS, cum_weights=ZIPF, k=3))))
    return found[:count]


def store_of(pairs, clock=None) -> MemoryStore:
    store = MemoryStore(clock=clock or Clock())
    for n, (key, value) in enumerate(pairs):
        store.write("user:42", f"The user's {key} is {value}", {"key": key}, importance=(0.9 if n == 0 else 0.5))
    return store


def prompt_tokens(memory_text: str) -> int:
    """The prompt tokens of one turn with this memory in the system prompt (lesson 6's shape)."""
    system = f"You are a helpful assistant with a memory.\n\nWhat you remember about the user:\n{memory_text}"
    response = agentloop.complete([{"role": "system", "content": system}, {"role": "user", "content": QUESTION}],
                                  tools=[REMEMBER])
    agentloop.trace.clear()
    return response["usage"]["prompt_tokens"]


def tokens_per_turn(budget: int):
    rows = []
    for size in SIZES:
        pairs = facts(size)
        whole = "\n".join(f"- {key}: {value}" for key, value in pairs) or "(nothing yet)"
        picked = store_of(pairs).recall(QUESTION, budget, scope="user:42")
        recalled = "\n".join(f"- {m.content}" for m in picked) or "(nothing relevant)"
        rows.append((size, prompt_tokens(whole), prompt_tokens(recalled), len(picked)))
    return rows


def recall_latency(size: int, budget: int, queries: int = 200):
    """CPU milliseconds per recall on `size` memories: (median, p95), and seconds to write them all.
    CPU time, not wall time: on a shared machine wall time measures the neighbours."""
    start = time.perf_counter()
    store = store_of(facts(size))
    built = time.perf_counter() - start
    rng = random.Random(1)  # questions use the words memories use, common ones as often
    questions = [f"What about my {rng.choice(TOPICS)} and the {' '.join(rng.choices(WORDS, cum_weights=ZIPF, k=2))}?"
                 for _ in range(queries)]
    for question in questions[:20]:  # warm up
        store.recall(question, budget)
    spent = []
    for question in questions:
        start = time.process_time()
        store.recall(question, budget, scope="user:42")
        spent.append((time.process_time() - start) * 1000)
    start = time.process_time()
    store.recall("user", budget, scope="user:42")  # the worst case: a word in every memory
    worst = (time.process_time() - start) * 1000
    return statistics.median(spent), statistics.quantiles(spent, n=20)[18], built, worst


def plot(rows, latencies, budget: int, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")  # no window: write the file
    import matplotlib.pyplot as plt

    figure, (left, right) = plt.subplots(1, 2, figsize=(11, 4.4), gridspec_kw={"width_ratios": [2.2, 1]})
    sizes = [r[0] for r in rows]
    for column, marker, label in ((1, "o-", "the whole dict in every prompt (lesson 6)"),
                                  (2, "s-", f"budgeted recall, {budget} tokens (lesson 9)")):
        left.plot(sizes, [r[column] for r in rows], marker, label=label)
        left.annotate(f"{rows[-1][column]:,}", (sizes[-1], rows[-1][column]), textcoords="offset points",
                      xytext=(0, 7), ha="right")
    left.set_yscale("log")
    left.set_xlabel("memories stored")
    left.set_ylabel("prompt tokens per turn (log scale)")
    left.set_title("What memory costs on every turn")
    left.grid(True, which="both", alpha=0.3)
    left.legend(loc="center right")
    labels = [f"{size:,}" for size in latencies]
    width = 0.38
    for offset, which, name in ((-width / 2, 0, "median"), (width / 2, 1, "p95")):
        values = [latencies[size][which] for size in latencies]
        bars = right.bar([x + offset for x in range(len(values))], values, width, label=name)
        right.bar_label(bars, [f"{v:.1f}" for v in values], padding=2)
    right.set_xticks(range(len(labels)), labels)
    right.axhline(50, color="tab:red", linestyle="--", label="target: 50 ms")
    right.set_xlabel("memories stored")
    right.set_ylabel("recall, CPU time (ms)")
    right.set_title("How long recall takes")
    right.set_ylim(0, max(60, 1.25 * max(p95 for _, p95 in latencies.values())))
    right.legend(loc="upper left")
    figure.text(0.5, 0.01, f"{platform.python_implementation()} {platform.python_version()} on {platform.machine()}; "
                "keyword recall, a plain scan, standard library only", ha="center", fontsize=9)
    figure.tight_layout(rect=(0, 0.05, 1, 1))
    figure.savefig(path, dpi=110, metadata={"Software": None})


def main(budget: int = 200) -> None:
    print(f"Prompt tokens per turn (question: {QUESTION!r}; recall budget {budget} tokens)")
    print(f"  {'memories':>8}  {'whole dict':>10}  {'recall':>6}  {'recalled':>8}")
    rows = tokens_per_turn(budget)
    for size, whole, recalled, count in rows:
        print(f"  {size:>8,}  {whole:>10,}  {recalled:>6,}  {count:>8}")
    print("\nrecall latency (200 different questions each)")
    latencies = {}
    for size in (10_000, 100_000):
        median, p95, built, worst = recall_latency(size, budget)
        latencies[size] = (median, p95)
        verdict = "under" if p95 < 50 else "OVER"
        print(f"  {size:>7,} memories: median {median:6.2f} ms, p95 {p95:6.2f} ms of CPU ({verdict} the 50 ms target); "
              f"'user', a word in all of them: {worst:.2f} ms; writing them took {built:.1f} s")
    path = Path(__file__).with_suffix(".png")
    plot(rows, latencies, budget, path)
    print(f"\nplot: {path.relative_to(Path(__file__).parent.parent)}")


if __name__ == "__main__":
    main(*(int(arg) for arg in sys.argv[1:2]))
