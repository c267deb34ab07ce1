"""How the teaching model reads the tools it is offered.

A real model reads each tool's name, description and parameters and guesses what the
tool does. We do the same with keywords: a tool called `plus`, `add` or `sum_numbers`
is an adder; one whose description says "evaluate an arithmetic expression" is a
calculator. Then we fill its parameters by their names and types.
"""
import datetime
import re
from dataclasses import dataclass
from functools import lru_cache

from ..memory import LEVELS  # importance as a number from 0 to 1
from .grammar import EACH_WORD, WORD_ORDER

# kind -> words that suggest it (in the name they count three times, elsewhere once)
KINDS = {
    "add": "add plus sum addition combine combined join joins total tally together",
    "subtract": "subtract minus difference subtraction remain remains removed remove less deduct above below",
    "multiply": "multiply times product multiplication scale factor",
    "divide": "divide division quotient ratio split share equal evenly cut",
    "percent": "percent percentage pct cent",
    "power": "power pow exponent exponentiation raise",
    "modulo": "modulo mod remainder",
    "calculate": "calculator calculate calc evaluate eval expression arithmetic math formula",
    "count_letter": "letter letters occurrences occurrence char character",
    "count_words": "words word wordcount",
    "uppercase": "upper uppercase capital capitals capitalize shout loud caps yell",
    "lowercase": "lower lowercase quiet whisper small",
    "titlecase": "title titlecase capitalize capitalise",
    "acronym": "acronym acronyms initials initialism abbreviation abbreviate abbreviations",
    "sort_words": "sort sorted alphabetical alphabetically alphabetize alphabetise",
    "length": "length len long",
    "reverse": "reverse reversed backwards backward mirror opposite flip",
    "reverse_words": "",  # only by what the description says: "the order of the words", "each word intact"
    "reverse_each": "",  # only by what the description says: "the letters inside each word"
    "remember": "remember memorize memorise save store write note jot stash stow keep record retain mind memo file profile persist log "
                "remember_fact",
    "recall": "recall retrieve",
    "list_memory": "list all",
    "forget": "forget delete remove erase unlearn wipe scrub purge discard clear drop scrap throw toss shred destroy strike "
              "unpin retract retire revoke withdraw expunge unsave release void unlist blank unremember unstore",
    "schedule": "schedule queue reminder remind ping follow followup enqueue task calendar event appointment agenda "
                "nudge alarm job cron timer todo planner diary recurring routine interval chore reserve book booking "
                "recurrence deadline due",
    "cancel": "cancel unschedule deschedule dequeue abort",
    "weather": "weather forecast temperature",
    "clock": "time clock date now today",
    "search": "search lookup find query web internet browse sources dig rummage matching",
    "decide": "decide decision audit reasoning",
}
ARITHMETIC = {"add", "subtract", "multiply", "divide", "power", "modulo"}
PHRASES = {  # what a description says in a few words, whatever its vocabulary
    "length": r"\b(?:in characters|number of characters|characters long|how many characters|character count)\b|\bcounts? (?:the |all )?(?:characters|chars)\b",
    "count_letter": r"\bhow many times\b.*\b(?:character|letter|char)\b|\b(?:character|letter)\b.*\bshows? up\b",
    "reverse": r"\bopposite order\b|\bbackwards?\b|\breversed?\b|\bback to front\b",
    "forget": r"\bno longer (?:be )?(?:recalled|remembered|kept|used|known|on file|stored|saved|held)\b|\bnever (?:be )?used again\b|"
              r"\bstops? (?:retaining|remembering|keeping|storing|holding)\b|\blets? go of\b",
    "schedule": r"\bafter (?:a|the|some|that|this|an?) (?:delay|wait|while|pause|interval)\b|\b(?:after|in) (?:a given|the given|some) "
                r"(?:number of )?(?:minutes|hours|seconds|time)\b",  # later(payload, delay_minutes): it acts after a delay
    "cancel": r"\b(?:take|takes|remove|removes|pull|pulls|drop|drops|strike|strikes)\b[^.]{0,30}?\boff (?:the |my |our |your )?"
              r"(?:queue|calendar|schedule|agenda|timetable|job list|task list)\b|"  # unqueue: "Take a job off the queue"
              r"^\W*(?:calls?|called|calling) off\b|\bcalls? off (?:an?|the|any|one) (?:\w+ )?(?:reminder|event|job|task|alarm|meeting|"
              r"appointment|booking)s?\b",  # call_off(title): "Calls off an active reminder"
    "lowercase": r"\b(?:into|to) (?:its |their |the )?(?:small|lower ?case)\b",
    "uppercase": r"\b(?:into|to) (?:its |their |an? |the )?(?:capitals?|upper ?case|capital letters?)\b|\ba capital letter\b",
    "percent": r"\bper ?cent\b|%",
    "reverse_words": WORD_ORDER,
    "reverse_each": r"^(?=.*\b(?:revers|flip|mirror|backward|opposite))(?!.*\b(?:capital|upper|title))" + f".*{EACH_WORD}",  # "Capitalises each word" reverses nothing
    "titlecase": r"\b(?:first letter|initial(?: letter)?) of (?:each|every|all) words?\b|\bcapitali[sz]e[sd]? (?:each|every|all) words?\b|"
                 r"\btitle[- ]?case\b|\b(?:each|every|all) words?\b[^.]{0,30}\bcapital(?: first)? letters?\b|\bcapital first letters?\b",
    "acronym": r"\bacronyms?\b|\binitials\b|\babbreviat\w*|\bfirst letters? of (?:each|every|all) words?\b[^.]*\b(?:together|joined|run together|"
               r"as one word|into one word|without spaces)\b",  # "Build an acronym: the first letter of each word"
    "count_words": r"\b(?:tokens|pieces|chunks|items|parts) (?:separated|split|divided) by (?:white ?space|spaces|blanks)\b|"
                   r"\bhow many words\b|\bnumber of words\b|\bwords? in (?:a|the) (?:text|passage|sentence)\b",
}
CHECKS = (r"\W*(?:(?:checks?|tests?|tells?|says?|returns? (?:true|yes|1|a bool\w*|a yes/no)|answers? yes|determines?|reports?|decides?|finds? out)\b[^.]{0,20}?\b(?:whether|if|when)|"
          r"whether|returns? whether)\b")  # a yes/no checker: "Checks whether ...", "Returns true if ..."
TRANSFORMS = {"uppercase", "lowercase", "titlecase", "acronym", "sort_words", "reverse", "reverse_words", "reverse_each"}
COUNTS = r"^\W*(?:counts?|tall(?:y|ies)|numbers? of|how many|totals?)\b"  # a description that says it counts
MEMORY_WORDS = {"memory", "fact", "remember", "remembered", "user", "note", "memo", "topic", "profile", "saved", "slot"}
TASK_WORDS = {"task", "reminder", "job", "queue", "queued", "scheduled", "schedule", "alarm", "timer", "todo", "appointment", "booking",
              "calendar", "event", "meeting", "agenda", "planner", "diary", "timetable"}  # calendar_remove: "Deletes a calendar event by id" cancels


@dataclass
class Tool:
    name: str
    description: str
    params: dict      # JSON-schema properties, in order
    required: list
    kind: str | None  # our guess at what it does


def words(text: str) -> list[str]:
    """Lower-case words, splitting snake_case and camelCase, verbs and plurals stemmed ("Adds" -> add)."""
    text = re.sub(r"([a-z])([A-Z])", r"\1 \2", text or "")
    return [stem(w) for w in re.findall(r"[a-z]+", text.lower())]


def stem(word: str) -> str:
    """multiplies -> multiply, adds -> add, letters -> letter (but not "address" or "is")."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    plain = len(word) <= 3 or word.endswith(("ss", "us", "is", "mes", "ws"))  # not "address", "times", "news"
    return word if plain or not word.endswith("s") else word[:-1]


KEYWORDS = {kind: {stem(k) for k in keywords.split()} for kind, keywords in KINDS.items()}


PRIORITY = ["cancel", "forget", "schedule", "remember", "recall"]  # "erase_note" deletes a note; "calendar_add" adds an event


def best(scores: dict) -> str | None:
    """The kind with the highest score; on a tie the PRIORITY order, and arithmetic last."""
    if not scores:
        return None
    return max(scores, key=lambda kind: (scores[kind], kind not in ARITHMETIC,
                                         -PRIORITY.index(kind) if kind in PRIORITY else -len(PRIORITY)))


@lru_cache(maxsize=1024)  # a loop offers the same tools every turn
def classify(name: str, description: str, params: tuple, params_said: tuple = ()) -> str | None:
    """The kind whose keywords best match this tool, or None. Where the name and the description
    disagree, the description wins: it is what the tool's author wrote to say what it does."""
    description = re.sub(r"\blong[- ]term\b", "lasting", description)  # "long-term storage" keeps; it measures nothing
    description = re.sub(r"\bto[- ]do(?=s?\b)", "todo", description, flags=re.I)  # "the to-do list" is a list of todos
    name_words, described = set(words(name)), set(words(description))
    if re.search(r"\b(?:a|an|the|this|that|each|any|of)\s+books?\b|\bisbn\b", description, re.I):
        name_words, described = name_words - {"book"}, described - {"book"}  # "Looks up a book by ISBN": a thing read, no booking
    other = described | {w for p in params + params_said for w in words(p)}
    scores, said = {}, {}
    for kind, keys in KEYWORDS.items():
        if score := 3 * len(keys & name_words) + len(keys & other):
            scores[kind] = score
        if score := len(keys & described):
            said[kind] = score
    for kind, phrase in PHRASES.items():  # a phrase that says what the tool does outweighs single words
        if re.search(phrase, description, re.I):
            scores[kind], said[kind] = scores.get(kind, 0) + 4, said.get(kind, 0) + 4
    if "acronym" in said:  # "An abbreviation from the first letter of each word": initials joined, never each word capitalised
        scores.pop("titlecase", None), said.pop("titlecase", None)
    for kind in ("reverse_each", "reverse_words"):  # "Reverses the order of the words (not the letters)": the words move
        if kind not in said:
            continue
        for letters_or_count in {"reverse", "count_words", "reverse_words"} - {kind}:
            scores.pop(letters_or_count, None), said.pop(letters_or_count, None)
        break
    if re.search(r"\b(?:miles?|km|kilomet\w+|celsius|fahrenheit|pounds?|kg|kilograms?|inch\w*|cm|feet|foot|litres?|"
                 r"liters?|gallons?)\b.*\b(?:into|to)\b", description, re.I) and not name_words & KEYWORDS["calculate"]:
        return None  # a unit conversion: none of the kinds we know
    memory = (name_words | other) & MEMORY_WORDS
    if memory == {"user"} and (name_words | other) & TASK_WORDS:
        memory = set()  # "Remove tasks from the schedule when the user no longer wants them": the user's wish, not a memory
    if memory and (name_words | leading_verb(description)) & {"get", "fetch", "read", "lookup", "search", "find", "look",
                                                                "query", "dig", "retrieve", "open", "show", "view", "check",
                                                                "peek", "pull", "list", "browse", "scan", "display"} \
            and not name_words & KEYWORDS["forget"]:  # get_fact, read_memory, look_through_notes: a search verb
        return "list_memory" if lists_memory(name_words, description, params) else "recall"
    if (name_words | set(words(description)[:1])) & (KEYWORDS["forget"] | KEYWORDS["cancel"]) and (name_words | other) & TASK_WORDS \
            and not memory:  # remove_task, drop_job(name): it deletes scheduled work, not a memory
        return "cancel"
    if (name_words | set(words(description)[:1])) & KEYWORDS["cancel"] and not memory:
        return "cancel"  # drop_event: "Cancel an event, by id": only what is planned is cancelled
    if (name_words | set(words(description)[:1])) & KEYWORDS["forget"]:  # a tool that deletes, whatever it deletes
        return "forget"
    if revises_memory(name_words | leading_verb(description), described, memory) and not (name_words | other) & TASK_WORDS:
        return "remember"  # rule 235: revise(field, new_value), "Changes a stored field to a new value": it writes memory
    checker = re.match(CHECKS, description, re.I) or re.match(r"(?:is|has|are|can)_[a-z]", name)
    by_name, by_description = best({k: len(KEYWORDS[k] & name_words) for k in scores if KEYWORDS[k] & name_words}), best(said)
    disagree = by_name and by_description and said[by_description] > said.get(by_name, 0) and not (
        by_name in ("remember", "recall", "forget") and memory and said[by_description] < 2)  # note_down: "... in plain words"
    chosen = by_description if disagree else best(scores)
    if chosen in TRANSFORMS and chosen not in said and re.search(COUNTS, description, re.I):
        return None  # rule 431: uppercase_it, "Count the vowels in a text": a count, never the text upper-cased by its name
    if chosen == "multiply" and goods(name, description, params):
        return None  # price_lookup: "Looks up the price of a product": a product on sale, not one of numbers (rule 173)
    if chosen in ARITHMETIC and described & TASK_WORDS and "schedule" in said:
        chosen = "schedule"  # add_yearly: "Adds a yearly reminder for a date": what it adds is scheduled work, not numbers
    if checker and chosen not in ("weather", "clock", "search", "recall", "list_memory", "remember", "schedule", "cancel", "forget"):
        return "check"  # is_palindrome, "Checks whether a text reads the same both ways": a yes/no answer, never a text op
    if chosen is None:  # "Stow a detail about the user": a tool about the user that no verb names keeps things
        return "remember" if memory and len(params) >= 1 else None
    if chosen == "count_letter" and not letter_taken(params, params_said or [""] * len(params)):
        scores.pop("count_letter")  # "Number of characters in a text" measures length: no letter to count
        chosen = best(scores)
    if chosen == "clock" and len(params) >= 2 and {role_of(p, {}, {"task": 1, "when": 1, "day": 1, "repeat": 1}) for p in params} & {
            "when", "day", "repeat"}:
        return "schedule"  # set_nudge(what, at, every): a clock that takes what to do and when schedules it
    if memory and name_words & {"list", "all"}:
        return "list_memory"
    if memory and chosen in ARITHMETIC | {"search"}:
        return "remember" if chosen == "add" else "recall"
    return chosen


def letter_taken(params: tuple, params_said: list) -> bool:
    """A parameter of a letter counter takes the letter: one named for it, or (rule 314) the other of two when one is
    the word ("what to count", "the word"); "Number of characters in a text" has no letter to count."""
    roles = [role_of(p, {"description": d}, {"letter": 1, "word": 1}) for p, d in zip(params, params_said)]
    return "letter" in roles or (len(roles) == 2 and sorted(map(str, roles)) == ["None", "word"])


def lists_memory(name_words: set, description: str, params: tuple) -> bool:
    """Rule 265: a memory reader that lists: "list" or "all" in its name, or nothing to search by (profile_keys(): "List
    the keys in the user's profile store"); "Lists notes containing the given words" searches."""
    return bool(name_words & {"list", "all"} or not params and re.search(
        r"\b(?:keys|labels|fields|slots|topics|entries|names|everything|all)\b", description, re.I))


REVISE_VERBS = {"update", "updates", "revise", "revises", "edit", "edits", "amend", "amends", "modify", "modifies",
                "overwrite", "overwrites", "change", "changes", "correct", "corrects"}


def revises_memory(verbs: set, described: set, memory: set) -> bool:
    """Rule 235: a tool that updates, revises, edits or amends what is stored is a memory-writing tool."""
    return bool(verbs & REVISE_VERBS) and bool(memory or described & {"stored", "saved", "field", "fact", "detail", "entry",
                                                                       "record", "preference", "profile"})


def leading_verb(description: str) -> set:
    """The description's first word, and that word as a plain verb: "Searches the notes ..." -> {"searches", "search"}."""
    first = re.findall(r"[a-z]+", description.lower())[:1]
    return set(words(description)[:1]) | {re.sub(r"(?<=[sxh])es$|(?<![su])s$", "", w) for w in first}


def read_tools(tools: list) -> list[Tool]:
    """Offered tool schemas (chat-completions shape) -> Tool objects."""
    result = []
    for tool in tools or []:
        function = tool["function"]
        schema = function.get("parameters") or {}
        params = schema.get("properties") or {}
        name, description = function["name"], function.get("description", "")
        said = tuple(spec.get("description", "") if isinstance(spec, dict) and isinstance(spec.get("description"), str)
                     else "" for spec in params.values())
        result.append(Tool(name, description, params, schema.get("required", []),
                           classify(name, description, tuple(params), said)))
    return result


# parameter roles -> the parameter names that usually play them
ROLES = {
    "key": "key name topic label field attribute attr subject about title heading tag slot handle k category section which",
    "value": "value val fact content text memory note info information data detail details body v sentence entry line statement",
    "query": "query q question search term terms keyword keywords topic text words phrase",
    "task": "task description what title text action item todo job event summary name message reminder note subject "
            "label activity about",
    "when": "when time at due date delay wait after in schedule start datetime moment",
    "day": "day weekday",
    "hour": "hour clock",
    "repeat": "repeat recur recurrence recurring every frequency freq interval rrule cadence period cron cycle repeats",
    "city": "city location place where town",
    "word": "word text string input s phrase sentence haystack source within in corpus searched scanned scan",  # rule 340: what is searched
    "letter": "letter char character ch c symbol needle pattern target sub substring term find sought what",  # what is sought
    "expression": "expression expr formula input equation calculation",
    "limit": "limit k n top count max",
    "scope": "scope namespace user_id user",
    "importance": "importance priority weight",
    "decision": "decision choice",
    "reasoning": "reasoning reason why rationale",
    "id": "id memory_id key no num nr number",  # chore_no, task_num: an entry by its number
}


MAIN_ROLE = {"schedule": "task", "cancel": "task", "forget": "key", "recall": "query", "search": "query", "count_letter": "letter"}


IDENTIFYING = r"(?:^|_|\b)(?:id|ids|code|sku|number|num|no|nr|ref|reference|serial|isbn|barcode|upc|asin)(?:$|_|\b)"
IDENTIFIER = r"(?<![\w#-])#?(?=[\w-]*\d)[A-Za-z0-9]+(?:[-_/][A-Za-z0-9]+)*(?![\w-])"


def identifying(tool, param: str) -> bool:
    """Whether a parameter names an identifier by its name or description: product_id, sku, order_ref ("The order
    reference"), ticket_number (rule 205)."""
    spec = tool.params.get(param) or {}
    said = f"{param} {spec.get('description', '') if isinstance(spec, dict) else ''}"
    return bool(re.search(IDENTIFYING, said, re.I)) and not re.search(r"phone|mobile|\btel\b|fax", said, re.I)  # a number to dial


def identifier_in(text: str) -> str | None:
    """The one identifier a text holds ("product K-200" K-200, "ticket #4471" 4471, "plate AB12CD"), a token with a
    digit that is no date, time or amount; None when there is none or more than one (rule 205)."""
    found = {m.group().lstrip("#") for m in re.finditer(IDENTIFIER, text)
             if not re.fullmatch(r"\d{1,2}(?:st|nd|rd|th|am|pm|s)|\d+(?:[./]\d+)*", m.group()) or m.group().startswith("#")
             or re.search(r"\b(?:no\.?|number|id|ref|code|sku|#)\s*$", text[:m.start()], re.I)}
    return found.pop() if len(found) == 1 else None


def only_the_identifier(tool: Tool, param: str, value):
    """An identifier parameter's value cut to the identifier it holds ("order 55-AX and let me know ..." is 55-AX); a
    phrase with none, or the tool's own thing ("order" for cancel_order), is asked for, never sent (rule 205)."""
    if not isinstance(value, str) or not identifying(tool, param) or not (
            re.search(r"\s", value.strip()) or value.lower() in words(tool.name)):
        return value
    if found := identifier_in(value):
        return found
    raise Missing(tool, param)


def fill(tool: Tool, values: dict) -> dict:
    """Arguments for `tool` from role -> value; `values['numbers']` fills numeric slots."""
    args, numbers = {}, list(values.get("numbers", []))
    named = roles_apart(tool, values)
    roles_taken = set(named.values())  # rule 340: a role named by another parameter
    for param, spec in tool.params.items():
        kind = type_of(spec)
        role = named[param]
        if role is None and "when" in values and re.search(r"YYYY|HH:MM|\bISO\b|\bdate\b|\btime\b", described(tool, param)):
            role = "when"  # nag(first): "first: 'YYYY-MM-DD HH:MM' of the first one"
        main = MAIN_ROLE.get(tool.kind)
        if role is None and kind in ("integer", "number") and tool.kind == "forget" and values.get("id"):
            role = "id"  # shred(entry: integer): the number found for the memory
        if role is None and main and main not in roles_taken and kind in (None, "string") and main in values:
            role = main  # add_job(work, when), forget(what): the parameter left to name plays the tool's main role
        roles_taken.add(role)
        if kind == "integer" and role == "day" and (set(words(param)) & {"from", "now", "after", "ahead", "delay", "later", "wait"}
                                                    or any(words(p) == ["month"] for p in tool.params)):
            args[param] = 0  # days_from_now: counted from the time said, with the other times (tasks.timed), not read as a weekday
            continue
        if kind in ("number", "integer") and role not in ("limit", "importance", "when") and numbers:
            value = numbers.pop(0)
        elif kind == "array" and role not in ("limit", "importance", "when") and numbers:
            value, numbers = numbers, []  # product_of(values): the operands as one list
        elif "default" in spec and role in (None, "scope", "limit"):
            value = spec["default"]  # the tool's author knows best
        elif role is not None and values[role] is not None:
            value = values[role]
        elif "enum" in spec:
            value = spec["enum"][0]
        elif param in tool.required or len(tool.params) == 1:
            value = generic(kind, values.get("text", ""))
        else:
            continue
        if value == "" and role == "repeat" and param in tool.required and not allows_empty(tool, param):
            value = "none"  # a one-off on a tool that must be told how often
        if value == "" and param in tool.required and not allows_empty(tool, param):  # never an empty string: ask
            raise Missing(tool, param)
        if value == "" and role is not None and param not in tool.required:
            continue  # an optional argument the request does not hold is left out
        try:
            args[param] = convert(only_the_identifier(tool, param, value) if param in tool.required else value, spec)
        except NoSuchChoice:
            if param not in tool.required:
                continue  # recurring(what, cadence, weekday=None) "every week": no day is made up
            raise Missing(tool, param) from None
    return args


def goods(name: str, description: str, params: tuple) -> bool:
    """Whether "product" in a tool's words is a thing sold (a price, stock, a catalogue, an order) and no other word
    says multiply: then the tool is no multiplier."""
    said = set(words(name)) | set(words(description)) | {w for p in params for w in words(p)}
    return not said & (KEYWORDS["multiply"] - {"product"}) and bool(said & {
        "price", "prices", "cost", "costs", "stock", "catalogue", "catalog", "inventory", "shop", "store", "order", "orders",
        "sku", "item", "items", "buy", "sell", "sold", "warehouse", "review", "reviews", "details", "description"})


def described(tool: Tool, param: str) -> str:
    """What the schema says of a parameter: its own description and what the tool's description says of it."""
    said = re.search(rf"`?\b{re.escape(param)}\b`?\s*(?:is|:|=)\s*([^;]+?)(?:;|\.\s|\.$|$)", tool.description)
    words = r"[\s_-]+".join(map(re.escape, re.split(r"[\s_-]+", param)))  # due_date is "a due date (YYYY-MM-DD)"
    shown = re.search(rf"\b{words}s?\b`?\s*\(([^)]+)\)", tool.description, re.I) or re.search(
        rf"\b{re.escape(re.split(r'[_-]', param)[-1])}s?\b\s*\(([^)]+)\)", tool.description, re.I)  # new_start: "the start (ISO 8601)"
    bare = re.search(rf"`?\b{re.escape(param)}\b`?\s+(?:(?:as|in|like|formatted as)\s+)?(YYYY[-\w:]*(?: HH:MM)?|(?:DD|MM)[-/.]\w\w[-/.]YYYY|HH:MM|"
                     rf"\d+\s*-\s*\d+)", tool.description)  # "date YYYY-MM-DD, hour 0-23", "date as DD/MM/YYYY, time as HH:MM"
    own = tool.params[param].get("description", "") if isinstance(tool.params[param], dict) else ""
    found = " ".join(x for x in (own if isinstance(own, str) else "", said.group(1) if said else "",
                                 shown.group(1) if shown else "", bare.group(1) if bare else "") if x).strip()
    return found or format_of_the_one_time(tool, param)


TIME_PARAM = {"start", "time", "date", "when", "due", "datetime", "moment", "begin", "begins", "starts", "at"}
FORMAT = r"\bISO[- ]?8601(?: date[- ]?time| date| time)?|\bISO (?:date[- ]?time|date)\b|\bISO\b|YYYY[-\w:]*(?: HH:MM)?|\bHH:MM\b"


def format_of_the_one_time(tool: Tool, param: str) -> str:
    """A format the description names anywhere ("Moves an event to a new ISO 8601 start time") belongs to the tool's one
    time parameter (new_start), when it has only one; else ""."""
    timed = [p for p in tool.params if TIME_PARAM & set(words(p))]
    shown = re.search(FORMAT, tool.description)
    return shown.group() if shown and timed == [param] else ""


def allows_empty(tool: Tool, param: str) -> bool:
    """The schema says what an empty value means: "`every` = recurrence ('' if it happens once)"."""
    return bool(re.search(r"''|\"\"|\bempty\b|\bblank\b", described(tool, param), re.I))


class Missing(Exception):
    """A required argument the request does not hold: the model asks for it instead of inventing it."""
    def __init__(self, tool: Tool, param: str, task: str = ""):
        super().__init__(param)
        self.tool, self.param, self.task = tool, param, task  # the task as the call would send it (rule 363)


def role_of(param: str, spec: dict, values: dict) -> str | None:
    """The role a parameter plays, by its name ("start_time", "when_text": when; its first word counts
    twice), else by its description."""
    scores = role_scores(param, spec, values)
    return max(scores, key=scores.get) if scores else None


def role_scores(param: str, spec: dict, values: dict) -> dict:
    """How well each role fits a parameter: by its name, else by its description; {} when nothing fits."""
    said = spec.get("description") if isinstance(spec.get("description"), str) else ""
    for clues in (words(param) or [param.lower()], words(said)):
        if not clues:
            continue
        scores = {r: 2 * (clues[0] in ROLES.get(r, "").split() or r == clues[0])
                  + len(set(clues[1:]) & set(ROLES.get(r, "").split())) for r in values}
        if scores and max(scores.values()) > 0:
            return scores
    return {}


def roles_apart(tool: Tool, values: dict) -> dict:
    """Rule 366: each parameter's role, one role never given to two parameters when one of them fits another role
    too: tally(x: "Which character", y: "Term/phrase that gets scanned") is letter and word, never letter twice."""
    scores = {p: role_scores(p, spec, values) for p, spec in tool.params.items()}
    roles = {p: max(s, key=s.get) if s else None for p, s in scores.items()}
    for p in tool.params:
        rivals = [q for q in tool.params if q != p and roles[q] == roles[p]]
        other = max((r for r, n in scores[p].items() if n > 0 and r not in roles.values()), key=scores[p].get, default=None)
        if roles[p] is not None and rivals and other:
            roles[p] = other
    return roles


def type_of(spec: dict) -> str | None:
    """A parameter's JSON type: "string", or the first that is not "null" in ["string", "null"]."""
    kind = spec.get("type")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), None)
    return kind if isinstance(kind, str) else None


def call(tool: Tool, **roles) -> tuple:
    """A call of `tool`, its arguments filled from role -> value (see fill)."""
    return (tool.name, fill(tool, roles))


def by_id(tool: Tool) -> bool:
    """discard(entry_id), delete_memory(memory_id: integer): a tool that names a memory by its id or number."""
    return any("id" in words(p) or "number" in words(p) or type_of(spec) == "integer" for p, spec in tool.params.items())


def takes_key(tool: Tool) -> bool:
    """remember(key, value) / forget(key), rather than remember(content) / delete(memory_id)."""
    keyed = any(p.lower() in ROLES["key"].split() for p in tool.params)
    return keyed and (len(tool.params) > 1 or tool.kind != "remember")  # store_memory(entry) keeps a whole sentence


def generic(kind: str | None, text: str):
    """A plausible value of a JSON-schema type, for a parameter we cannot place."""
    return {"number": 0, "integer": 0, "boolean": True, "array": [], "object": {}}.get(kind, text)


UNITS_SAID = {"none": r"^\s*(?:none|no|never|once|one-off|single)?\s*$", "hour": r"\bhour", "year": r"\byear|\bannual",
              "month": r"\bmonth", "week": r"\bweek|(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b",
              "day": r"\bday|\bdaily|\bmorning|\bevening|\bnight"}


def cadence(said: str) -> tuple | None:
    """How often a phrase repeats, as (unit, every how many): "every other Friday" and "biweekly" are ("week", 2),
    "every Monday" and "weekly" ("week", 1), "every weekday" ("weekday", 1), "once" ("none", 0); None if it names none."""
    text = str(said).lower().replace("_", " ").replace("-", " ")
    if re.search(UNITS_SAID["none"], text):
        return ("none", 0)
    for unit in ("weekday", "weekend"):
        if re.search(rf"\b{unit}s?\b", text):
            return (unit, 1)
    if re.search(r"\b(?:bi ?weekly|fortnight(?:ly)?)\b", text):
        return ("week", 2)
    every = re.search(r"\b(?:every|each)\s+(other|second|alternate|\d+|two|three|four)?\s*(?:(minute|hour|day|week|month|year)s?\b|"
                      r"(?:mon|tues|wednes|thurs|fri|satur|sun)days?\b)?", text)
    count = {"other": 2, "second": 2, "alternate": 2, "two": 2, "three": 3, "four": 4}.get(every.group(1), every.group(1)) \
        if every and every.group(1) else 1
    for unit in ("hour", "year", "month", "week", "day"):
        if re.search(UNITS_SAID[unit], text):
            return (unit, int(count))
    return None


REPEATS = r"\b(?:every|each|hourly|daily|nightly|weekly|fortnightly|monthly|yearly|annually|weekdays|weekends)\b"  # said once: "once"


def same_cadence(options: list, said: str):
    """The option that repeats as often as `said` does, or None: "weekly" is not "every other Friday", nor is "weekdays"."""
    wanted = cadence(said)
    return next((o for o in options if wanted and cadence(o) == wanted), None) if wanted else None


WEEKDAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]


def enum_named(choices: list, value):
    """The choice a value names in words ("every Friday" names "friday" or "fri"; "2026-03-06" a Friday), or None. A list
    of weekdays never gets a day the value does not name: NoSuchChoice (asked for, or left out when optional)."""
    said = str(value).lower()
    days = [c for c in choices if isinstance(c, str) and len(c) >= 2 and any(d.startswith(c.lower()) for d in WEEKDAYS)]
    if len(days) < 5:  # not a list of weekdays: a choice named as a whole word ("daily" in "daily at 8")
        named = [c for c in choices if isinstance(c, str) and re.search(rf"\b{re.escape(c.lower())}\b", said)]
        return named[0] if len(named) == 1 else None
    said_days = re.findall(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day", said)
    if dated := re.search(r"\b(\d{4})-(\d\d)-(\d\d)\b", said):
        said_days.append(WEEKDAYS[datetime.date(*map(int, dated.groups())).weekday()])
    named = [c for c in days if said_days and said_days[0].startswith(c.lower())]
    if named:
        return named[0]
    raise NoSuchChoice(choices)


def weekday_number(value: str, spec: dict) -> int:
    """A weekday as the number the parameter's description counts it by ("0=Monday ... 6=Sunday", "1 = Sunday"); with no
    such key it is not guessed (NoSuchChoice)."""
    key = re.search(r"\b(\d)\s*[=:]\s*(mon|sun)|\b(mon|sun)\w*\s*[=:]\s*(\d)\b", str(spec.get("description", "")), re.I)
    day = re.search(r"\b(mon|tues|wednes|thurs|fri|satur|sun)day", value, re.I).group(1).lower()
    if not key:
        raise NoSuchChoice([])
    start, first = (int(key.group(1)), key.group(2).lower()) if key.group(1) else (int(key.group(4)), key.group(3).lower())
    order = ["mon", "tues", "wednes", "thurs", "fri", "satur", "sun"]
    return start + (order.index(day) - order.index(first)) % 7


class NoSuchChoice(ValueError):
    """The request names a choice the schema's enum does not offer ("every other Friday" with no biweekly)."""


def convert(value, spec: dict):
    """Make a value fit its parameter's schema (type and enum)."""
    kind = type_of(spec)
    if "enum" in spec and value not in spec["enum"] and (named := enum_named(spec["enum"], value)) is not None:
        value = named  # "every Friday" with ["monday", ..., "friday", ...]: the day said, never the first weekly one
    if "enum" in spec and value not in spec["enum"]:  # "agent:researcher" -> "agent", "every Monday" -> "weekly", else the middle
        prefixed = next((e for e in spec["enum"] if str(value).startswith(f"{e}:")), None)
        if prefixed is None and isinstance(value, str) and any(cadence(e) for e in spec["enum"]):
            value = same_cadence(spec["enum"], value) or (  # a repeat goes to the choice that repeats as often, never a near one
                same_cadence(spec["enum"], "once") if cadence(value) is None and not re.search(REPEATS, value, re.I) else None)
            if value is None:
                raise NoSuchChoice(spec["enum"])
        else:
            value = prefixed or spec["enum"][min(len(spec["enum"]) - 1, 1)]
    if kind in ("integer", "number") and isinstance(value, float) and value.is_integer():
        return int(value)  # 2, not 2.0, as a real model would write it
    if kind == "boolean" and isinstance(value, str):  # "none" is no, "every Monday" is yes
        return not re.fullmatch(r"\s*(?:none|no|false|never|once|one-off|)\s*", value, re.I)
    if kind == "number" and value in LEVELS:
        return LEVELS[value]
    if kind == "number" and isinstance(value, str):
        found = re.search(r"-?\d+(\.\d+)?", value)
        return (float(found.group()) if found.group(1) else int(found.group())) if found else 0  # "job 7" is 7, not 7.0
    if kind == "integer" and isinstance(value, str) and not re.search(r"\d", value) and \
            re.search(r"\b(?:mon|tues|wednes|thurs|fri|satur|sun)day", value, re.I):
        return weekday_number(value, spec)  # weekday: "0=Monday ... 6=Sunday"
    if kind == "integer" and isinstance(value, str):
        found = re.search(r"-?\d+", value)
        return int(found.group()) if found else 0
    if kind == "string" and not isinstance(value, str):
        return str(value)
    if kind == "array" and isinstance(value, str):  # days: ["Monday", ...] from "weekdays", "Mondays and Thursdays"
        week = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
        named = [d for d in week if re.search(rf"\b{d[:3]}", value, re.I)]
        named += week[:5] if re.search(r"\bweekday", value, re.I) else week[5:] if re.search(r"\bweekend", value, re.I) else []
        items = spec.get("items") if isinstance(spec.get("items"), dict) else {}
        if named and items:  # items in the schema's own shape: ["tue", "thu"], or day numbers
            return [convert(day, items) for day in named]
        return named or [part for part in re.split(r",\s*|\s+and\s+", value) if part]
    return value
