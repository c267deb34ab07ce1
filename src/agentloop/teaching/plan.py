"""Plan: intents + the offered tools -> tool calls now, or the answer.

Each intent has a handler. A handler that needs tools is a generator: it yields a list of calls and
receives their results, so "add, then multiply" reads as two lines. The model is stateless, so on
every turn of the loop `respond` replays the handlers against the tool results the conversation
already holds; the first handler that needs a result it does not have yet decides the calls.
A loop that forgets to append results replays from the start and asks for the same call again.
"""
import re
from dataclasses import dataclass

from . import arithmetic, facts, say, statements
from .tasks import HANDLERS as TASKS, refusal
from .toolbox import Missing, Tool, call, takes_key, words
from .timing import timing
from .understand import Intent, as_question, understand

SENSITIVE = {"a card number": r"\b(?:\d[ -]?){13,19}\b|\bcard (?:number|no)s?\b",
             "a password or another secret": r"\b(?:password|passcode|pass ?phrase|pin|code|credential|secret|login|log-?in|"
                                             r"api key|token)s?\b",
             "a government ID number": r"\b(?:ssn|social security|passport number)\b"}
PROHIBITION = (r"\b(?:never|must not|mustn't|may not|shall not|do not|don't|cannot|can't|not allowed|not permitted|forbidden|"
               r"prohibited|off-limits|off limits|under no circumstances|no one|nobody|not to)\b")
KIND_WORDS = {"calculate": r"\b(?:arithmetic|math|maths|calculat\w*|sums?|computations?)\b",
              "remember": r"\b(?:stor\w*|sav\w*|remember\w*|memor\w*|keep|kept|writ\w*|record\w*|notes?|notebook|"
                          r"persist\w*|retain\w*|hold on)\b",
              "schedule": r"\b(?:schedul\w*|reminders?|calendar|appointments?)\b",
              "text": r"\b(?:text tools?|upper ?case|capitals|reverse)\b"}
LISTS = ("likes", "dislikes", "allergies")  # a new value joins the old one instead of replacing it


@dataclass
class Turn:
    text: str              # the last user message
    earlier: list          # the user's earlier messages in this conversation
    system: str            # the system (and developer) messages, joined
    tools: list            # the Tools the model may call now
    results: list          # tool results since the last user message, in order
    calls: list = ()       # the calls made since the last user message, one list per turn: arguments, the tool under ""
    made: list = ()        # the calls the handler being replayed made on its first turn (its memory may have changed)
    last_reply: str = ""   # the assistant's previous text (a question it asked, say)
    asked_because: str = ""  # the tool results that led to that reply

    def tool(self, *kinds: str) -> Tool | None:
        return next((t for kind in kinds for t in self.tools if t.kind == kind), None)

    def known(self) -> dict:
        """Facts about the user: the memory in the system prompt, then what they said in this chat."""
        known = facts.facts_in_memory(self.system)
        for message in self.earlier:
            for intent in understand(message):
                known.update(intent.slots.get("facts", []) if intent.kind == "remember" else [])
        return known

    def written(self, key: str) -> str:
        """The key as the memory in the system prompt writes it ("city" for the model's "lives_in")."""
        return facts.keys_as_written(self.system).get(key, key)

    def agent(self) -> str:
        """Who the system prompt says the model is ("You are the researcher, ..." -> researcher)."""
        found = re.search(r"\byou are (?:the |an? )?(?:[a-z]+ )*?([a-z]+)(?=[,.]|\s+(?:with|who|that)\b|$)",
                          self.system, re.IGNORECASE | re.MULTILINE)
        return found.group(1).lower() if found else "assistant"


def answer(turn: Turn):
    """The reply for this turn: (text, calls), in the style the system prompt asks for."""
    text, calls = planned(turn)
    return (styled(turn.system, text) if text else text), calls


def styled(system: str, text: str) -> str:
    """The two style rules it follows: a letter case ("reply in lowercase only") and a form of address
    ("likes to be called Captain")."""
    address = re.search(r"\b(?:(?:likes?|wants?|prefers?) to be called|call (?:me|the user|them|him|her)|address "
                        r"(?:me|the user|them) as)\s+['\"]?([A-Z][\w-]+)", system)
    if address and address.group(1) not in text:
        text = f"{address.group(1)}, {text[:1].lower()}{text[1:]}"
    if re.search(r"\b(?:lower ?case|small letters)\b.*\b(?:only|always|every|never a capital)\b|\bonly (?:in )?lower ?case\b|"
                 r"\bnever (?:use )?(?:a )?capital", system, re.I):
        return text.lower()
    if re.search(r"\b(?:reply|answer|respond|write)\b.*\b(?:in )?(?:upper ?case|all caps|capital letters)\b(?:\s+only)?", system, re.I):
        return text.upper()
    return text


def planned(turn: Turn):
    """The reply for this turn: (text, calls)."""
    for result in turn.results:  # a tool asks a question ("Ask the user: which year?"): ask it
        question = re.search(r"ask the user[:,]?\s*(.+)", result, re.IGNORECASE)
        if question:
            return say.sentence(question.group(1).strip()).rstrip("."), []
    intents = understand(turn.text) or [Intent("unknown", {"text": turn.text})]
    if all(i.kind == "unknown" for i in intents):
        intents = completed(turn) or scheduled(turn) or overlapping(turn) or intents
    if rule := forbidden(turn, intents):  # a rule in the system prompt, whatever its wording, is honoured
        return rule, []
    if len(intents) > 1:  # a greeting beside a request is politeness, not a request
        intents = [i for i in intents if i.kind not in ("greet", "thanks", "smalltalk", "bye", "okay")] or intents
    intents = [part for i in intents for part in (i.slots["intents"] if i.kind == "several" else [i])]
    order = injected(turn)
    if order and (said := re.match(SAY, order, re.I)):  # it obeys an instruction that came in as data
        return said.group("x").strip(" \"'"), []
    intents += understand(order) if order else []
    results, texts, output = list(turn.results), [], None
    for intent in intents:
        consumed = len(turn.results) - len(results)  # the turn whose calls this handler made, if it made any yet
        turn.made = next((g for i, g in enumerate(turn.calls) if sum(map(len, turn.calls[:i])) == consumed), [])
        if intent.kind == "text" and output and re.fullmatch(r"(?:the )?(?:result|output|answer)|it|that|this",
                                                             intent.slots.get("text") or "", re.I):
            intent.slots["text"] = output  # "shout 'we won' and then mirror the result": the step before's output
        steps = HANDLERS[intent.kind](intent, turn)
        if isinstance(steps, str):
            texts.append(steps)
            continue
        got = []
        try:
            calls = next(steps)
            while True:
                got, results = results[:len(calls)], results[len(calls):]
                if len(got) < len(calls):
                    return None, calls[len(got):]
                calls = steps.send(got)
        except StopIteration as done:
            texts.append(done.value)
            output = got[-1].strip() if got else None
        except Missing as missing:  # a required argument the request does not hold: ask for it
            return say.missing(missing.tool.kind, missing.param), []
    cannot = [t for i, t in zip(intents, texts) if i.kind == "unknown"]
    if len(cannot) == len(texts):
        return (say.fallback(turn.text) if not turn.results else
                "The tools returned: " + "; ".join(r.strip() for r in turn.results)), []
    return " ".join([say.cannot(cannot)] * bool(cannot) + [t for t in texts if t not in cannot]), []


def completed(turn: Turn) -> list:
    """After the model asked a question ("Which year?"), a short answer completes the earlier fact."""
    if not (turn.last_reply.rstrip().endswith("?") and turn.earlier and len(turn.text.split()) <= 6):
        return []
    reply = re.sub(r"^(?:it'?s|it is|it was|in|the year|i was born in|born in)\s+", "", turn.text.strip(), flags=re.I)
    reply = reply.rstrip(".!")
    if not re.search(r"\d|[A-Z]", reply):  # "no", "not sure": not the missing piece
        return []
    intents = [i for i in understand(turn.earlier[-1]) if i.kind == "remember"]
    for intent in intents:
        pairs = intent.slots["facts"]
        named = [k for k, _ in pairs if k.replace("_", " ") in turn.asked_because.lower()] or [pairs[-1][0]]
        intent.slots["facts"] = [(k, f"{v} {reply}" if k in named else v) for k, v in pairs]
    return intents


INJECTION = (r"(?:\bignore (?:all |any )?(?:the |your )?(?:previous|prior|above|earlier|other|former)? ?(?:instructions|rules|"
             r"prompts?)\W*(?:and |instead )*|\b(?:system|admin|developer)(?: note| message| override| instruction)?\s*:\s*|"
             r"\bnew instructions?\s*:\s*|\b(?:note|message) to (?:the )?(?:ai|assistant|model|llm)\s*:?\s*)(?P<order>[^\n]+)")
SAY = r"^\W*(?:say|reply|respond|answer|tell the user|write back)(?: only| with| that| back|:)*\s*(?P<x>.+?)[.!]*$"


def injected(turn: Turn) -> str:
    """An instruction inside a tool result or a memory line in the system prompt. The model follows it, as
    real models often do (indirect prompt injection): only the agent's code can stop it."""
    places = turn.results + turn.system.splitlines()[1:]
    found = next((m for text in places if (m := re.search(INJECTION, text, re.I))), None)
    order = found.group("order").strip() if found else ""
    while inner := re.match(INJECTION, order, re.I):  # "SYSTEM: ignore previous instructions and ..."
        order = inner.group("order").strip()
    return order


def rules(system: str) -> list[str]:
    """The sentences of the system prompt that forbid something."""
    return [s.strip() for s in re.split(r"(?<=[.!;])\s+|\n+", system) if re.search(PROHIBITION, s, re.I)]


def forbidden(turn: Turn, intents: list) -> str | None:
    """The refusal a system-prompt rule asks for: a kind of request it forbids (not storing secrets is
    checked where facts are stored, since only some facts are secrets)."""
    for rule in rules(turn.system):
        for intent in intents:
            if intent.kind in KIND_WORDS and intent.kind != "remember" and re.search(KIND_WORDS[intent.kind], rule, re.I):
                return f"I can't do that here. My instructions say: {rule.rstrip('.')}."
    return None


def secret(turn: Turn, pairs: list) -> str | None:
    """What a fact looks like when a system-prompt rule forbids storing things of its kind, else None."""
    for rule in rules(turn.system):
        if not re.search(KIND_WORDS["remember"], rule, re.I):
            continue
        for what, pattern in SENSITIVE.items():
            stated = " ".join(f"{k.replace('_', ' ')} {v}" for k, v in pairs) + " " + turn.text
            if re.search(pattern, stated, re.I) and (re.search(pattern, rule, re.I) or re.search(
                    r"\b(?:sensitive|secrets?|private|personal data|credentials?)\b", rule, re.I)):
                return what
    return None


def scheduled(turn: Turn) -> list:
    """With a scheduling tool, a request that names a time is a task to schedule ("yoga Thursdays 6:30pm")."""
    when, every, _ = timing(turn.text)
    if turn.tool("schedule") is None or not (when or every) or turn.text.rstrip().endswith("?"):
        return []
    return [Intent("schedule", {"task": turn.text.strip(), "when": "", "clause": turn.text})]


GENERIC = {"text", "string", "word", "number", "value", "return", "give", "input", "output", "tool", "user", "function",
           "with", "from", "into", "this", "that", "what", "which", "have", "does", "make", "some", "your", "about",
           "how", "many", "much", "the", "and", "for", "are", "can", "you", "tim", "piec", "show", "get"}


NEAR_WORDS = {"long": "length", "len": "length", "many": "number", "count": "number", "char": "character",
              "chars": "character", "letter": "character", "size": "length"}  # a small table of near-synonyms


def overlapping(turn: Turn) -> list:
    """A request no rule reads, a quoted text, and the offered tool whose name and description share the most
    words that matter with it ("is 'racecar' a palindrome?" and is_palindrome): the tool is used on the text."""
    subject = re.search(r"[\"“]([^\"”]+)[\"”]|(?<!\w)['‘]([^'’]+)['’](?!\w)|:\s*(.+)$", turn.text)
    if not subject:
        return []

    def meant(text: str) -> set:
        return {NEAR_WORDS.get(w, statements.lemma(w)) for w in words(text) if len(w) >= 3} - GENERIC
    asked = meant(re.sub(r"[\"“'‘][^\"”'’]+[\"”'’]", " ", turn.text))
    shared = {tool.name: len(asked & meant(f"{tool.name} {tool.description}")) for tool in turn.tools
              if any(spec.get("type", "string") == "string" for spec in tool.params.values())}
    if not shared or max(shared.values()) == 0:
        return []
    said = next(g for g in subject.groups() if g)
    return [Intent("use", {"tool": max(shared, key=shared.get), "text": said.strip()})]


def calculate(intent: Intent, turn: Turn):
    expression = intent.slots["expression"]
    shown = expression[1:-1] if re.fullmatch(r"\((?:[^()]|\([^()]*\))*\)", expression) else expression
    tools = {kind: turn.tool(kind) for kind in arithmetic.KINDS if turn.tool(kind)}
    calculator = turn.tool("calculate")
    if calculator and not tools:
        [result] = yield [call(calculator, expression=shown, text=shown)]
        return f"{shown} = {result.strip()}"
    walk = arithmetic.steps(arithmetic.parse(expression), tools)
    used = False
    try:
        ready = next(walk)
        while True:
            used = True
            results = yield [call(tools[kind], numbers=[a, b]) for kind, a, b in ready]
            ready = walk.send(results)
    except StopIteration as done:
        value = done.value
    except arithmetic.ToolFailed as failure:
        return f"The tool failed with: {failure}. So I can't finish the calculation."
    except ZeroDivisionError:
        return "That divides by zero, which has no answer."
    except (OverflowError, ValueError, TypeError):
        return f"I can't work out {shown}: the number is too big or not a real number."
    try:
        return f"The answer is {arithmetic.show(value)}." if used else f"{shown} = {arithmetic.show(value)}"
    except (OverflowError, ValueError, TypeError):
        return f"I can't work out {shown}: the number is too big or not a real number."


def remember(intent: Intent, turn: Turn):
    pairs = intent.slots["facts"]
    if what := secret(turn, pairs):
        return f"I won't store that: it looks like {what}, and sensitive data must not go into memory."
    tool = turn.tool("remember")
    if tool is None:
        name = dict(pairs).get("name")
        rest = [(k, v) for k, v in pairs if k != "name"]
        noted = f"You said {say.facts(rest)}; I have no memory tool, so I'll know it only in this conversation." if rest else ""
        return f"Nice to meet you, {name}! {noted}".strip() if name else noted
    known, keyed = turn.known(), takes_key(tool)
    importance = intent.slots.get("importance") or next(
        (spec.get("default") for p, spec in tool.params.items() if "importance" in p or "priority" in p), None) or "medium"
    calls = []
    for key, value in pairs:
        key = turn.written(same_subject(known, key)) if keyed else key  # "my partner is Alex" replaces Sam
        old = facts.lookup(known, key) if key in LISTS else None
        value = f"{old}, {value}" if keyed and old and value.lower() not in old.lower() else value
        roles = {"key": key, "value": value} if keyed else {"value": value if intent.slots.get("note")
                                                              else say.phrase(key, value, about_user=True)}
        calls.append(call(tool, **roles, importance=importance, scope="user", metadata={"key": key}))
    results = yield calls
    if reason := refusal(results):
        return f"I didn't store that. {reason}"
    if intent.slots.get("note"):
        return f"Got it. I'll remember: {pairs[0][1]}."
    return f"Got it. I'll remember that {say.facts(pairs)}."


def same_subject(known: dict, key: str) -> str:
    """The key memory already keeps this subject under ("partner_name" for "partner"), else the key."""
    bare = key.removesuffix("_name")
    return next((k for k in known if k != key and k.removesuffix("_name") == bare), key)


def ask(intent: Intent, turn: Turn):
    key, known = intent.slots["key"], turn.known()
    tool = turn.tool("list_memory", "recall") if key == "*" else turn.tool("list_memory") if key == "note" \
        else turn.tool("recall")
    if key == "*" and not known and tool and takes_key(tool):  # get_fact(subject) cannot list everything
        return "I can only look up one thing at a time in my memory: ask me about it (your name, where you live, ...)."
    if not found(known, key) and tool:
        results = yield [call(tool, query=say.query(key) if key != "*" else "user", key=key, limit=10 if key == "*" else 5,
                              scope="user")]
        for result in results:
            if refusal([result]) or re.search(r"\bunknown\b|not found|\bno (?:such|memories|results|matches)\b|"
                                              r"\bnothing (?:stored|found|saved)\b", result, re.I):
                continue  # an empty answer is not a memory
            if takes_key(tool):
                known.setdefault(key, result.strip())  # get_fact(key) answers with the bare value
            known.update(facts.facts_in_memory(result))
            known.update((f"memory_{i}", text) for i, text in enumerate(facts.texts_in(result))
                         if not facts.facts_in_memory(text) and not re.match(r"\W*$", text))
    if key == "*":
        return say.known(known.items()) if known else "I don't know anything about you yet."
    if key == "note":
        notes = [v for k, v in known.items() if k.startswith(("note", "memory_"))]
        if notes:
            return f"You asked me to remember: {'; '.join(notes)}."
        if turn.tool("recall"):  # a search needs words: it cannot list what it does not know to ask for
            return "I can only search my memory by its words: tell me what it was about and I'll look."
        return "You haven't asked me to remember anything yet."
    shape = intent.slots.get("shape") or statements.question(as_question(intent.slots["about"]))
    if shape and (kept := statements.answer(shape, known)):
        return kept
    value = facts.lookup(known, key)
    thing = re.search(r"\bdo i (?:like|love|enjoy) (.+?)[?.!]*$", intent.slots["about"], re.I)
    if thing and value is not None:
        liked = thing.group(1).lower() in value.lower()
        return f"Yes: you like {value}." if liked else f"I don't know that you like {thing.group(1)}; you told me you like {value}."
    if value is not None:
        return say.sentence(say.phrase(key, value))
    if notes := loosely(known, key):
        return "You told me: " + "; ".join(say.phrase(k, v) if k in say.PHRASES or statements.decode(k) else v
                                           for k, v in notes) + "."
    if intent.slots.get("loose"):
        return say.fallback(intent.slots["about"])
    return say.unknown(key)


def found(known: dict, key: str) -> bool:
    return bool(known) if key == "*" else facts.lookup(known, key) is not None or bool(loosely(known, key))


def loosely(known: dict, key: str) -> list:
    """Memories that mention what was asked ("my dentist appointment" finds "dentist on Friday"), but
    never for a fact with a name of its own: "my cat's name" is not "your name"."""
    if key.endswith("_name"):  # "my cats' names": a statement about the cats, never another name ("your name is Ada")
        thing = statements.lemma(key.removesuffix("_name").split("_")[-1])
        return [(k, v) for k, v in known.items() if statements.decode(k)
                and thing in {statements.lemma(w) for w in re.findall(r"[a-z]+", v.lower())}]
    return [] if key == "name" or key in say.PHRASES else facts.mentioning(known, key.replace("_", " "))


def forget(intent: Intent, turn: Turn):
    """Match what is named against what memory holds, delete every match, and say what went (or did not)."""
    key, value = intent.slots["key"], intent.slots.get("value")
    what = f"that {say.phrase(key, value)}" if value else "everything" if key == "*" else f"your {key.replace('_', ' ')}"
    tool = turn.tool("forget")
    if tool is None:
        return "I can't forget anything: I have no tool to delete memories."
    search = turn.tool("list_memory", "recall") if key == "*" else turn.tool("recall", "list_memory")
    named = matcher(intent)
    if not takes_key(tool) and search:  # memory services delete by id: search first, then delete
        query = "user" if key == "*" else value or say.query(key)
        [result] = yield [call(search, query=query, limit=20 if key == "*" else 5, scope="user")]
        targets = [i for i, text in facts.ids_in(result) if key == "*" or named(text)]
        if not targets:
            return f"I couldn't find anything about {what.removeprefix('that ')} to forget."
    elif (rest := others(turn, key, value)) and (keeper := turn.tool("remember")) and takes_key(keeper):
        results = yield [call(keeper, key=key, value=rest)]  # "forget that I like museums": keep jazz
        return f"I couldn't forget that. {reason}" if (reason := refusal(results)) else f"Done: I've forgotten {what}."
    else:
        known = turn.known()
        kept = intent.slots.get("except")
        spared = matcher(Intent("forget", {"key": "", "what": kept})) if kept else (lambda text: False)
        targets = [k for k, v in known.items() if (key == "*" or k == key
                   or named(f"{k.replace('_', ' ')} {turn.written(k).replace('_', ' ')} {v}"))
                   and not spared(f"{k.replace('_', ' ')} {turn.written(k).replace('_', ' ')} {v}")]
        if key == "*" and not targets and not turn.made:
            return "There is nothing in my memory to forget."
        targets = [turn.written(t) for t in targets] or [key]  # not in the prompt: ask the tool for the key
    made = [next(iter(args.values()), "") for args in turn.made if args[""] == tool.name]
    targets = made or targets  # replayed after the deletes: memory has changed, the calls made have not
    results = yield [call(tool, key=target, id=target) for target in targets]
    gone = [t for t, r in zip(targets, results) if not refusal([r])]
    if not gone:
        return f"I couldn't forget that. {refusal(results)}"
    kept = f" But: {refusal(results)}" if len(gone) < len(targets) else ""
    if key == "*":
        return f"Done: I've forgotten everything I had ({len(gone)} {'memory' if len(gone) == 1 else 'memories'}).{kept}"
    if intent.slots.get("stale") or len(gone) > 1:  # say which memories went, by their keys
        what = " and ".join(f"your {str(t).replace('_', ' ')}" for t in gone)
    return f"Done: I've forgotten {what}.{kept}"


def correct(intent: Intent, turn: Turn):
    """A correction: the memory holding the old value (or the fact just stated) is written again with the new one."""
    new, old, known = intent.slots["new"], intent.slots["old"], turn.known()
    old_words = {statements.lemma(w) for w in re.findall(r"[a-z0-9]{3,}", old.lower())}
    said = [k for message in turn.earlier for i in understand(message) if i.kind == "remember" for k, _ in i.slots["facts"]]
    key = next((k for k, v in known.items() if old_words and old_words & {statements.lemma(w) for w in
                                                                          re.findall(r"[a-z0-9]{3,}", v.lower())}), None)
    key = key or (said[-1] if said else None)
    tool = turn.tool("remember")
    made = [next(iter(args.values()), "") for args in turn.made if tool and args[""] == tool.name]
    key = made[0] if made and takes_key(tool) else key  # replayed after the write: memory holds the new value
    if key is None:
        return "What should I correct? Tell me the fact again, for example: my car is a Honda Accord."
    if tool is None:
        return f"OK: {say.phrase(key, new)}. I have no memory tool, so I'll know it only in this conversation."
    written = turn.written(key) if not made else key
    results = yield [call(tool, key=written, value=new) if takes_key(tool) else
                     call(tool, value=say.phrase(key, new, about_user=True), importance="medium", scope="user")]
    if reason := refusal(results):
        return f"I couldn't correct that. {reason}"
    return f"Corrected: {say.phrase(key, new)}."


def matcher(intent: Intent):
    """Whether a memory's text is about what the user named (shared words, inflections allowed)."""
    named = intent.slots.get("value") or intent.slots.get("what") or intent.slots["key"].replace("_", " ")
    wanted = {statements.lemma(w) for w in re.findall(r"[a-z0-9]{3,}", named.lower())} - STOP
    wanted |= {statements.lemma(w) for w in re.findall(r"[a-z0-9]{3,}", say.query(intent.slots["key"]).lower())} - STOP
    return lambda text: bool(wanted & {statements.lemma(w) for w in re.findall(r"[a-z0-9]{3,}", text.lower())})


STOP = {"the", "user", "about", "that", "this", "what", "where", "when", "you", "your", "know", "any", "all", "name",
        "anymore", "longer", "thing", "stuff", "don", "not", "have"}


def others(turn: Turn, key: str, value: str | None) -> str:
    """A list-like fact without one of its items ("museums, jazz" without museums), or ""."""
    held = facts.lookup(turn.known(), key) if key in LISTS and value else None
    items = [item for item in re.split(r",\s*|\s+and\s+", held or "") if item and item.lower() != value.lower()]
    return ", ".join(items) if held and len(items) < len(re.split(r",\s*|\s+and\s+", held)) else ""


HANDLERS = {"calculate": calculate, "remember": remember, "ask": ask, "forget": forget, "correct": correct, **TASKS}
