"""Plan: intents + the offered tools -> tool calls now, or the answer.

Each intent has a handler. A handler that needs tools is a generator: it yields a list of calls and
receives their results, so "add, then multiply" reads as two lines. The model is stateless, so on
every turn of the loop `respond` replays the handlers against the tool results the conversation
already holds; the first handler that needs a result it does not have yet decides the calls.
A loop that forgets to append results replays from the start and asks for the same call again.
"""
import re
from dataclasses import dataclass, replace
from functools import cached_property

from . import arithmetic, facts, say, statements
from .entries import called_off, moved_instead
from .pointed import pointed_request, terse_timer
from .remembering import HANDLERS as MEMORY, keys_listed
from .rules import SAY, forbidden, instead, kept_back, injected, styled, undisclosed, unsaid, withheld
from .tasks import BY_HAND, HANDLERS as TASKS, by_hand, checking, converting, fetching, looking_up, opening, orders_cut, refusal
from .grammar import PEOPLE
from .toolbox import KEYWORDS, Missing, Tool, call, stem, type_of, words
from .followup import leaning, points_back
from .lookups import looked_up, read_asked, read_by_tool, record_lookup
from .text_tools import class_counted, count_occurrences, described_request, occurrences_counted, replace_text, replacing, said_otherwise, sliced_request
from .timing import timing
from .understand import NOT_TO_SCHEDULE, Intent, corrected_request, taken_back, understand, withdrawn
from .text_tools import without_sentence_end  # rule 224



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
    withheld: list = ()    # the Tools offered that a system-prompt rule takes away ("purge_all is for staff only")
    exchanges: list = ()   # each earlier user message with the tool results that followed it, read only when needed
    replies: list = ()     # the assistant's earlier texts, oldest first (a sum's answer a follow-up leans on)

    def tool(self, *kinds: str) -> Tool | None:
        return next((t for kind in kinds for t in self.tools if t.kind == kind), None)

    @cached_property
    def refused(self) -> list:
        """The earlier user messages whose facts a tool refused to store ("Not stored: ...")."""
        return [said for said, results in self.exchanges if refusal(results)]

    def known(self) -> dict:
        """Facts about the user: the memory in the system prompt, then what they said in this chat."""
        listed = set(keys_listed(self.system))  # "keys saved: diet, name" says where facts are, not one of them
        known = {k: v for k, v in facts.facts_in_memory(undisclosed(self.system)).items()
                 if not re.match(r"keys?(?:_|$)", k) and not (listed and set(re.split(r"\s*,\s*", v)) <= listed)}
        said = {}  # what the user said in this chat: a fact a tool refused to keep, or one asked to be forgotten since, is not known
        for message in self.earlier:
            for intent in understand(message) if message not in self.refused else ():
                said.update(intent.slots.get("facts", []) if intent.kind == "remember" else [])
                if intent.kind == "forget":
                    said.pop(intent.slots.get("key"), None)
        return known | said

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
    if text and not calls and (question := asked_back(turn.results)) and question not in text:
        text = f"{text} {question}"  # "Saved. Should I remind you a week before?": asked on, as a model would (rule 365)
    return (styled(turn.system, unsaid(turn.system, kept_back(turn, orders_cut(turn, withheld(turn.system, text))))) if text else text), calls


OFFER = r"(?:should|shall|can|may) i|(?:would|do|did) you(?: (?:like|want|prefer|need))?|want me to|how about"


def asked_back(results: list) -> str:
    """Rule 365: the question a short tool result ends with for the user ("Added. Would you like a reminder?"), or "".
    A long result is data (a page's "Do you want our newsletter?" is never asked)."""
    result = results[-1].strip() if results else ""
    sentences = re.findall(r"[^.!?]+[.!?]*", result)
    # the question begins a sentence, or a capital begins it right after the result's own words ("Saved Should I ...?")
    asked = re.search(rf"(?:^|[.!?:;,]\s*|\s(?=[A-Z]))((?i:{OFFER})\b[^.!?]*\?)$", result)
    return asked.group(1)[0].upper() + asked.group(1)[1:] if asked and asked.start(1) > 0 and len(sentences) <= 3 else ""


def planned(turn: Turn):
    """The reply for this turn: (text, calls)."""
    if withdrawn(turn.text):  # "Add dinner on Thursday, actually, let's not": nothing is done (rule 255)
        return "OK, I won't: I've done nothing with that request.", []
    if (fixed := corrected_request(turn.text)) is not None:  # "Book the dentist for 3pm, scratch that, 4pm": every rule reads the fix
        turn = replace(turn, text=fixed)
    for result in turn.results:  # a tool asks a question ("Ask the user: which year?"): ask it
        question = re.search(r"ask the user[:,]?\s*(.+)", result, re.IGNORECASE)
        if question:
            return say.sentence(question.group(1).strip()).rstrip("."), []
    intents = turn.earlier and taken_back(turn.text, turn.earlier[-1]) or fetching(turn) or sliced_request(turn) or occurrences_counted(turn) or opening(turn) or checking(turn) or record_lookup(turn) or looking_up(turn) or read_asked(turn) or converting(turn) or replacing(turn) or class_counted(turn) or described_request(turn) or understand(arithmetic.with_the_start(turn.text, turn.earlier)) or [Intent("unknown", {"text": turn.text})]  # a URL, a yes/no check
    if all(i.kind == "unknown" or i.slots.get("loose") for i in intents) and (meant := resolved(turn)) != turn.text:
        intents = understand(meant) or intents  # "and what does he do?": he is the husband named before
    if (all(i.kind == "unknown" or i.slots.get("loose") for i in intents) or points_back(turn.text)) and (leaned := leaning(turn)) is not None:  # "now times 3": the answer before
        if isinstance(leaned, str):
            return leaned, []
        intents = leaned
    intents = called_off(turn, intents) or moved_instead(turn, intents) or intents  # "stop the gym thing": a cancel, never a new entry
    intents = turn.tool("schedule") and not any(i.kind == "hypothetical" for i in intents) and (  # a what-if asks nothing (rule 257)
        pointed_request(turn.text) or terse_timer(turn.text)) or intents  # "in 2 hours I need to X, remind me"
    if all(i.kind == "unknown" for i in intents):
        intents = completed(turn) or scheduled(turn) or overlapping(turn) or intents
    elif all(i.kind == "ask" and i.slots.get("loose") for i in intents) and re.search(QUOTED_TEXT, turn.text):
        intents = overlapping(turn) or intents  # "Which is the longest word in 'a tiny elephant'?": a question of a text, not of memory
    if rule := forbidden(turn, intents):  # a rule in the system prompt, whatever its wording, is honoured
        return rule, []
    if question := nothing_named(turn.text):  # "put something on my calendar for thursday": what? (rule 390)
        return question, []
    if kept := next((t for t in turn.withheld for i in intents if t.kind == i.kind and not turn.tool(i.kind)), None):
        return f"I can't do that here: my instructions keep {kept.name} from being used for you." + instead(kept, turn.system), []
    if len(intents) > 1:  # a greeting beside a request is politeness, not a request
        intents = [i for i in intents if i.kind not in ("greet", "thanks", "smalltalk", "bye", "okay")] or intents
    intents = [part for i in intents for part in (i.slots["intents"] if i.kind == "several" else [i])]
    if unread := unread_amount(intents):
        return say.unsure(unread), []
    order = injected(turn, asked=any(i.kind != "unknown" for i in intents))
    if order and (said := re.match(SAY, order, re.I)) and not answered_from_data(intents):  # it obeys an instruction that came in as data
        return said.group("x").strip(" \"'"), []
    intents += [i for i in understand(order) if i.kind != "unknown" and turn.tool(i.kind)] if order else []  # never declined aloud: the user didn't ask (rule 173: nor one no tool can do)
    results, texts, output = list(turn.results), [], None
    for intent in intents:
        consumed = len(turn.results) - len(results)  # the turn whose calls this handler made, if it made any yet
        turn.made = next((g for i, g in enumerate(turn.calls) if sum(map(len, turn.calls[:i])) == consumed), [])
        if intent.kind == "text" and output and re.fullmatch(r"(?:(?:the )?(?:result|output|answer)|it|that|this)(?: (?:too|also|as well|again|please))*",
                                                             intent.slots.get("text") or "", re.I):
            intent.slots["text"] = output  # "shout 'we won' and then mirror the result": the step before's output
            if re.fullmatch(r"-?\d+(?:\.\d+)?", output) and (before := next((i.slots.get("text") for i in reversed(
                    intents[:intents.index(intent)]) if i.kind == "text" and i.slots.get("text")), None)):
                intent.slots["text"] = before  # "count the words in 'X' and the b's in it": X, never the count (rule 367)
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
                    return None, [unpunctuated(made, turn.text) for made in calls[len(got):]]
                calls = steps.send(got)
        except StopIteration as done:
            texts.append(done.value)
            output = got[-1].strip() if got else by_hand(intent)
        except arithmetic.ToolFailed as failure:  # a number read from a tool that failed: the error is the result to say
            texts.append(f"The tool failed with: {str(failure).rstrip('.')}. So I can't finish the calculation.")
            output = ""
        except Missing as missing:  # a required argument the request does not hold: ask for it
            spec = missing.tool.params.get(missing.param)
            choices = spec.get("enum") if isinstance(spec, dict) and isinstance(spec.get("enum"), list) else None
            return say.missing(missing.tool.kind, missing.param, choices, missing.task or intent.slots.get("task") or "", intent.slots.get("clause") or ""), []
    cannot = [t for i, t in zip(intents, texts) if i.kind == "unknown"]
    if any(i.kind == "calculate" for i in intents):  # "How big is each?" beside the sum that answers it is that sum's question
        texts = [t for t in texts if t not in cannot or not re.match(AMOUNT_ASKED, t, re.I)]
        cannot = [t for t in cannot if t in texts]
    if len(cannot) == len(texts):
        return (say.fallback(turn.text, turn.tools) if not turn.results else
                "The tools returned: " + "; ".join(r.strip() for r in turn.results)), []
    return " ".join([say.cannot(cannot)] * bool(say.cannot(cannot)) + [t for t in texts if t not in cannot]), []


def unpunctuated(made: tuple, said: str) -> tuple:
    """A call whose text arguments are the user's words without the sentence's own punctuation: "swap cat for dog." sends
    "dog", "make this loud: we won." sends "we won" (rule 224). Inside quotes ("'Stop!'") the mark is the text's own."""
    name, args = made
    return name, {param: without_sentence_end(value, said) for param, value in args.items()} if isinstance(args, dict) else args


def answered_from_data(intents: list) -> bool:
    """Whether the user asked something a tool's data answers (the weather, a text tool, a sum, a lookup): then a
    "say X" that came inside that data is never the reply (rule 173); the answer is the data."""
    return any(i.kind in ("weather", "text", "calculate", "open", "clock", "research") for i in intents)


AMOUNT_ASKED = r"^\W*(?:(?:and|so|then)\s+)?(?:how (?:much|many|far|long|big|large|heavy|old|often)|what(?:'s| is) (?:the|that|it))\b"


def unread_amount(intents: list) -> str | None:
    """The words of an amount the model could not read beside a sum it could ("45 plus 10 and then 12 for the
    parking"): a sum without it would be a confident wrong answer, so none is given."""
    if any(i.kind == "unsure" for i in intents):
        return next(i.slots["unread"] for i in intents if i.kind == "unsure")
    if not any(i.kind == "calculate" for i in intents):
        return None
    return next((i.slots["text"] for i in intents if i.kind == "unknown" and re.search(r"(?<![\w/:.-])\d+(?:\.\d+)?(?![\w/:-])",
                                                                                     i.slots.get("text", ""))), None)


def resolved(turn: Turn) -> str:
    """The message with "he"/"she" replaced by the person the user last named ("my husband Raj ... what does he do?")."""
    names = {v: k.removesuffix("_name").replace("_", " ") for k, v in turn.known().items() if k.endswith("_name") and k != "name"}
    text = turn.text
    for name, who in names.items():  # "where does Ingrid live?": Ingrid is the sister memory names
        text = re.sub(rf"\b{re.escape(name)}'s\b", f"my {who}'s", re.sub(rf"\b{re.escape(name)}\b(?!')", f"my {who}", text))
    named = [m.group(1).lower() for said in turn.earlier for m in re.finditer(r"\bmy (\w+)", said, re.I)
             if m.group(1).lower() in PEOPLE]
    if not named:
        return text
    text = re.sub(r"\b(?:his|her)\b(?! own)", f"my {named[-1]}'s", text, flags=re.I)
    return re.sub(r"^\W*(?:(?:and|so|ok|okay|also|then)\W+)+", "", re.sub(r"\b(?:he|she)\b", f"my {named[-1]}", text, flags=re.I),
                  flags=re.I)


def completed(turn: Turn) -> list:
    """After the model asked a question ("Which year?"), a short answer completes the earlier fact."""
    if not (turn.last_reply.rstrip().endswith("?") and turn.earlier and len(turn.text.split()) <= 6):
        return []
    reply = re.sub(r"^(?:it'?s|it is|it was|in|the year|i was born in|born in)\s+", "", turn.text.strip(), flags=re.I)
    reply = reply.rstrip(".!")
    asked_when = turn.last_reply.startswith("When should")  # "When should I schedule the massage?" "friday" (rule 341)
    if turn.last_reply in (say.ASKS["schedule"], say.what_and_when("remind"), say.what_and_when("")) or asked_when:  # "friday": the task asked before
        asked = scheduled(Turn(turn.earlier[-1], [], turn.system, turn.tools, []))
        for intent in asked:
            intent.slots["clause"] = f"{turn.earlier[-1]} {reply}" if asked_when else reply
            intent.slots["task"] = intent.slots["task"] if asked_when else reply
        return asked
    if not re.search(r"\d|[A-Z]", reply):  # "no", "not sure": not the missing piece
        return []
    intents = [i for i in understand(turn.earlier[-1]) if i.kind == "remember"]
    for intent in intents:
        pairs = intent.slots["facts"]
        named = [k for k, _ in pairs if k.replace("_", " ") in turn.asked_because.lower()] or [pairs[-1][0]]
        intent.slots["facts"] = [(k, f"{v} {reply}" if k in named else v) for k, v in pairs]
    return intents


PLACEHOLDER = (r"^\W*(?:(?:please|pls|hey|ok|okay|can you|could you|would you|will you|i need you to|i'd like you to)\W+)*"
               r"(?P<verb>put|add|book|schedule|set up|pencil in|plan|stick|pop|enter|create|make)\s+(?:me\s+)?"
               r"(?:something|anything|a thing|an? (?:event|entry|appointment|booking|reminder|slot|item))\b(?P<rest>[^.!?]*)[.!?]*\s*$")


def nothing_named(text: str) -> str | None:
    """Rule 390: a scheduling request with a time but nothing to schedule ("can you put something on my calendar for
    thursday", "book me an appointment for 3pm tomorrow") asks what it is, in the user's words, never guesses it."""
    asked = re.match(PLACEHOLDER, text, re.I)
    if not asked or not timing(text)[0] and not timing(text)[1]:
        return None
    left = re.sub(r"\b(?:on|in|into|to|onto) (?:my|the|your|our) [a-z]+\b|\b(?:for|on|at|by|please|pls|thanks|for me)\b|\W+", " ",
                  timing(asked["rest"])[2], flags=re.I)
    if left.strip():  # "a reminder to water the ferns at 5pm", "... labelled pay the rent": the thing is named
        return None
    rest = re.sub(r"\bmy\b", "your", asked["rest"].strip(), flags=re.I)
    rest = re.sub(r"\b(mon|tues|wednes|thurs|fri|satur|sun)day\b", lambda m: m.group().capitalize(), rest, flags=re.I)
    return f"What should I {asked['verb'].lower()} {rest}?".replace(" ?", "?")


def scheduled(turn: Turn) -> list:
    """With a scheduling tool, a request that names a time is a task to schedule ("yoga Thursdays 6:30pm"); so is
    one that asks for a reminder, whatever else it holds."""
    asked = [i for i in understand(turn.text) if i.kind == "schedule"]
    if asked or re.search(NOT_TO_SCHEDULE, turn.text, re.I):
        return asked  # "Don't schedule the dentist for Monday. ...": the message is never scheduled whole
    when, every, _ = timing(turn.text)
    asks = turn.text.rstrip().endswith("?") and not re.search(r"\b(?:can|could|would|will) (?:you|u) (?:set|put|add|schedule|"
                                                              r"book|queue|make|sort)\b|\bset (?:that|it|this) up\b", turn.text, re.I)
    if turn.tool("schedule") is None or not (when or every) or asks:
        return []
    return [Intent("schedule", {"task": turn.text.strip(), "when": "", "clause": turn.text})]


QUOTED_TEXT = r"[\"“][^\"”]+[\"”]|(?<!\w)['‘][^'’]+['’](?!\w)"
GENERIC = {"text", "string", "word", "number", "value", "return", "give", "input", "output", "tool", "user", "function",
           "with", "from", "into", "this", "that", "what", "which", "have", "does", "make", "some", "your", "about",
           "how", "many", "much", "the", "and", "for", "are", "can", "you", "tim", "piec", "show", "get"}


GENERIC_STEMS = {statements.lemma(w) for w in GENERIC}  # "have" read as "hav", "does" as "doe": never what a tool is about (rule 192)


NEAR_WORDS = {"long": "length", "len": "length", "many": "number", "count": "number", "char": "character",
              "chars": "character", "letter": "character", "size": "length", "longest": "longest", "biggest": "longest",
              **dict.fromkeys(("swap", "swaps", "flip", "flips", "toggle", "toggles", "invert", "inverts", "switch"), "invert"),
              **dict.fromkeys(("space", "blank"), statements.lemma("whitespace"))}  # a small table of near-synonyms
ACTS = {"remove", "make", "turn", "convert", "change", "put", "take", "set", "do", "tell", "check", "run", "use", "give", "apply"}


def overlapping(turn: Turn) -> list:
    """A request no rule reads, a quoted text, and the offered tool whose name and description share the most
    words that matter with it ("is 'racecar' a palindrome?" and is_palindrome): the tool is used on the text."""
    subject = re.search(r"[\"“]([^\"”]+)[\"”]|(?<!\w)['‘]([^'’]+)['’](?!\w)|:\s*(.+)$", turn.text)

    def meant(text: str) -> set:
        return {NEAR_WORDS.get(w, statements.lemma(w)) for w in words(text) if len(w) >= 3} - GENERIC - GENERIC_STEMS
    number = re.findall(r"(?<![\w.])-?\d+(?:\.\d+)?(?![\w.]*\d)", turn.text)
    if not subject and len(number) == 1:  # "how many km is 26.2 miles?" and miles_to_km(miles): the number goes in
        numeric = [t for t in turn.tools if t.kind is None and [type_of(spec) for spec in t.params.values()] in (["number"], ["integer"])]
        scored = {t.name: len(meant(turn.text) & meant(f"{t.name} {t.description}")) for t in numeric}
        if scored and max(scored.values()) >= 2:
            return [Intent("use", {"tool": max(scored, key=scored.get), "text": number[0], "number": float(number[0])})]
    if not subject:
        return bare(turn, meant)
    asked = meant(re.sub(QUOTED_TEXT, " ", turn.text))  # "what's the longest word in '...'": an apostrophe opens no quote
    shared = {tool.name: len(asked & meant(f"{tool.name} {tool.description}")) for tool in turn.tools
              if not does_another_operation(tool, turn.text) and not needs_a_number(tool) and not said_otherwise(tool, turn.text)
              and sum(spec.get("type", "string") == "string" for p, spec in tool.params.items() if p in tool.required) == 1}
    if not shared or max(shared.values()) == 0:
        return []
    chosen = next(t for t in turn.tools if t.name == max(shared, key=shared.get))
    if not asked & meant(f"{chosen.name} {chosen.description}") - {statements.lemma(a) for a in ACTS}:
        return []  # only a verb in common ("remove duplicate words", "Removes all whitespace"): no tool does what is asked
    said = next(g for g in subject.groups() if g)
    return [Intent("use", {"tool": chosen.name, "text": said.strip()})]


def needs_a_number(tool: Tool) -> bool:
    """A tool with a required number ("set_timer(label, minutes)") is never used on a quoted text alone: the number would
    be made up (rule 193)."""
    return any(type_of(spec) in ("number", "integer") for param, spec in tool.params.items() if param in tool.required)


def does_another_operation(tool: Tool, text: str) -> bool:
    """A tool of a text or arithmetic kind the grammar reads (upper case, reverse, add ...) whose own words the request does
    not use: it is never the nearest tool for an operation it does not do ("title case" is no job for a lower-case tool),
    while "tally the words" still finds tally_words."""
    return tool.kind in {*BY_HAND, "count_letter", *arithmetic.KINDS} and not {stem(w) for w in words(text)} & KEYWORDS[tool.kind] \
        and not described_alike(tool, text)


def described_alike(tool: Tool, text: str) -> bool:
    """Whether the request says what the tool's own words say it does, beyond its kind: two words that matter in common
    ("a slug for the URL" and "Turns a title into a lowercase URL slug"; "swap the case" and "Flips upper case letters to
    lower case"), so a tool whose description names another kind's word in passing is still found by what it does
    (rule 225). One word ("title case" and "lower case") is not enough."""
    def meant(said: str) -> set:
        return {NEAR_WORDS.get(w, statements.lemma(w)) for w in words(said) if len(w) >= 3} - GENERIC - GENERIC_STEMS - {
            statements.lemma(a) for a in ACTS} - {statements.lemma(k) for k in KEYWORDS.get(tool.kind, ())}
    return len(meant(re.sub(QUOTED_TEXT, " ", text)) & meant(f"{tool.name} {tool.description}")) >= 2


TIME_WORDS = {"latest", "newest", "current", "recent", "today", "now", "last", "next", "new", "lat", "newe", "curr"}


def bare(turn: Turn, meant) -> list:
    """A tool that takes nothing and neither changes memory nor computes ("open_mailbox(): Returns the newest email"), called when the
    request shares a word that matters with what it returns ("Read my latest email"): there is no argument to make up."""
    asked = meant(turn.text) - {statements.lemma(w) for w in TIME_WORDS}
    scored = {t.name: len(asked & meant(f"{t.name} {t.description}")) for t in turn.tools if not t.params and t.kind in (None, "recall", "search")}
    if not scored or max(scored.values()) == 0 or turn.text.rstrip().endswith(".") and re.match(r"^\W*(?:i|my|we)\b", turn.text, re.I):
        return []  # "My email is ..." states; it asks for nothing
    return [Intent("use", {"tool": max(scored, key=scored.get), "text": ""})]


def calculate(intent: Intent, turn: Turn):
    expression = intent.slots["expression"]
    shown = expression[1:-1] if re.fullmatch(r"\((?:[^()]|\([^()]*\))*\)", expression) else expression
    tools = {kind: turn.tool(kind) for kind in arithmetic.KINDS if turn.tool(kind)}
    calculator = turn.tool("calculate")
    if calculator and not tools:
        [result] = yield [call(calculator, expression=shown, text=shown)]
        unit = intent.slots.get("unit", "") if re.fullmatch(r"-?[\d.]+", result.strip()) else ""  # "= 90.0%" (rule 292)
        return f"{shown} = {result.strip()}{unit}"
    if share := percent_shape(shown, turn.text):  # "15% of 47.90", "7% tax on 349 ... in total": the percent, then the total
        if turn.tool("percent") or share[2] and re.search(r"\b(?:and|also|plus)\b.*\b(?:total|pay|altogether|comes? to|all in|price)\b",
                                                          turn.text, re.I):
            return (yield from percent_steps(share, turn))
    if not tools and not calculator and turn.results and re.search(r"\d", turn.results[-1]):
        try:  # asked again without tools after they ran: the last result is the answer, not a sum in its head
            return f"The answer is {arithmetic.show(arithmetic.number(turn.results[-1]))}."
        except arithmetic.ToolFailed:
            pass
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
    except ZeroDivisionError:
        return "That divides by zero, which has no answer."
    except (OverflowError, ValueError, TypeError):
        return f"I can't work out {shown}: the number is too big or not a real number."
    try:
        unit = intent.slots.get("unit", "")  # "90%", "2500 g": the answer in the unit the sum was read in (rules 292-293)
        value = to_cents(value, turn.text) if not unit else value
        return f"The answer is {arithmetic.show(value)}{unit}." if used else f"{shown} = {arithmetic.show(value)}{unit}"
    except (OverflowError, ValueError, TypeError):
        return f"I can't work out {shown}: the number is too big or not a real number."


MONEY_SAID = r"[$€£¥₹]|\b(?:dollars?|euros?|bucks|quid|cents?|tips?|bill|price[sd]?|cost\w*|fares?|fees?|rent|salary|wages?)\b"
UNROUNDED = r"\b(?:exact(?:ly)?|unrounded|precise(?:ly)?|raw|full precision|all the decimals|don't round|do not round)\b"


def to_cents(value, text: str):
    """An amount of money (a currency sign or word, a tip, a bill, a price) is said to the cent: 15% of 101.52 is 15.23,
    not 15.228; the raw result is kept when the user asks for it exactly, and any other sum is left as it came."""
    if (isinstance(value, (int, float)) and not float(value).is_integer() and round(value, 2) != value
            and re.search(MONEY_SAID, text, re.I) and not re.search(UNROUNDED, text, re.I)):
        return round(value, 2)
    return value


def percent_shape(expression: str, text: str) -> tuple | None:
    """(percent, amount, "" / "+" / "-") for "p * q / 100", "q * (100 + p) / 100" or "q * (100 - p) / 100", the percent being
    the number the user wrote with % ("15% of 47.90"); None for any other sum."""
    said = re.search(r"(\d+(?:\.\d+)?)\s*(?:%|percent|per cent)", arithmetic.plain(text))
    part = re.fullmatch(r"\(?(\d+(?:\.\d+)?) \* (\d+(?:\.\d+)?) / 100\)?", expression)
    whole = re.fullmatch(r"\(?(\d+(?:\.\d+)?) \* \(100 ([-+]) (\d+(?:\.\d+)?)\) / 100\)?", expression)
    if not said:
        return None
    if part and said.group(1) in part.groups():
        amount = part.group(2) if part.group(1) == said.group(1) else part.group(1)
        return said.group(1), amount, ""
    return (whole.group(3), whole.group(1), whole.group(2)) if whole and whole.group(3) == said.group(1) else None


def changed_by(tool) -> str:
    """"+" for a tool that returns an amount grown by a percent ("Increase an amount by a percentage", add_tax), "-" for
    one that returns it reduced (apply_discount), "" for one that returns the percent's part ("15% of 40" is 6)."""
    said = f"{tool.name} {tool.description}".replace("_", " ").lower()
    if re.search(r"\b(?:increase[sd]?|grow[sn]?|raise[sd]?|inflate[sd]?|mark(?:s|ed)? ?up|add(?:s|ed)? (?:a |the )?(?:percent|tax|vat)|"
                 r"with (?:tax|vat)|plus (?:tax|vat))\b", said):
        return "+"
    if re.search(r"\b(?:decrease[sd]?|reduce[sd]?|shrink[s]?|discount(?:s|ed)?|lower(?:s|ed)?|cut[s]?|take[s]? off)\b", said):
        return "-"
    return ""


def percent_args(tool, pct: str, amount: str) -> dict:
    """A percent tool's arguments: the percent in the parameter that names it (pct, percent, rate), the amount in the other."""
    named = [p for p in tool.params if re.search(r"pct|percent|rate", f"{p} {tool.params[p].get('description', '')}", re.I)]
    args = {p: float(pct) if p in named or (not named and i == 0) else float(amount) for i, p in enumerate(tool.params)}
    return {p: int(v) if v.is_integer() else v for p, v in args.items()}


def percent_steps(share: tuple, turn: Turn):
    """The percent of the amount (by the percent tool when there is one), then the amount with it added or taken off;
    the reply gives both, since "the 7% tax ... and the total?" asks both."""
    pct, amount, sign = share
    tool = turn.tool("percent")
    if tool and (changes := changed_by(tool)):  # grow_by_percent(amount, percent) returns the new amount, not the part
        if changes != sign:
            tool = None
        else:
            args = percent_args(tool, pct, amount)
            [result] = yield [(tool.name, args)]
            total = arithmetic.number(result)
            return f"{amount} {'plus' if sign == '+' else 'minus'} {pct}% comes to {arithmetic.show(total)}."
    if tool:
        [result] = yield [(tool.name, percent_args(tool, pct, amount))]
        part = arithmetic.number(result)
    else:
        part = float(pct) * float(amount) / 100
    said = f"{pct}% of {amount} is {arithmetic.show(to_cents(part, turn.text))}"
    if not sign:
        return f"{said}."
    adder = turn.tool("add" if sign == "+" else "subtract")
    if adder:
        [total] = yield [call(adder, numbers=[float(amount), part])]
        total = arithmetic.number(total)
    else:
        total = float(amount) + part if sign == "+" else float(amount) - part
    return f"{said}, so it comes to {arithmetic.show(to_cents(total, turn.text))}."


def calculate_and_check(intent: Intent, turn: Turn):
    """Rule 262: the sum worked out; when the user gave an answer to check, whether it matches."""
    answer = yield from calculate(intent, turn)
    return arithmetic.claim_verdict(answer, intent.slots["claimed"]) if intent.slots.get("claimed") and answer else answer


HANDLERS = {"calculate": calculate_and_check, "replace_text": replace_text, "count_occurrences": count_occurrences,
            "read_by_tool": read_by_tool, "named_lookup": looked_up, **MEMORY, **TASKS}
