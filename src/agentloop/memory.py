"""Memory beyond the dict: items with a scope, importance, time and expiry, found by keywords.

    store = MemoryStore()
    store.write("user:42", "The user's birthday is Jan 20th 1990", importance="high")
    store.search("birthday")            # the items that share words with the query
    store.search("tea", since="2026-01-01", tags=["drinks"], min_importance="medium",
                 where={"source": "chat"})  # the same, filtered as memory services filter
    store.recall("birthday", 100)       # the best items whose text fits in 100 tokens

Ids are m1, m2, ... never reused; a scope ("user:42", "agent:researcher") says whose an item is.
Search reads every item, a plain scan (tens of milliseconds for 100,000: README, Benchmarks),
with the standard library only, so it runs in the browser too. Time comes from `clock` (see
Clock); a time without a zone is local time, as Python takes it, so zoned and zoneless compare.
"""
import heapq
import re
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta

from .storage import load_json, move_aside, save_json
from .tokens import count_tokens

LEVELS = {"low": 0.2, "medium": 0.5, "high": 0.9}
NEVER = float("inf")
STOP = set("a about all am an and any are as at be but by can do does for from had has have how i if in "
           "is it its know me my not of on or our so than that the their them there they this to us "
           "was we were what when where which who why will with you your".split())


def terms(text: str) -> set:
    """The words that matter for search: lower case, no stop words, a plural's s dropped."""
    words = re.findall(r"[a-z0-9]+", str(text).lower())
    return {w[:-1] if len(w) > 3 and w.endswith("s") and not w.endswith("ss") else w
            for w in words if w not in STOP and (len(w) > 1 or w.isdigit())}


def level(importance) -> float:
    """'high' -> 0.9; a number is kept (between 0 and 1)."""
    if isinstance(importance, str) and importance.lower() in LEVELS:
        return LEVELS[importance.lower()]
    try:
        number = float(importance)
    except (TypeError, ValueError):
        number = float("nan")
    if number != number:  # not a number, or NaN (which Python's json reads)
        raise ValueError(f"importance is low, medium, high or a number from 0 to 1, not {importance!r}")
    return min(max(number, 0.0), 1.0)


def seconds(when) -> float:
    """A datetime or ISO time as seconds since 1970 (no zone: local time); None is never."""
    if when is None:
        return NEVER
    return (datetime.fromisoformat(when) if isinstance(when, str) else when).timestamp()


def matches(item, since=None, tags=(), min_importance=None, where=None) -> bool:
    """The filters memory services offer beside a query: created at or after `since` (a datetime or
    ISO time), carrying every tag in `tags` (the list in metadata["tags"]), importance at least
    `min_importance` ("high" or a number), and metadata equal to each value in `where`."""
    tags = [tags] if isinstance(tags, str) else tags or ()
    return ((since is None or seconds(item.created) >= seconds(since))
            and set(tags) <= set(item.metadata.get("tags") or ())
            and (min_importance is None or item.importance >= level(min_importance))
            and all(item.metadata.get(key) == value for key, value in (where or {}).items()))


@dataclass
class Item:
    id: str
    scope: str
    content: str
    metadata: dict = field(default_factory=dict)
    importance: float = 0.5
    created: str = ""            # ISO time, e.g. "2026-01-05T09:00:00"
    expires: str | None = None   # ISO time, or None: never


class Clock:
    """A clock you move by hand: `clock()` is the time, `clock.advance(days=8)` moves it."""

    def __init__(self, start: str = "2026-01-05T09:00"):
        self.now = datetime.fromisoformat(start)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta) -> datetime:
        self.now += timedelta(**delta)
        return self.now


class MemoryStore:
    def __init__(self, clock=datetime.now):
        self.clock = clock
        self.items: dict[str, Item] = {}   # id -> item, oldest first
        self.next_id = 1
        self._meta = {}                    # id -> what search needs, worked out once per item

    def now(self) -> str:
        return self.clock().isoformat(timespec="seconds")

    def write(self, scope: str, content: str, metadata: dict | None = None,
              importance="medium", expires=None) -> Item:
        """Store one memory; `expires` is a datetime, an ISO string or a timedelta from now."""
        if isinstance(expires, timedelta):
            expires = self.clock() + expires
        if isinstance(expires, str):  # "2026-01-12" or "2026-01-12T18:00", one shape for reading
            expires = datetime.fromisoformat(expires)
        if isinstance(expires, datetime):
            expires = expires.isoformat(timespec="seconds")
        if expires is not None and not isinstance(expires, str):
            raise ValueError(f"expires is a datetime, an ISO time, a timedelta or None, not {expires!r}")
        item = Item(f"m{self.next_id}", str(scope), str(content), dict(metadata or {}),
                    level(importance), self.now(), expires)
        self.next_id += 1
        self._add(item)
        return item

    def _add(self, item: Item) -> None:
        self.items[item.id] = item
        words = terms(item.content) | terms(" ".join(str(v) for v in item.metadata.values()))
        self._meta[item.id] = (words, count_tokens(item.content), item.scope, seconds(item.expires),
                               item.importance, seconds(item.created), int(item.id[1:]), item.id)

    def delete(self, memory_id: str) -> bool:
        """Remove one memory; False if there is no such id."""
        self._meta.pop(memory_id, None)
        return self.items.pop(memory_id, None) is not None

    def live(self, item: Item, now: float | None = None) -> bool:
        return seconds(item.expires) > (seconds(self.clock()) if now is None else now)

    def expire(self):
        """Delete every memory whose time is up; return them."""
        now = seconds(self.clock())
        gone = [item for item in self.items.values() if not self.live(item, now)]
        for item in gone:
            self.delete(item.id)
        return gone

    def get(self, memory_id: str) -> Item | None:
        item = self.items.get(memory_id)
        return item if item and self.live(item) else None

    def list(self, scope=None, limit: int | None = None, **filters):
        """The live memories in `scope` (a name, a list of names, or None for all), newest first;
        `filters` are `matches`'s: since, tags, min_importance, where."""
        now, scopes = seconds(self.clock()), _scopes(scope)
        found = [i for i in reversed(self.items.values())
                 if (scopes is None or i.scope in scopes) and self.live(i, now) and matches(i, **filters)]
        return found[:limit] if limit else found

    def _scored(self, query: str, scope=None, filters=None) -> list:
        """A heap of the live items that share a word with the query, best first. The score is
        relevance (the share of the query's words an item contains) plus importance; on ties
        the newest first. Keys are negated, because Python's heap gives the smallest first."""
        wanted, now, scopes = terms(query), seconds(self.clock()), _scopes(scope)
        hits = [meta for meta in self._meta.values() if not wanted.isdisjoint(meta[0])]  # first the cheap test
        scored = [(-len(wanted & words) / len(wanted) - importance, -created, -number, memory_id)
                  for words, _, item_scope, expires, importance, created, number, memory_id in hits
                  if (scopes is None or item_scope in scopes) and expires > now]
        if filters:
            scored = [key for key in scored if matches(self.items[key[3]], **filters)]
        heapq.heapify(scored)  # cheaper than sorting: most calls need only the first few
        return scored

    def ranked(self, query: str, scope=None, **filters):
        """Every live item sharing a word with the query, best first."""
        scored = self._scored(query, scope, filters)
        return [self.items[heapq.heappop(scored)[3]] for _ in range(len(scored))]

    def search(self, query: str, limit: int = 5, scope=None, **filters):
        """The `limit` best items for the query, among those `filters` let through (see `matches`)."""
        return [self.items[key[3]] for key in heapq.nsmallest(limit, self._scored(query, scope, filters))]

    def recall(self, query: str, budget_tokens: int, scope=None):
        """The best memories for `query` whose content fits in `budget_tokens` tokens in all
        (their text only: the lines you wrap them in are extra). One that does not fit is
        skipped, so a shorter one further down can still get in."""
        scored, chosen, left = self._scored(query, scope), [], budget_tokens
        while scored and left > 0:
            memory_id = heapq.heappop(scored)[3]
            cost = self._meta[memory_id][1]
            if cost <= left:
                chosen.append(self.items[memory_id])
                left -= cost
        return chosen

    def __len__(self) -> int:
        return len(self.items)

    def save(self, path) -> None:
        save_json(path, {"next_id": self.next_id, "items": [asdict(i) for i in self.items.values()]})

    @classmethod
    def load(cls, path, clock=datetime.now) -> "MemoryStore":
        """A store from a file saved by `save`; an empty store if there is no file yet. A file
        edited by hand is repaired as it loads, and the file as it was is kept as <path>.corrupt."""
        data = load_json(path, default={"next_id": 1, "items": []})
        store, problems, renumber = cls(clock), [], []
        entries = data.get("items", [])
        if not isinstance(entries, list):
            entries, problems = [entries], ['"items" is not a list']
        for number, entry in enumerate(entries, 1):
            item = _repaired(entry, store.now(), problems, f"item {number}")
            if item and (re.fullmatch(r"m[1-9][0-9]*", item.id) is None or item.id in store.items):
                renumber.append(item)  # once every good id is known, so a new one takes none of them
            elif item:
                store._add(item)
        next_id = data.get("next_id", 1)
        if not isinstance(next_id, int):
            problems.append(f"next_id {next_id!r} is not a number")
            next_id = 1
        store.next_id = max([next_id, *(int(memory_id[1:]) + 1 for memory_id in store.items)])
        for item in renumber:
            problems.append(f"id {item.id!r} was missing, odd or taken, so it is now m{store.next_id}")
            item.id, store.next_id = f"m{store.next_id}", store.next_id + 1
            store._add(item)
        if problems:
            kept = move_aside(path)
            store.save(path)
            print(f"{path} was repaired as it loaded ({'; '.join(problems[:5])}"
                  f"{f'; and {len(problems) - 5} more' if len(problems) > 5 else ''}); "
                  f"the file as it was is kept as {kept}.")
        return store


def _time(when) -> str:
    """An ISO time as the store writes it; ValueError if it is not one, or too far out to compare."""
    when = datetime.fromisoformat(when)
    when.timestamp()  # "0001-01-01" is a date, but local time in year 1 is out of range
    return when.isoformat(timespec="seconds")


def _repaired(entry, now: str, problems: list, name: str) -> Item | None:
    """An Item from one entry of a hand-edited file, noting in `problems` what had to change;
    None if it has no content. Unknown fields go into the metadata: nothing is dropped."""
    entry = {"content": entry} if isinstance(entry, str) else entry
    if not isinstance(entry, dict) or entry.get("content") in (None, ""):
        problems.append(f"{name} has no content, so it was left out")
        return None
    rules = {"scope": (str, "unscoped"), "metadata": (lambda value: {**value}, {}), "importance": (level, 0.5),
             "created": (_time, now), "expires": (lambda when: None if when is None else _time(when), None)}
    fields, unusable = {}, []
    for key, (read, fallback) in rules.items():
        try:
            fields[key] = read(entry[key])
        except (KeyError, TypeError, ValueError, OverflowError):  # {**value}: TypeError if not a dict
            fields[key] = fallback
            unusable.append(key)
    extra = {key: value for key, value in entry.items() if key not in Item.__dataclass_fields__}
    fields["metadata"] = {**fields["metadata"], **extra}
    if unusable:
        problems.append(f"{name}'s {', '.join(unusable)} missing or unusable, so set to "
                        + ", ".join(repr(fields[key]) for key in unusable))
    if extra:
        problems.append(f"{name}'s unknown fields {', '.join(extra)} went into its metadata")
    return Item(str(entry.get("id", "")), content=str(entry["content"]), **fields)


def _scopes(scope):
    return None if scope is None else {scope} if isinstance(scope, str) else set(scope)
