"""Reading memory: the facts in a system prompt or a tool result, whatever shape the student chose.

Memory comes back to the model as text: "name: Ada", "- name = Ada", {"name": "Ada"}, a JSON list
of {"id": ..., "content": "The user's name is Ada"}, or plain sentences. `facts_in_memory` reads all
of those into one dict; `lookup` finds a key in it, allowing near names ("city" for "lives_in").
"""
import ast
import json
import re
from functools import lru_cache
from types import MappingProxyType

from .grammar import KIND_OF, PEOPLE
from .understand import key_of, stated

ALIASES = {"name": ["user_name", "username", "first_name", "called"], "prefers": ["preference", "drink"],
           "workplace": ["employer", "company", "office", "work_place"],
    "birthday": ["birth_date", "date_of_birth", "birthdate", "dob", "bday", "birth_year"],
           "lives_in": ["city", "home", "lives", "address", "home_city", "apartment", "flat", "based", "based_in"], "job": ["occupation", "profession", "work"],
           "allergies": ["allergy", "allergic_to"], "fears": ["fear", "afraid_of", "scared_of", "phobia", "phobias"],
           "relationship": ["relationship_status", "marital_status", "status"],
           "phone": ["phone_number", "mobile", "mobile_number", "cell", "cell_number", "cellphone", "telephone", "number", "telephone_number", "mobile_phone", "cell_phone"], "likes": ["like", "loves", "interests"],
           "location": ["lives_in", "city", "home_city", "home"], "avoids": ["allergies", "allergy", "diet"],
           "birthplace": ["hometown", "place_of_birth", "born_in", "birth_city", "from"],
           "car": ["vehicle", "user_drives", "drives", "car_model"],  # rule 302: what the user drives is their car
           "boss": ["manager", "supervisor", "line_manager", "team_lead"], "doctor": ["gp", "physician", "family_doctor"]}  # rule 345
LOOKED_IN = {"avoids"}  # keys whose near names are only where to look: a diet is never what one avoids (rule 138)


# Rule 140: a category is the things that belong to it, a small general table (a pet is never health)
CATEGORIES = {
    "health": set("""health medical allergy allergies allergic condition conditions medication medications medicine medicines meds
        diagnosis illness illnesses disease diseases blood asthma diabetes diabetic doctor gp therapist therapy surgery injury
        injuries intolerance intolerant prescription prescriptions symptom symptoms migraine migraines epilepsy disability
        clinic hospital vaccine vaccination pregnancy pregnant inhaler insulin""".split()),
    "work": set("""work job occupation profession workplace employer company office boss manager colleague colleagues coworker
        coworkers salary career works employed team client clients shift shifts""".split()),
    "family": set("""family husband wife partner spouse son sons daughter daughters brother brothers sister sisters mother father
        mum mom dad parents parent sibling siblings grandma grandmother grandpa grandfather grandparents aunt uncle cousin
        cousins niece nephew kids kid children child baby twins""".split()),
    "pets": set("pet pets dog dogs cat cats puppy kitten hamster rabbit parrot fish spaniel terrier labrador beagle poodle".split()),
    "music": set("music band bands song songs singer singers artist artists album albums genre musician concert playlist".split()),
    "films": set("film films movie movies actor actors actress director cinema series show shows".split()),
    "food": set("""food foods dish dishes cuisine restaurant restaurants meal meals snack snacks drink drinks diet dietary vegan
        vegetarian pescatarian halal kosher lactose gluten dairy intolerant intolerance allergic allergy allergies""".split()),
    "hobbies": set("""hobby hobbies pastime pastimes plays play playing sport sports game games chess guitar piano painting
        knitting hiking climbing cycling running swimming reading gardening collects collecting""".split()),  # rule 286
    "vehicles": set("car cars drives vehicle vehicles bike motorbike motorcycle scooter van truck".split()),
    "contact": set("phone mobile cell telephone email e mail address contact".split()),
    "money": set("""money finances finance salary income bank account savings debt debts rent mortgage budget loan loans pay
        pension iban""".split()),
}
CATEGORY_WORDS = {"health": "health", "medical": "health", "wellbeing": "health", "work": "work", "career": "work",
                  "family": "family", "relatives": "family", "folks": "family", "pets": "pets", "animals": "pets",
                  "money": "money", "finances": "money", "finance": "money", "financial": "money", "music": "music",
                  "films": "films", "movies": "films", "cinema": "films", "food": "food", "eating": "food",
                  "dietary": "food", "hobbies": "hobbies", "pastimes": "hobbies", "vehicles": "vehicles", "contact": "contact"}


def category_of(words: str) -> str | None:
    """The category a thing named is ("my health", "medical stuff", "my taste in music"), or None: only when the category
    word is all that is named ("my favourite food" is one memory, not the food category)."""
    named = [w for w in re.findall(r"[a-z]+", words.lower()) if w not in AROUND_A_CATEGORY]
    return CATEGORY_WORDS.get(named[0]) if len(named) == 1 else None


AROUND_A_CATEGORY = set("""my your the all of about everything anything stuff details detail info information data things thing
    taste in history life matters issues records notes side bits""".split())


def in_category(category: str, text: str) -> bool:
    """Whether a memory's key and value are about the category: "condition: asthma" is health, "pet: a dog" is not."""
    words = re.findall(r"[a-z]+", text.lower().replace("_", " "))
    if words and words[0] in PEOPLE - CATEGORIES[category]:  # "brother_works: at a bank" is his work, not the user's
        return False
    return bool(CATEGORIES[category] & set(words))


def facts_in_memory(text: str) -> dict:
    """Every fact in memory text (JSON, key: value lines, sentences); the first of a key wins."""
    facts = {}
    for data in json_in(text):
        collect(data, facts)
    for line in re.split(r"[\n;]|(?<=[a-z0-9])\.\s", text):
        read_line(line.strip(" -*•\t"), facts)
    return facts


@lru_cache(maxsize=256)  # asked once per memory key while a delete picks its targets: read the prompt once
def keys_as_written(text: str) -> MappingProxyType:
    """The memory's own key for each key the model reads it under ({"lives_in": "city"}), so that a write or a
    delete goes to the key the student's memory holds, not to the model's name for it."""
    written = {}
    for data in json_in(text):
        for item in data if isinstance(data, list) else [data]:
            if isinstance(item, dict):
                written.update((key_of(k), k) for k in item if isinstance(k, str))
    for line in re.split(r"\n", text):
        found = re.match(r"^[\s\-*•]*([A-Za-z][\w' ]{0,40}?)\s*(?::|=|->|—|–| - )\s*\S", line)
        if found:
            written.setdefault(key_of(found.group(1)), found.group(1))
    for phrase in re.findall(r"\b(?:their|his|her|the user's|user's)\s+([a-z]+(?: [a-z]+){0,2}?) (?:is|are)\b", text, re.I):
        written.setdefault(key_of(phrase), phrase.replace(" ", "_"))  # "Their fav restaurant is ...": fav_restaurant
    return MappingProxyType(written)


def texts_in(result: str) -> list[str]:
    """The memory texts in a tool result: the "content" of each JSON item, or the text."""
    found = []
    for data in json_in(result):
        items = data if isinstance(data, list) else [data]
        found += [str(i.get("content") or i.get("text") or i.get("memory") or "") if isinstance(i, dict) else i
                  for i in items if isinstance(i, (dict, str))]
    return [t for t in found if t] or [result]


def ids_in(result: str) -> list[tuple[str, str]]:
    """(id, content) of each memory in a search result."""
    pairs = []
    for data in json_in(result):
        for item in data if isinstance(data, list) else [data]:
            if isinstance(item, dict) and item.get("id") is not None:
                pairs.append((str(item["id"]), str(item.get("content") or item.get("text") or item.get("memory") or "")))
            elif isinstance(item, dict) and (named := next((k for k in item if re.search(r"(?:^|_)id$", k, re.I)), None)):
                pairs.append((str(item[named]), " ".join(str(v) for k, v in item.items() if k != named and isinstance(v, str))))
            elif isinstance(item, dict):
                pairs += keyed_by_id(item)
            elif isinstance(item, list) and len(item) == 2 and all(isinstance(v, (str, int)) for v in item):
                pairs.append((str(item[0]), str(item[1])))  # [["k7", "User's locker code is 3381"], ...]
    if not pairs:  # "[n2] User is allergic to cats", "#17: Dentist is Dr Patel", "n1: The user ...": an id before each memory
        pairs = re.findall(r"^[\s*•-]*(?:[\[(](?:id\s*[:=]?\s*|#)?([\w:.-]+)[\])]|#(\w+)[:.)]?|(?:id\s*[:=]?\s*|(?:note|memory)\s+)?"
                           r"([A-Za-z_-]{0,12}\d[\w.-]*)\s*(?:[:)|]|\s[-–—]\s))\s*(.+)$",
                           result, re.M | re.I)  # "(r2) ...", "- n2: ...", "id=n2: ...", "n2 - ..." too
        pairs = [(a or b or c, text) for a, b, c, text in pairs]
    if not pairs:  # "id=k7 text=...; id=k8 text=...": each id with the words up to the next one
        marks = list(re.finditer(r"\"?id\"?\s*[:=]\s*\"?([\w:.-]+)", result))
        pairs = [(m.group(1), re.sub(r"^\W*\w+\"?\s*[:=]\s*", "", result[m.end():marks[i + 1].start() if i + 1 < len(marks)
                                                                  else len(result)]).strip(" ;,\"'")) for i, m in enumerate(marks)]
    return ids_as_shown(pairs, result)


def ids_as_shown(pairs: list, result: str) -> list[tuple[str, str]]:
    """Rule 301: an id read from a result is the id token alone, whatever punctuation wraps it ("id=n2:", "[n2]", "#n2 -",
    "(id: n2)"), and only one that occurs in the result as a token; its text loses the separators left before it."""
    tokens = [(re.sub(r"^\W+|\W+$", "", str(i)), text.strip(" \t\n-–—|:;]\"'")) for i, text in pairs]
    return [(i, text) for i, text in tokens if i and re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", result)]


def keyed_by_id(data: dict) -> list[tuple[str, str]]:
    """{"n1": "User's phone is ...", "n2": "..."}: a search result whose keys are ids and whose values are the memories'
    texts (every key shaped as an id: a few letters, then digits), as (id, text); [] for any other object."""
    if not data or not all(isinstance(v, str) and re.fullmatch(r"[A-Za-z]{0,8}[_-]?\d+", k) for k, v in data.items()):
        return []
    return [(k, v) for k, v in data.items()]


def json_in(text: str) -> list:
    try:
        return [json.loads(text)]
    except ValueError:
        found = []
        for blob in re.findall(r"(?:^\s*|[:=]\s*)(\[.*\])\s*$", text, re.M):  # a list on its own line or after a label
            found += loaded(blob)
        if found:
            return found
        for blob in re.findall(r"\{[^{}]*\}", text):  # flat objects inside prose
            found += loaded(blob)
        return found


def loaded(blob: str) -> list:
    """[the data] of a JSON blob, or of a Python literal printed into a prompt (f"Memory: {memory}" writes
    {'name': 'Ada'}: rule 313); [] for anything else."""
    try:
        return [json.loads(blob)]
    except ValueError:
        if "'" not in blob:
            return []
        try:
            data = ast.literal_eval(blob)  # literals only: nothing in the prompt is run
        except (ValueError, SyntaxError, MemoryError, RecursionError):
            return []
        return [data] if isinstance(data, (dict, list)) else []


def collect(data, facts: dict) -> None:
    if isinstance(data, list):
        for item in data:
            collect(item, facts)
    elif isinstance(data, str):  # ["The user plays the cello", ...]: a list of memory texts
        read_line(data, facts)
    elif isinstance(data, dict):
        name, value = record(data)
        if name:  # rule 374: {"id": 1, "key": "favourite_colour", "text": "teal"} is favourite_colour: teal
            facts.setdefault(key_of(name), value)
            return read_line(value, facts)  # {"tag": "health", "text": "User is allergic to cats"}: the sentence too
        for key, value in data.items():
            if isinstance(value, (dict, list)):
                collect(value, facts)
            elif key in ("content", "text", "memory", "fact"):
                read_line(str(value), facts)
            elif isinstance(value, (str, int, float)) and key != "id":
                facts.setdefault(key_of(key), str(value))
                if re.match(r"^\W*(?:the )?user\b", str(value), re.I):  # {"n1": "The user takes their coffee black"}
                    read_line(str(value), facts)


NAME_FIELDS = ("key", "topic", "label", "tag", "category", "slot", "field", "attribute")
VALUE_FIELDS = ("text", "value", "fact", "note", "detail", "content", "memory", "data")


def record(data: dict) -> tuple[str, str]:
    """Rule 374: a memory record that names its fact in one field and holds it in another, ("key", "text"),
    ("topic", "fact"), ("label", "value") ..., as (name, value); ("", "") for any other object."""
    name = next((data[f] for f in NAME_FIELDS if isinstance(data.get(f), str) and data[f].strip()), "")
    value = next((data[f] for f in VALUE_FIELDS if isinstance(data.get(f), (str, int, float)) and str(data[f]).strip()), "")
    if not name or value == "" or not re.fullmatch(r"[A-Za-z][\w' -]{0,40}", name):
        return "", ""
    return name, str(value)


def read_line(line: str, facts: dict) -> None:
    """'name: Ada', 'name = Ada' or a sentence such as "The user's name is Ada"."""
    line = unlabelled(line)
    match = re.match(r"^[\"']?([A-Za-z][\w' ]{0,40}?)[\"']?\s*(?::|=|->|—|–| - )\s*([^{}\[\]]+)$", line)
    if match and re.search(r"\b(?:remember|memory|memories|know|facts|notes|about the user|background)\b", match.group(1), re.I):
        match, line = None, match.group(2)  # "What you remember: Their ..." is a heading over memories, not one of them
    if match and re.fullmatch(AN_ID, match.group(1)) and re.match(r"[a-z]+(?:_[a-z]+)*\s*(?::|=| - )", match.group(2)):
        return read_line(match.group(2), facts)  # rule 352: "n2: daughter_plays - the violin" is daughter_plays: the violin
    if match:  # name: Ada, "name": "Ada", name = 'Ada': quotes fence a value, they are not part of it
        facts.setdefault(key_of(match.group(1)), match.group(2).strip(" .,").strip("\"'“”"))
        if len(match.group(2).split()) < 4:
            return
        line = match.group(2)  # "Memory: The user is called Ada ...": a heading, then sentences
    line = re.sub(r"\b(?:their|his|her)\b(?=\s+\w+(?:\s+\w+)?\s+(?:is|are|was)\b)", "my", line, flags=re.IGNORECASE)
    line = re.sub(r"(?<!my )\b(?:the user|user|she|he|they)(?:('s)|\s+(\w+))\b", first_person, line, flags=re.IGNORECASE)
    line = re.sub(r"\b(and|who|but)\s+(prefer|like|love|live|work|dislike|hate)s\b", r"\1 i \2", line, flags=re.IGNORECASE)
    whole = re.match(r"^my ([a-z][a-z_ ]{0,40}?) (?:is|are) (.+?)\.?$", line, re.I)
    if whole:  # "my kids is two kids, Theo and Ana": memory's sentence is the value to its end, commas and all
        facts.setdefault(key_of(whole.group(1)), whole.group(2))
    for key, value in stated(line):
        facts.setdefault(key, value)


AN_ID = r"#?(?:id\s*[:=#]?\s*)?[\w-]*\d[\w-]*"  # 3, #4, e12, id=7


def unlabelled(line: str) -> str:
    """Rule 318: a line of a result in cells, "(dog_name) Biscuit", "[allergies] peanuts", "#4 | job | nurse", read as
    "key: value", and "[3] User drinks oat milk" as its text: an id before the text is no part of it."""
    line = re.sub(rf"^(?:{AN_ID}|\d+)\s*[.):]?\s+(?=[\[(]|[a-z]+(?:_[a-z]+)*\s*(?::|=| [-–—] )\s*\S)", "", line, flags=re.I)  # rule 373
    if not re.match(r"^[\[(]|[^|]+\|", line):
        return line
    cells = [c.strip() for c in re.sub(r"^[\[(]([^\[\]()]{1,40})[\])]\s*[:\-–—|]?\s*", r"\1 | ", line).split("|") if c.strip()]
    while len(cells) > 1 and re.fullmatch(AN_ID, cells[0], re.I):
        cells.pop(0)
    if len(cells) == 2 and re.fullmatch(r"[A-Za-z][\w' ]{0,40}", cells[0]):
        return f"{cells[0]}: {cells[1]}"
    return cells[0] if len(cells) == 1 else line


def first_person(said) -> str:
    """ "the user is" -> "i am", "she likes" -> "i like", "the user's" -> "my": memory written about the
    user, read as if they had said it."""
    if said.group(1):
        return "my"
    verb = said.group(2).lower()
    if verb in ("is", "was", "has"):
        return "i " + {"is": "am", "was": "was", "has": "have"}[verb]
    return "i " + (verb[:-1] if verb.endswith("s") and not verb.endswith("ss") else verb)


def canonical(word: str) -> str:
    """The key a word names: "work" -> "job" (its near names in ALIASES), else the word as a key."""
    return next((key for key, near in ALIASES.items() if word in near and key not in LOOKED_IN), key_of(word))


def family(word: str) -> list[str]:
    """Rule 345: a word's near names, its family's head and the head's other near names ("supervisor": boss, manager, ...)."""
    named = canonical(word)
    return [n for n in dict.fromkeys([*ALIASES.get(word, []), named, *ALIASES.get(named, [])]) if n != word]


def lookup(facts: dict, key: str) -> str | None:
    """The value for a key, allowing near names (favourite_drink ~ prefers, etc.)."""
    return holder(facts, key)[1]


DISTINCT_KINDS = {"pet", "dog", "vehicle", "work"}  # rule 119: a cat is no dog, a bike no car, a job no employer


def holder(facts: dict, key: str) -> tuple:
    """(the key memory keeps it under, the value) for a key, allowing near names; (key, None) if none."""
    if key in facts:
        return key, facts[key]
    bare = key.removesuffix("_name")  # "my number" is kept as `phone`; "my boss" as `manager`, "my supervisor" as `boss`
    for alias in (near + key[len(bare):] for near in family(bare)):
        if alias in facts and alias != key:
            return alias, facts[alias]
    wanted = set(key.split("_")) - {"name", "my", "the"} or {key}
    found = next(((k, v) for k, v in facts.items() if wanted <= set(k.split("_"))
                  and not (set(k.split("_")) - wanted) & PEOPLE), None)  # "friend_prefers" is not what the user prefers
    if found is None:  # "which car?" finds `ride`, "my partner's name" finds `husband_name`, "my address" finds `apartment`
        head, _, tail = key.partition("_")
        near = {KIND_OF.get(head)} | {k for k, v in KIND_OF.items() if v == head or KIND_OF.get(head) == v
                                      and v not in DISTINCT_KINDS} - {None, head}
        found = next(((k, v) for k, v in facts.items() if k.partition("_")[0] in near and k.partition("_")[2] == tail), None)
    return found or only_member(facts, key) or (key, None)


COVERS = {"kid": "son daughter child boy girl", "child": "son daughter kid boy girl", "parent": "mother father mum mom dad",
          "sibling": "brother sister", "grandparent": "grandmother grandfather grandma grandpa nan"}  # rule 304


def only_member(facts: dict, key: str) -> tuple | None:
    """Rule 304: a family word asks for the one member it covers that memory holds ("my kid's name" is `son_name`
    when only a son is held); with two held ("son_name", "daughter_name") it is not guessed: None."""
    head, _, tail = key.partition("_")
    members = [(k, v) for k, v in facts.items() if k.partition("_")[0] in COVERS.get(head, "").split() and k.partition("_")[2] == tail]
    return members[0] if len(members) == 1 else None


def mentioning(facts: dict, words: str) -> list[tuple[str, str]]:
    """The facts whose key or value shares a word that matters with `words`."""
    wanted = {w for w in re.findall(r"[a-z0-9]+", words.lower()) if len(w) > 2} - {
        "what", "when", "where", "which", "who", "the", "and", "did", "you", "your", "about", "tell", "know", "user"}
    return [(k, v) for k, v in facts.items()
            if wanted & set(re.findall(r"[a-z0-9]+", f"{k.replace('_', ' ')} {v}".lower()))]


ZODIAC = "Aries Taurus Gemini Cancer Leo Virgo Libra Scorpio Sagittarius Capricorn Aquarius Pisces"
NOT_A_SHADE = r"(?!(?:my|your|his|her|their|the|both|has|have|with|and|of|is|are)\b)"
# Rule 230: everyday attributes, and the questions each answers (a small general table): (the question, what memory says,
# how it is said back). "Which hand do I write with?" is answered by "left-handed", "What colour are my eyes?" by "green eyes".
ATTRIBUTES = [
    (r"\b(?:which|what) hand\b|\bhandedness\b|\b(?:left|right)[- ]?handed\b|\bdominant hand\b",
     re.compile(r"\b(?:left|right)[- ]?handed\b|\bambidextrous\b", re.I), "You're {}."),
    (r"\bcolou?r (?:are|is|of) my eyes\b|\bmy eye colou?r\b|\bmy eyes\b.*\bcolou?r\b",
     re.compile(rf"\b{NOT_A_SHADE}[a-z]+(?:[- ][a-z]+)? eyes\b|\b[a-z]+-eyed\b", re.I), "Your eyes are {}."),
    (r"\bcolou?r (?:is|of) my hair\b|\bmy hair colou?r\b|\bmy hair\b.*\bcolou?r\b|\bwhat (?:colou?r )?hair do i have\b",
     re.compile(rf"\b{NOT_A_SHADE}[a-z]+(?:[- ][a-z]+)? hair\b|\b[a-z]+-haired\b|\b(?:blonde?|redhead|brunette|bald)\b", re.I),
     "Your hair is {}."),
    (r"\bhow tall (?:am i|i am)\b|\bmy height\b",
     re.compile(r"\b\d+(?:\.\d+)?\s*(?:cm|m|metres?|meters?)\b|\b\d\s*(?:'|ft|feet|foot)\s*\d{0,2}\s*(?:\"|in\b|inches)?", re.I),
     "You're {} tall."),
    (r"\bblood (?:type|group)\b", re.compile(r"(?<![\w-])(?:AB|A|B|O)\s?(?:[+-]|(?i:positive|negative))(?![\w+-])"),
     "Your blood type is {}."),
    (r"\b(?:star|zodiac|sun|astrological) sign\b|\bwhat sign am i\b", re.compile(rf"\b(?:{'|'.join(ZODIAC.split())})\b"),
     "Your star sign is {}."),
]


def attribute_said(question: str, facts: dict) -> str | None:
    """Rule 230: the answer to a question about an everyday attribute (handedness, eye or hair colour, height, blood type,
    star sign) from the one memory that states it in its own words, or None. Two different values in memory answer
    nothing (a guess), and a memory about one of their people ("My sister is left-handed") is never theirs."""
    for asked, stated, said in ATTRIBUTES:
        if re.search(asked, question, re.I):
            found = {m.group().strip(): None for key, value in facts.items()
                     if (m := stated.search(str(value))) and not someone_else(f"{key} {value}")}
            return said.format(re.sub(r"(?:\s+|-)(?:eyes|eyed|hair|haired)$", "", next(iter(found)))) if len(found) == 1 else None
    return None


def someone_else(memory: str) -> bool:
    """Whether a memory is about one of the user's people ("sister: left-handed", "Her husband has blue eyes") or
    another named person ("Tom's eyes are grey"), not the user."""
    words = set(re.findall(r"[a-z]+", memory.lower().replace("_", " ")))
    return bool(words & PEOPLE) or re.search(r"\b(?:he|she|his|her|they|their)\b|\b[A-Z][a-z]+'s\b", memory) is not None
