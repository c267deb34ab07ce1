"""A record looked up by its kind and a name or an identifier (rules 213, 214): "What's on Ana Ruiz's account?", "pull invoice
INV-0042", "look up my order please" (which order number?)."""
import json
import re

from .grammar import NUDGE
from .tasks import ITEM_NEAR, LOOKUP_GENERIC, OF_MEMORY, data_of, refusal, words_of
from .toolbox import ARITHMETIC, identifier_in, identifying, type_of
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
