"""A record looked up by its kind and a name or an identifier (rules 213, 214): "What's on Ana Ruiz's account?", "pull invoice
INV-0042", "look up my order please" (which order number?)."""
import json
import re

from .grammar import NUDGE
from .tasks import ITEM_NEAR, LOOKUP_GENERIC, OF_MEMORY, data_of, refusal, words_of
from .toolbox import ARITHMETIC, call, identifier_in, identifying, type_of
from .understand import Intent

NAME = r"(?<![\w'-])[A-Z][a-z]+(?:['-][A-Z]?[a-z]+)?(?: [A-Z][a-z]+(?:['-][A-Z]?[a-z]+)?){0,2}\b"
NOT_NAMES = {"what", "who", "where", "when", "how", "which", "why", "that", "it", "my", "the", "can", "could", "would", "will",
             "please", "pls", "hey", "hi", "hello", "look", "get", "fetch", "pull", "find", "show", "open", "retrieve", "bring",
             "check", "read", "give", "tell", "i", "is", "are", "does", "do", "did", "has", "any", "and", "so", "ok", "now",
             "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "january", "february", "march",
             "april", "may", "june", "july", "august", "september", "october", "november", "december", "today", "tomorrow"}
READS = r"\b(?:get|gets|fetch\w*|retriev\w*|look\w* up|lookup|find\w*|read\w*|returns?|shows?|pull\w*|loads?|views?|gives?)\b"
ASKS = (r"\?\s*$|^\W*(?:(?:please|pls|hey|hi|ok|so|can you|could you|would you|can i|could i|i need|i'd like)\W+)*"
        r"(?:look(?:ing)? up|pull(?: up)?|get|fetch|find|retrieve|show|open|bring up|check|read|give me|display|view|what|where|"
        r"when|how|is|has|does|did|any news|tell me)\b")
ASKED_TO_READ = (r"^\W*(?:(?:please|pls|hey|hi|ok|so|can you|could you|would you|i need you to|i'd like you to)\W+)*"
                 r"(?:look(?:ing)? up|pull(?: up)?|get|fetch|find|retrieve|show|open|bring up|check|read|display|view)\b")
OTHER_REQUEST = rf"\b{NUDGE} me\b|\b(?:schedul\w*|remember|save|store|forget|delete|remove|cancel|erase|note down|update|change)\b"
NAMED_BY = r"(?:^|_)(?:name|names|who|person|customer|client|user|username|member|owner|holder|account|patient|guest)(?:$|_)"
RECORD_NEAR = {"account": "customer client profile member", "customer": "account client profile", "client": "customer account",
               "profile": "account user member", "order": "purchase", "invoice": "bill", "bill": "invoice", "ticket": "case issue",
               "record": "file", **ITEM_NEAR}
NOT_READERS = ("forget", "cancel", "move", *ARITHMETIC)
ROLE_WORDS = {"name", "id", "identifier", "number", "no", "num", "nr", "code", "ref", "reference", "full", "given", "by", "record",
              "detail", "info", "data", "look", "lookup", "fetch", "retrieve", "get", "find", "read", "return", "show", "pull", "load"}


def fetchers(turn) -> list:
    """The tools that fetch one record by one value (a name or an identifier): a reading verb in the name or description,
    one parameter that names the record's name or identifier, no memory of the user's and no other job (delete, cancel)."""
    found = []
    for tool in turn.tools:
        needed = list(tool.required or tool.params)
        words = f"{tool.name.replace('_', ' ')} {tool.description}"
        if len(needed) != 1 or tool.kind in NOT_READERS or re.search(OF_MEMORY, words, re.I) or not re.search(READS, words, re.I):
            continue  # a record is read, never stored or scheduled: "record" and "booking" in a reader's words do not make it so
        if identifying(tool, needed[0]) or by_name(tool, needed[0]):
            found.append(tool)
    return found


def by_name(tool, param: str) -> bool:
    spec = tool.params.get(param) or {}
    said = f"{spec.get('description', '') if isinstance(spec, dict) else ''} {tool.description}"
    return bool(re.search(NAMED_BY, param, re.I) or re.search(r"\bby (?:the |their |its |a )?(?:\w+'s )?(?:full )?name\b", said, re.I))


def record_nouns(tool) -> set:
    """What a fetcher reads, in its own words and their near names ("customer": account, client, profile)."""
    own = {w for w in words_of(f"{tool.name} {tool.description} {' '.join(tool.params)}") if len(w) > 2} - LOOKUP_GENERIC - ROLE_WORDS
    return own | {near for word in own for near in RECORD_NEAR.get(word, "").split()}


def shared(said: set, tool) -> set:
    """The request's words that name what the tool reads, a word and its longer forms alike ("membership": member)."""
    own = {w[:5] for w in record_nouns(tool)}
    return {w for w in said if len(w) > 2 and w[:5] in own}


def names_in(text: str) -> list:
    """Capitalised names (one to three words), without a sentence's opening verb or question word ("Look up Jo Park": Jo Park)."""
    names = []
    for found in re.finditer(NAME, text):
        parts = found.group().split()
        while parts and re.split(r"['’]", parts[0].lower())[0] in NOT_NAMES:
            parts = parts[1:]
        if parts and not any(re.split(r"['’]", p.lower())[0] in NOT_NAMES for p in parts):
            names.append(" ".join(parts).removesuffix("'s"))
    return names


def record_lookup(turn) -> list:
    """Rules 213-214: a request or question that names a record (account, order, invoice, ticket ...) with a name or an
    identifier, and the one fetcher whose words name that record: it is called with the name or identifier alone. Named
    without either ("look up my order please") it is asked for. [] otherwise: never a guessed argument."""
    text = turn.text
    if not re.search(ASKS, text, re.I) or re.search(OTHER_REQUEST, text, re.I):
        return []
    tools = fetchers(turn)
    if not tools:
        return []
    said = set(words_of(text)) - LOOKUP_GENERIC - ROLE_WORDS
    sharing = sorted(((len(shared(said, t)), t) for t in tools), key=lambda pair: -pair[0])
    names, ident = names_in(text), identifier_in(text)
    if sharing[0][0] == 0:  # "Look up Jo Park": a name alone, with the one tool that reads records by a name
        bare = re.fullmatch(rf"\W*(?:(?:please|pls|can you|could you)\W+)*(?:look up|find|pull up|get|fetch|retrieve)\s+{NAME}\W*", text, re.I)
        by_names = [t for t in tools if by_name(t, list(t.required or t.params)[0])]
        if not (bare and len(by_names) == 1 and names):
            return []
        sharing = [(1, by_names[0])]
    elif len(sharing) > 1 and sharing[1][0] == sharing[0][0]:
        return []  # two readers of the same thing: which one is not guessed
    tool = sharing[0][1]
    thing = next((w for w in words_of(text) if w in shared(said, tool)), "record")
    param = list(tool.required or tool.params)[0]
    ident = ident or numbered(text, thing)
    value = (ident if identifying(tool, param) else (names[0] if names else ident)) if ident or names else None
    if not value and not re.search(ASKED_TO_READ, text, re.I):
        return []  # "What's my account number?" is a question memory may answer, never one to ask back
    if value and type_of(tool.params.get(param) or {}) == "integer":
        value = int(value) if str(value).isdigit() else None
    return [Intent("named_lookup", {"tool": tool.name, "param": param, "name": value, "thing": thing})]


def numbered(text: str, thing: str) -> str | None:
    """A bare number said right after the thing ("ticket 88", "order no. 7731")."""
    found = re.search(rf"\b{re.escape(thing)}\w*\s*(?:no\.?\s*|number\s+|#\s*|id\s+)?(\d+)\b(?![:.]\d)", text, re.I)
    return found.group(1) if found else None


def asked_for(intent, tool) -> str:
    """The short question for a record named without its name or identifier: "Which order number?", "Whose account?"."""
    param, thing = intent.slots["param"], intent.slots["thing"]
    if not identifying(tool, param):
        return f"Whose {thing} should I look up? Tell me the name."
    role = next((r for key, r in (("ref", "reference"), ("code", "code"), ("sku", "SKU"), ("serial", "serial number"))
                 if re.search(rf"(?:^|_){key}", param, re.I)), "number")
    return f"Which {thing} {role}?"


def looked_up(intent, turn):
    """The record the tool returned, said as it is (rule 214 keeps a credential in it back, on every path)."""
    tool = next(t for t in turn.tools if t.name == intent.slots["tool"])
    value, thing = intent.slots["name"], intent.slots["thing"]
    if value is None:
        return asked_for(intent, tool)
    [result] = yield [(tool.name, {intent.slots["param"]: value})]
    if reason := refusal([result]):
        return f"I couldn't look up {thing} {value}. {reason}"
    whose = f"{value}'s {thing}" if isinstance(value, str) and re.match(NAME, value) and not re.search(r"\d", value) else f"{thing.capitalize()} {value}"
    try:
        record = json.loads(result)
    except ValueError:
        record = None
    if isinstance(record, dict):
        return f"{whose}: " + ", ".join(f"{k.replace('_', ' ')}: {v}" for k, v in record.items()) + "."
    data = " ".join(line.strip() for line in data_of(result).splitlines() if line.strip())
    return data if str(value).lower() in data.lower() else f"{whose}: {data}"


READ_NEAR = {"cost": "price", "costs": "price", "price": "cost", "say": "", "email": "mail inbox message", "mail": "email",
             "reviews": "review", "review": "rating opinion"}  # what a question asks, in the words a reader's description uses
THING_AFTER = r"\b(?:about|of|for|on)\s+(?:the\s+|my\s+|a\s+|an\s+|our\s+)?(?P<thing>[^?!.,;]+?)\s*(?:cost|say|said)?\W*$"


def readers(turn) -> list:
    """The tools that read or fetch something and take at most one text: a reading verb in the name or description, no
    memory of the user's, no other job, and no key or name parameter (those are rules 213-214's and recall's)."""
    found = []
    for tool in turn.tools:
        needed = list(tool.required or tool.params)
        words = f"{tool.name.replace('_', ' ')} {tool.description}"
        if len(needed) > 1 or tool.kind in NOT_READERS or re.search(OF_MEMORY, words, re.I) or not re.search(READS, words, re.I):
            continue
        if needed and (type_of(tool.params.get(needed[0]) or {}) not in ("string", None) or by_name(tool, needed[0])
                       or re.search(r"(?:^|_)(?:key|label|slot|field)(?:$|_)", needed[0], re.I)):
            continue
        found.append(tool)
    return found


def read_asked(turn) -> list:
    """A question whose answer a reading tool's description says it returns ("What does my latest email say?" and
    read_latest_email(), "What do reviews say about the Blendo 3000?" and fetch_review(product)): the one reader whose
    own words name what is asked (or a near name: a cost is a price) is called, with the thing named after "about/of/for"
    when it takes one, and the answer is its data (rule 274). [] when none or two fit, or a thing it needs is not named."""
    if not re.search(ASKS, turn.text, re.I) or re.search(OTHER_REQUEST, turn.text, re.I):
        return []
    said = set(words_of(turn.text)) - LOOKUP_GENERIC - ROLE_WORDS
    said |= {near for word in said for near in READ_NEAR.get(word, "").split()}
    sharing = [(len(shared(said, t)), t) for t in readers(turn)]
    best = max((n for n, _ in sharing), default=0)
    fits = [t for n, t in sharing if n == best and n > 0]
    if len(fits) != 1:
        return []
    tool, needed = fits[0], list(fits[0].required or fits[0].params)
    thing = re.search(THING_AFTER, turn.text, re.I)
    if needed and not thing:
        return []
    return [Intent("read_by_tool", {"tool": tool.name, "slot": needed[0] if needed else None,
                                    "thing": thing.group("thing").strip() if needed else ""})]


def read_by_tool(intent, turn):
    """What the reader returned, said as data: a line or sentence that gives the assistant an order is left out, so it is
    neither repeated nor stored (rules 173, 227)."""
    from .tasks import ORDER_IN_DATA
    from .rules import INJECTION
    tool = next(t for t in turn.tools if t.name == intent.slots["tool"])
    [result] = yield [(tool.name, {intent.slots["slot"]: intent.slots["thing"]} if intent.slots["slot"] else {})]
    if reason := refusal([result]):
        return f"I couldn't read that: {reason}"
    parts = [p for p in re.split(r"(?<=[.!?])(?<![pP]\.[sS]\.)\s+|\n+", result.strip()) if p.strip()]
    kept = [p for p in parts if not re.search(INJECTION, p, re.I) and not re.search(ORDER_IN_DATA, p, re.I)
            and not re.search(ADDRESSED, p, re.I)]
    left_out = " (It also held an instruction to me, which I left out.)" if len(kept) < len(parts) else ""
    if not kept:
        return f"{tool.name} returned nothing I can show."
    if (many := how_many(turn.text, intent.slots["thing"])) and len(price := re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.]*\d)", " ".join(
            kept).replace(intent.slots["thing"], " "))) == 1:  # "What do 3 of the oak coasters cost?": the unit price times 3
        times = next((t for t in turn.tools if t.kind == "multiply"), None)
        [total] = (yield [call(times, numbers=[many, float(price[0])])]) if times else [str(round(many * float(price[0]), 2))]
        return f"{many} x {price[0]} = {total.strip()} ({' '.join(kept)}){left_out}"
    return f"{tool.name} returned: {' '.join(kept)}{left_out}"


ADDRESSED = r"\b(?:ai|assistant|model|llm|bot|agent|chatbot)\s*[:,]\s*(?:please\s+)?(?:remember|call|ignore|say|tell|store|save|delete|forget|wipe|note|record)\b"


def how_many(text: str, thing: str) -> int | None:
    """The count said just before the thing ("3 of the oak coasters", "five blue mugs"), or None."""
    found = re.search(rf"\b(\d+)\s+(?:of\s+)?(?:the\s+|those\s+|these\s+|your\s+)?{re.escape(thing)}", text, re.I) if thing else None
    return int(found.group(1)) if found else None
