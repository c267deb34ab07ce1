"""Say: the words of an answer, from tool results, memory and the conversation.

Every sentence the teaching model writes is built here, so its voice is in one place:
facts in the second person ("your name is Ada") or the third ("The user's name is Ada", the way
memory services store them), summaries, and the honest fallback that says what it can do.
"""
import re

from . import statements
from .grammar import PEOPLE

# key -> (to the user, about the user); {} is the value
PHRASES = {
    "name": ("your name is {}", "The user's name is {}"),
    "likes": ("you like {}", "The user likes {}"),
    "dislikes": ("you don't like {}", "The user dislikes {}"),
    "prefers": ("you prefer {}", "The user prefers {}"),
    "allergies": ("you are allergic to {}", "The user is allergic to {}"),
    "job": ("you work as {}", "The user works as {}"),
    "workplace": ("you work at {}", "The user works at {}"),
    "lives_in": ("you live in {}", "The user lives in {}"),
    "from": ("you are from {}", "The user is from {}"),
    "location": ("you are in {}", "The user is in {}"),
    "age": ("you are {} years old", "The user is {} years old"),
    "birthplace": ("you were born in {}", "The user was born in {}"),
    "birth_year": ("you were born in {}", "The user was born in {}"),
    "diet": ("you are {}", "The user is {}"),
    "avoids": ("you avoid {}", "The user avoids {}"),
    "fears": ("you are afraid of {}", "The user is afraid of {}"),
    "relationship": ("you are {}", "The user is {}"),
    "phone": ("your phone number is {}", "The user's phone number is {}"),
}
CAPITALS = {"france": "Paris", "japan": "Tokyo", "italy": "Rome", "germany": "Berlin",
            "spain": "Madrid", "kenya": "Nairobi", "brazil": "Brasília", "canada": "Ottawa"}
ABOUT_ME = ("I'm the teaching model: a small rule-based program that speaks the same JSON "
            "as a real LLM API. I'm not a language model; I follow fixed rules so every "
            "lesson runs offline and gives the same answer every time.")
OFFERED = (("text", {"count_letter", "count_words", "uppercase", "lowercase", "titlecase", "acronym", "sort_words", "length",
                     "reverse", "reverse_words", "reverse_each"}),
           ("weather", {"weather"}), ("memory", {"remember", "recall", "list_memory", "forget"}),
           ("scheduling", {"schedule", "cancel"}), ("the time", {"clock"}), ("search", {"search"}))
SUMS = {"add", "subtract", "multiply", "divide", "percent", "power", "modulo", "calculate"}  # "I can do arithmetic" says these


def can(tools=()) -> str:
    """What it can do in this request (rule 299): the kinds of the tools offered (text, weather, memory, scheduling ...),
    a tool of no known kind by its name, and never a kind that was not offered; facts are kept beyond this conversation
    only with a tool that stores them."""
    tools = [t for t in tools if not numeric(t)]  # take_away(start, amount) is a sum, whatever its words guessed
    kinds = {t.kind for t in tools}
    named = [t for t in tools if t.kind in ("weather", "search") and t.kind not in f"{t.name} {t.description}".lower()]
    kinds = {t.kind for t in tools if t not in named}  # a unit converter that mentions temperatures is no weather tool (rule 393)
    listed = [label for label, group in OFFERED if kinds & group] + [
        t.name for t in tools if t.kind not in SUMS and (t in named or not any(t.kind in group for _, group in OFFERED))]
    use = f", use the tools I am given ({', '.join(listed)})" if listed else ""
    kept = "remember facts you state" if "remember" in kinds else "remember facts you state in this conversation"
    return f"I can do arithmetic{use}, {kept}, and answer from memory."


def numeric(tool) -> bool:
    """A tool that takes only numbers: arithmetic, which "I can do arithmetic" already says."""
    return bool(tool.params) and all(isinstance(spec, dict) and spec.get("type") in ("number", "integer")
                                     for spec in tool.params.values())

GREETING = ("Hello{}! I'm the teaching model, a rule-based stand-in for an LLM. "
            "Ask me some arithmetic, give me tools, or tell me about yourself.")
JOKE = "Why did the agent stop calling tools? It hit max_turns."


def phrase(key: str, value: str, about_user: bool = False) -> str:
    """("name", "Ada") -> "your name is Ada" (or "The user's name is Ada")."""
    if framed := kept_meaning(key, value, about_user):
        return framed
    if not about_user and re.match(r"the user (?:is|does|has|never)\b", str(value), re.I):  # a note kept as a sentence (rule 321)
        return re.sub(r"^the user (?:is|(does)|has)\b", lambda m: "you do" if m[1] else "you are" if "is" in m[0] else "you have",
                      str(value).rstrip("."), flags=re.I).replace("The user never", "you never")
    if key not in PHRASES and (kept := statements.said(key, value, about_user)):
        return kept
    owner = key.removesuffix("_name").replace("_", " ")
    if key.endswith("_name") and key != "name":
        second, third = f"your {owner}'s name is {{}}", f"The user's {owner}'s name is {{}}"
    elif key in PHRASES:
        second, third = PHRASES[key]
    else:
        thing = key.replace("_", " ")
        verb = "are" if re.search(r"[^su]s$", thing) else "is"  # "your kids are ...", "your address is ..."
        second, third = f"your {thing} {verb} {{}}", f"The user's {thing} {verb} {{}}"
    value = re.sub(r"\bmy\b", "their" if about_user else "your", value)  # "I love my dog": "you like your dog"
    if key == "job" and not re.match(r"(?:an?|the)\s", value, re.I):  # stored as "nurse", said as "a nurse"
        value = ("an " if value[:1].lower() in "aeiou" else "a ") + value
    return (third if about_user else second).format(value)


DIET_WORD = r"(?:(?:strictly|fully|mostly|mainly|a|an) )?(?:(?:[a-z]+[- ])?[a-z]*(?:arian|an|free|intolerant)|keto|halal|kosher|teetotal|paleo|coeliac|celiac)"
PLACE_KEYS = ("lives_in", "from", "location", "birthplace")
OWN = r"(?P<owner>[a-z]+)"


def kept_meaning(key: str, value: str, about_user: bool) -> str | None:
    """Rule 138: a stored fact said back in a frame that keeps its meaning, for the shapes the plain frames garble, else
    None. A diet is "you are vegetarian" only for a word that names a diet, else "your diet is no dairy" (never a
    verb after "is": "your diet: avoids gluten"); "two kids, Maya and Theo" is what you have; "in Leeds" is not "in in";
    a place stored in lower case is said as a name; "son_age" is "your son is 7 years old"; "mother_lives_in" is "your
    mother lives in Porto"."""
    whose = "The user's" if about_user else "your"
    if value == "{}":  # a frame asked for ("how memory writes it", for a search): the plain one
        return None
    if re.fullmatch(r"\W*(?:yes|no|y|n|true|false|none|nothing|n/a|nil)\W*", value, re.I) and key not in ("name",):
        # "married: no", "allergies: none": no frame says it without turning it round, so it is said as kept
        notes, kept = ("the user's notes say" if about_user else "my notes say"), key.replace("_", " ")
        return f'{notes} "{kept}: {value.strip()}"'
    if key == "diet" and not re.fullmatch(DIET_WORD, value.strip(), re.I):
        plain = re.match(r"[a-z]+s\b(?<!ss)", value) and not re.match(r"(?:no|less|loss|plus)\b", value) or verb_first(value)
        return f"{whose} diet{':' if plain else ' is'} {value}"
    if verb_first(value) and key not in PHRASES and not statements.decode(key):  # "food: doesn't eat pork"
        return f"{whose} {key.replace('_', ' ')}: {value}"
    if key in ("allergies", "allergy") and re.search(r"\ballerg(?:y|ies)$", value, re.I):  # "a nut allergy": you have it
        return f"The user has {value}" if about_user else f"you have {value}"
    noun = key.split("_")[-1]
    if re.match(rf"(?:\d+|two|three|four|five|six|seven|eight|nine|ten|several|a few|some) {noun[:-1] if noun.endswith('s') else noun}s?\b",
                value, re.I) and not key.startswith("user_"):  # "kids: two kids, Maya and Theo": what you have
        return f"The user has {value}" if about_user else f"you have {value}"
    if key in PLACE_KEYS:
        value = re.sub(r"^(?:in|from|at)\s+", "", value, flags=re.I)
        if re.fullmatch(r"[a-z]+(?: [a-z]+)?", value) and not set(value.split()) & CLOSED:  # "leeds": Leeds
            value = value.title()
        return PHRASES[key][about_user].format(value)
    if person := re.fullmatch(rf"{OWN}(?:_(?P<called>[a-z]+))?_age", key):  # "son_tom_age": your son Tom
        years = re.fullmatch(r"\d{1,3}", value.strip())
        if person["called"]:
            person = {"owner": f"{person['owner']} {person['called'].title()}"}
        return f"{whose} {person['owner']} is {value} years old" if years else f"{whose} {person['owner']}'s age is {value}"
    if (person := re.fullmatch(rf"{OWN}_(?P<called>[a-z]+)_(?P<verb>[a-z]+s)(?:_(?P<prep>in|at|for|on|with|from|to))?", key)) \
            and person["owner"] in PEOPLE and person["called"] not in ("lives", "works"):  # sister_ingrid_lives: your sister Ingrid
        return f"{whose} {person['owner']} {person['called'].title()} {person['verb']} {person['prep'] or ''} {value}".replace("  ", " ")
    if person := re.fullmatch(rf"{OWN}_(?P<verb>[a-z]+s)_(?P<prep>in|at|for|on|with|from|to)", key):  # mother_lives_in
        value = re.sub(rf"^{person['prep']}\s+", "", value, flags=re.I)
        return f"{whose} {person['owner']} {person['verb']} {person['prep']} {value}"
    return None


def verb_first(value: str) -> bool:
    """A value that starts as a verb phrase ("doesn't eat pork", "never drinks"): "is" before it would garble it."""
    return bool(re.match(r"(?:[a-z]+n't|never|not|only|cannot|avoids|eats|drinks|prefers|likes|hates|loves)\b", value.strip(), re.I))


CLOSED = set("a an the my your his her their our in on at of to for with from by and or not no this that".split())


UNKNOWN = {"phone": "your phone number", "avoids": "what you avoid", "fears": "what you are afraid of", "lives_in": "where you live", "from": "where you are from", "likes": "what you like",
           "dislikes": "what you dislike", "prefers": "what you prefer", "workplace": "where you work"}


def thing(key: str) -> str:
    """A memory's key as words for the user: "lives_in" -> "where you live", "dog_name" -> "your dog's name"."""
    if person := re.fullmatch(rf"{OWN}_age", key):
        return f"your {person['owner']}'s age"
    if (said := statements.decode(key)) and not said[1].endswith("ing"):  # "user_drives": what you drive (rule 138)
        return f"what you {statements.base_form(said[1])}" if said[0] == "user" else f"what you told me about your {said[0]}"
    return UNKNOWN.get(key) or "your " + (f"{key.removesuffix('_name').replace('_', ' ')}'s name"
                                          if key.endswith("_name") and key != "name" else key.replace("_", " "))


def unknown(key: str, can_keep: bool = True) -> str:
    """What the model admits it does not know: "I don't know your dog's name yet. ..."; the offer to remember only with a
    tool that stores (rule 142: an agent with no such tool never promises it)."""
    return without_promise(known_not(key), can_keep)


def without_promise(text: str, can_keep: bool) -> str:
    """ "... Tell me and I'll remember it." said only by an agent that can keep what it is told."""
    return text if can_keep else text.removesuffix(" Tell me and I'll remember it.")


def known_not(key: str) -> str:
    if statements.decode(key) or key.startswith("user_") or not re.fullmatch(r"[a-z]+(?:_[a-z]+){0,2}", key) or set(
            key.split("_")) & (CLOSED | {"i", "me", "you", "based", "told", "know"}):  # "health_i": never "your health i"
        return "I don't know that yet. Tell me and I'll remember it."
    return f"I don't know {thing(key)} yet. Tell me and I'll remember it."


def query(key: str) -> str:
    """Words to search a memory store with: how the fact is written ("allergies" -> "allergic to")."""
    words = re.sub(r"^The user(?:'s)?\s+(?:is\s+)?|\s*\{\}\s*", "", phrase(key, "{}", about_user=True)).removesuffix(" is")
    return words if re.search(r"[a-z]{3,}", words.replace("from", "")) else f"user {words}".strip()


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def facts(pairs) -> str:
    """[("name", "Ada"), ("likes", "tea")] -> "your name is Ada and you like tea"."""
    return " and ".join(phrase(k, v) for k, v in pairs)


def known(pairs) -> str:
    return "Here is what I know: " + "; ".join(phrase(k, v) for k, v in pairs) + "."


def summary(texts: list[str], limit: int = 3) -> str:
    """The first few sentences of the texts: a summary that invents nothing."""
    sentences = [s.strip() for text in texts for s in re.findall(r"[^.!?]+[.!?]?", text) if s.strip()]
    return " ".join(sentences[:limit])


ASKS = {"schedule": "What should I remind you to do?", "remember": "What should I remember?",
        "forget": "What should I forget?", "search": "What should I search for?"}


WHEN_ASKED = "When should it happen?"


def what_and_when(clause: str) -> str:
    """Rule 396: neither a task nor a time said ("set a reminder"): both asked in one question, no placeholder quoted."""
    return "What should I remind you about, and when?" if re.search(r"\b(?:remind|nudge|ping)\b|\breminder", clause, re.I) \
        else "What should I schedule, and when?"
WHEN_WORDS = {"when", "due", "start", "time", "date", "at", "datetime"}


def when_asked(task: str = "", clause: str = "") -> str:
    """Rule 341: the one question for a time not said, naming what is to be scheduled: "When should I schedule the meeting
    with Sarah?" (a meeting, or the massage of "book me a massage", is "the" one asked about); a reminder's task is
    something to do ("When should I remind you to call your mum?")."""
    task = re.sub(r"\bmy\b", "your", task.strip(" .!?"), flags=re.I)
    if not task:
        return WHEN_ASKED
    if re.search(r"\b(?:remind|nudge|ping|alert|notify|wake) me\b|\breminder\b", clause, re.I):
        return f"When should I remind you to {task}?"
    if quoted := re.search(r"['\"‘“]" + re.escape(task) + r"['\"’”]", clause):  # "put 'water the plants' on my calendar" (rule 420)
        return f"When should I schedule {quoted.group()}?"
    return f"When should I schedule {re.sub(r'^(?:(?:an?|one|the) )?', 'the ', task, flags=re.I)}?"


def missing(kind: str | None, param: str, choices: list | None = None, task: str = "", clause: str = "") -> str:
    """The one short question asked instead of calling a tool with an argument the request does not hold."""
    if choices:  # "every day" and a tool that repeats only weekly or monthly: its choices, none made up
        return f"The {param.replace('_', ' ')} can only be {', '.join(map(str, choices[:-1]))} or {choices[-1]}: which should I use?"
    if kind == "schedule" and set(param.lower().split("_")) & WHEN_WORDS:
        return when_asked(task, clause)
    return ASKS.get(kind) if param in ("task", "job", "title", "text", "content", "query", "what", "item", "note", "label", "message", "description") and kind in ASKS else \
        f"What should I use as the {param.replace('_', ' ')}?"


def cannot(things: list[str]) -> str:
    """"I can't plan a trip." for a request, 'I can't answer "is it far?".' for a question, and a statement it has
    no rule for is said to be one; a bare "oh" or "also" is left out, and a secret is never repeated."""
    parts = [t for t in map(fragment, things) if t]
    return " ".join(f'I have no rule for "{t}".' if re.search(r"\b(?:i|we|my|our)\b|^\W*the [a-z]+ (?:is|are|was|were|has|have|had)\b", t, re.I)
                    else f'I can\'t answer "{t}".' if re.match(QUESTION_START, t, re.I)
                    else f"I can't {lowered(to_me(t))}." if requested(t)
                    else f'I have no rule for "{t}".' for t in parts)


STATED = r"^\W*(?:[\w$£€%.,'-]+ ){1,4}?(?:is|are|was|were|has|have|had|costs?|came to)\b|\b(?:it|that|this|there)(?:'s| is| was)\b"


def requested(text: str) -> bool:
    """A clause asks for something done unless it states something: "jacket was 120 bucks" or "flat 3 has 4 tenants"
    (a subject, then is/was/has) is a statement, so 'I have no rule for it', never "I can't jacket was 120 bucks."
    A clause opening with a verb the user asks for ("explain why it is so") stays a request."""
    first = re.sub(r"^(?:please|can you|could you|would you|will you)\s+", "", text.strip(), flags=re.I).split(" ")[0].lower()
    return first in REQUEST_VERBS or not re.search(STATED, text, re.I)


REQUEST_VERBS = set("""explain tell write plan book buy order translate summarise summarize research look find search check
    make give show call send open play set draw sing compose predict guess recommend suggest describe list fix build
    help teach read watch drive fly get bring fetch pay email text message""".split())


def to_me(text: str) -> str:
    """The user's "your steps" said back from the model's side: "explain my steps"."""
    return re.sub(r"\byour(self)?\b", lambda m: "myself" if m.group(1) else "my", text, flags=re.I)


FILLER = r"(?:also|and|oh|hey|hi|so|plus|then|but|ok|okay|well|btw|by the way|anyway|now)"
QUESTION_START = r"(?:is|are|was|were|do|does|did|can|could|will|would|have|has|what|which|who|whom|where|when|why|how)\b"
SECRET = r"\b(?:password|passcode|passphrase|pin|code|key|token|secret|credentials?)s?\b"


def fragment(text: str) -> str:
    """The part declined, in the user's own words, without fillers around it ("also is there X" -> "is there X"), and
    with a secret's value cut out ("the admin password 'hunter2'" -> "the admin password")."""
    text = re.sub(rf"^(?:\W*\b{FILLER}\b[\s,]*)+|\s*[.!?,;]+$", "", text.strip(), flags=re.I)
    if re.search(SECRET, text, re.I):
        text = re.sub(r"\s*[\"'‘“][^\"'’”]+[\"'’”]|\s*\b(?=\S*\d)(?=\S*[A-Za-z])\S{6,}", "", text).strip()
    return text


def lowered(text: str) -> str:
    text = re.sub(r"^(?:please|can you|could you|would you|will you)\s+", "", text.strip(), flags=re.I)
    return text[:1].lower() + text[1:] if text[:2] != text[:2].upper() else text


def unsure(words: str) -> str:
    """Why a sum is not given: part of it could not be read."""
    return (f"I can't work that out: I couldn't read \"{words.strip().rstrip('.!?')}\" as an amount, and an answer without it "
            "would be wrong. Could you say it with the numbers, one step at a time?")


def fallback(text: str, tools=()) -> str:
    if not text.strip(" .!?"):
        return f"I didn't catch a request there. {can(tools)}"
    return (f"I'm the teaching model, a rule-based stand-in, and I have no rule for "
            f"\"{text.strip().rstrip('.!?')[:80]}\". {can(tools)}")


def reported(words: str) -> str:
    """Someone else's request, quoted back and not acted on."""
    return (f'Those are someone else\'s words ("{fragment(words)}"), not a request or a fact of yours, so I have done nothing '
            "with them. If you want something done, ask me directly.")


def what_was_asked(who: str, words: str) -> str:
    """Rule 290: what someone else asked, said back about them ("Your friend asked you to add 5 and 9."), not done."""
    who = re.sub(r"\b(?i:my|our)\b", "your", who.strip())
    who = re.sub(r"\s+(?:keeps|kept|always|just|also|once|has|had|then)$", "", who)
    who = who[:1].upper() + who[1:]
    asked = words[3:] if words.lower().startswith("to ") else words
    asked = re.sub(r"^\W*(?:(?:please|pls|can you|could you|would you|will you)\s+)*", "", asked, flags=re.I).rstrip(" .!?")
    if re.search(r"\b(?:I|me|my|mine|I'm|I've|I'd|we|us|our)\b", asked):  # "remember I hate olives": their I, said as theirs
        return f"{who} asked you: \"{asked}\". I haven't done it; ask me if you want me to."
    return f"{who} asked you to {asked}. I haven't done it; ask me if you want me to."
