"""Understand: what the user typed -> a list of intents with slots (the grammar: docs/teaching_model.md).

A message is cut into clauses (at sentence ends, "then", and "and" before a new verb or "I"); each
clause is matched against the grammar (grammar.py), first match wins. A clause nothing matches becomes
Intent("unknown"), so the model can say plainly what it did not do.
"""
import re
from dataclasses import dataclass, field
from functools import lru_cache

from . import arithmetic, portions, statements
from .timing import DAY, MONTH, WHEN, after_that_joined, ahead, clock_of, date_readings, from_the_event, timing
from .grammar import ASKING, KIND_OF, NEAR, PEOPLE, FACTS, FILLERS, NOT_JOBS, ROLE, TRAITS, NOT_KEYS, NOT_NAMES, NOT_PLACES, OTHER, PRONOUNS, QUESTIONS, SAME, TEXT_OPS, VERBS


@dataclass
class Intent:
    kind: str
    slots: dict = field(default_factory=dict)


def clauses(text: str) -> list[str]:
    """Sentences, cut again at "then" and at "and" before a new verb or "I"/"my"."""
    parts = []
    text = re.sub(r"\b(Dr|Mr|Mrs|Ms|Prof|St)\.", r"\1", text)  # "Dr. Lee" is one name, not two sentences
    for sentence in re.split(r"(?<=[.!?;])\s+|\n+|\s+[-–—]\s+(?=(?:i|i'm|she|he|they|we|my)\b)", text.strip(), flags=re.I):
        pieces = [q for shared in subject_shared(sentence) for q in re.split(
            r",?\s+(?:and )?then\s+|,\s*then\s+|\s+and\s+(?=(?:also\s+)?(?:i|my|our|please|" +
            "|".join(sorted(VERBS - {"and", "is", "are", "do", "buy"})) + r")\b|the [a-z]+ (?:is|are|was|were|has|have|had)\b)",
            shared, flags=re.IGNORECASE)]
        pieces = [q for p in pieces for q in statements_apart(p)]
        pieces = [q for p in pieces for q in own_words_after(p)]
        pieces = [q for p in pieces for q in question_after_statement(p)]
        pieces = [p.strip(" ,;") for p in pieces if p and p.strip(" ,;.!?")]
        for piece in pieces:  # "Sam and I split up": a lone name before "and I" is part of the subject
            if parts and len(parts[-1].split()) == 1 and parts[-1][:1].isupper() and re.match(r"i\b", piece, re.I) \
                    and piece is not pieces[0]:
                parts[-1] = f"{parts[-1]} and {piece}"
            else:
                parts.append(piece)
    return parts


def question_after_statement(text: str) -> list[str]:
    """Rule 143: "I'm a customer, what's the discount code?" is a statement and a question, each read (the question is
    never lost behind the statement, nor the statement behind the question)."""
    found = re.match(r"^(\W*(?:i|i'm|i am|im|my)\b[^,?]*),\s+((?:what|what's|whats|where|where's|who|who's|when|which|how|"
                     r"can you|could you|do you|will you)\b[^,]*\?)\s*$", text, re.I) or re.match(
        rf"^(\W*(?:my|our|[A-Z][a-z]+)\b[^,]*),\s+((?:(?:so|and) )?(?:you can |please |can you |could you )?{FORGET}\s+(?:him|her|them)\b.*)$",
        text, re.I)  # "my cat died last week, you can remove her": why, then whom to forget (rule 52)
    return [found.group(1), found.group(2)] if found else [text]


def own_words_after(text: str) -> list[str]:
    """"My friend thinks I'm 40 but I'm actually 38": only the user's own statement, since what someone else thinks
    is neither a fact to keep nor a request to decline."""
    found = re.search(r",?\s+but\s+(?=i(?:'m| am)?\s+(?:actually|really|in fact)\b)", text, re.I)
    if not found or not re.search(r"\b(?:thinks?|says?|said|told|believes?|assumes?|guessed|reckons?)\b", text[:found.start()], re.I):
        return [text]
    return [text[found.end():]]


PASSAGE_HEAD = (r"^[^:]*\b(?:for|of|in|on|this|these|that|please|the following|text|sentence|phrase|passage|line|words?|letters?|"
                r"characters?|count)\s*:\s")  # a request that hands over a passage after a colon


TEXT_NOUN = r"(?:message|tweet|text|sentence|line|post|caption|status|title|phrase|passage|bio|comment|reply|headline|sms|note|string|slogan|name)"


def passage_after(text: str) -> str:
    """A request about "this message/tweet/caption" with the passage after its colon or question mark: the passage put in
    quotes, so every text rule reads it whole ("how long is this tweet in characters? Just landed!" measures "Just
    landed!"). The text unchanged otherwise."""
    found = re.match(rf"^(?P<ask>[^?:\"“'‘]*\b(?:this|the following|my|the) {TEXT_NOUN}\b[^?:\"“'‘]*)(?P<mark>[?:])\s+(?P<passage>[^\"“”]+?)\s*$",
                     text, re.I | re.S)
    if not found or not re.search(r"\b(?:how|count|what|is|are|make|turn|put|convert|reverse|capitali[sz]e|shout|give|tell)\b",
                                  found.group("ask"), re.I):
        return text
    return f'{found.group("ask").strip()}: "{found.group("passage")}"'


def subject_shared(text: str) -> list[str]:
    """Rule 250: "i'm 34 years old and live in Lisbon", "I'm vegan and allergic to peanuts": two facts sharing one "I",
    each said with it, only when both halves are facts ("I like Tom and Jerry" stays one like)."""
    if " and " not in text.lower() or not (lead := re.match(r"^\W*(?:i(?P<am>'m| am)?|i've)\s", text, re.I)):
        return [text]
    if (felt := re.search(r"\s+and\s+(?:i\s+)?(?:really\s+|totally\s+)?(?:love|like|hate|enjoy|adore)\s+(?:it|that|this)"
                          r"(?:\s+(?:there|here|so far|a lot))?\W*$", text, re.I)) and stated(text[:felt.start()]):
        return [text[:felt.start()]]  # "I live in Rome and love it": the place, never "Rome and love it"
    for found in re.finditer(r"\s+and\s+(?:also\s+)?(?=(?:live|work|have|own|drive|ride|speak|teach|study|play|support|love|like|"
                             r"hate|prefer|enjoy|eat|am|allergic|from|based|married|single|vegan|vegetarian|an?|\d)\b)", text):  # now, not news
        first, rest = text[:found.start()], text[found.end():]
        second = f"I'm {rest}" if lead["am"] and re.match(r"\d|(?:allergic|from|based|married|single|vegan|vegetarian|an?)\b", rest) \
            else f"I {rest}"
        if (verb := re.match(r"^\W*i((?:'ve| have)? got| [a-z]+) ", first, re.I)) and re.match(r"(?:an?|\d+)\b", rest) and not lead["am"]:
            second = f"I{verb[1]} {rest}"  # "I have a cat named Pixel and a rabbit named Clover": two named things (rule 349)
            if not all(k.endswith("_name") for half in (first, second) for k, _ in stated(half)):
                continue  # "I have a cat and a dog" is kept as said
        if stated(first) and stated(second):
            return [first, *subject_shared(second)]
    return [text]


def statements_apart(text: str) -> list[str]:
    """"I sold the Civic, I drive a Tesla now": two statements after a comma, when the first has a verb of its own; "I
    don't have a dog but I have a cat": two after "but" (rule 347)."""
    found = re.search(r"(?:,\s+(?P<c>(?:but|though|yet|whereas)\s+)?|\s+(?P<but>but|though|yet|whereas)\s+)(?=i(?:'m| am)? [a-z]+\b)", text, re.I) \
        or re.search(r"(?:[,;]\s*(?P<c>(?:but|though|yet|whereas)\s+)?|\s+(?P<but>but|though|yet|whereas)\s+)(?=my [a-z]+ (?:is|are|has|was) (?!(?:too|though|also|as well)\b)\w)",
                     text, re.I)  # rule 416: "I'm not allergic to anything, but my son is": two people, two statements
    if found and (found["c"] or found["but"]) and not re.match(r"\W*i\b", text, re.I):
        return [text]  # "My mum says I'm 25 but I'm actually 27": only two statements of the user's own are read apart
    if found and len(re.findall(r"[\"“”]", text[:found.start()])) % 2:
        return [text]  # inside a quotation: "I came, I saw, I conquered" is one text
    if found and re.search(PASSAGE_HEAD, text[:found.start()], re.I):
        return [text]  # "a word count for: I came, I saw": the passage after the colon is one text
    if not found or len(text[:found.start()].split()) < 3 or not re.search(r"\b(?:i|i'm|my|we)\b", text[:found.start()], re.I):
        return [text]  # "Off the record, I work as a magician" is one statement
    return [text[:found.start()]] + statements_apart(text[found.end():])


def understand(text: str) -> list[Intent]:
    """The intents in a message, in order (fresh copies: a caller may change their slots)."""
    return [without_fillers(Intent(intent.kind, dict(intent.slots)), text) for intent in without_the_reason(amounts_placed(text))]


def without_fillers(intent: Intent, text: str) -> Intent:
    """Rule 378: a filler word ("though", "too", "as well") is never a fact's value: "my sister is though" keeps nothing."""
    if intent.kind == "several":
        return Intent("several", {**intent.slots, "intents": [without_fillers(i, text) for i in intent.slots["intents"]]})
    if intent.kind != "remember":
        return intent
    kept = [(k, re.sub(r"(?<=\w)(?:,?\s+(?:though|tho|as well))+\W*$", "", v, flags=re.I) if isinstance(v, str) else v)
            for k, v in intent.slots["facts"] if not re.fullmatch(rf"\W*{ELLIPSIS_FILLER.replace('*', '+')}\W*", f" {v}", re.I)]
    # rule 426: "allergic to cats though" keeps "allergic to cats"
    return Intent("remember", {**intent.slots, "facts": kept}) if kept else Intent("unknown", {"text": text})


@lru_cache(maxsize=1024)
def amounts_placed(text: str) -> tuple:
    """Rules 242 and 244: a total asked for uses every amount the message states, and a percentage is never a plain
    amount; a sum that breaks either is not given, the amount it could not place is said instead ("unsure")."""
    text = arithmetic.negated_amount_dropped(text)  # "I didn't spend 30 - I spent 45 of my 100. What's left?" (rule 261)
    text, swap = arithmetic.substituted(text)  # "What would 5 times 6 be if the 6 were a 7?" is 5 times 7 (rule 277)
    if swap:
        return (Intent("unsure", {"unread": swap}),)
    if checked := claim_checked(text) or tag_asked(text):  # "I told him 6 times 7 is 48. Was I right?" (rule 262)
        return checked
    intents = intents_in(text)
    sums = [i for i in intents if i.kind == "calculate"]
    if len(sums) == 1:  # "Take 15 percent of 80 and then add 7 to it": the step after is chained (rule 258)
        sums[0].slots["expression"] = steps_chained(text, sums[0].slots["expression"])
    if len(sums) == 1 and not any(i.kind == "quoted" for i in intents) and (unplaced := arithmetic.amount_left_out(text, sums[0].slots["expression"])
                           or arithmetic.percent_as_amount(text, sums[0].slots["expression"])):
        return tuple(Intent("unsure", {"unread": unplaced}) if i is sums[0] else i for i in intents)
    return intents


def claim_checked(text: str) -> tuple | None:
    """Rule 262: a sum someone answered and a question whether it is right: the sum, with the number given to compare."""
    if not (claim := arithmetic.claim_to_check(text)):
        return None
    sums = [i for i in intents_in(claim[0]) if i.kind == "calculate"]
    return (Intent("calculate", {**sums[0].slots, "claimed": claim[1]}),) if len(sums) == 1 else None


DOUBTED = (r"^\W*(?:(?:i\s+)?(?:guess|bet|suppose|doubt|reckon|imagine|assume|expect)\s+(?:that\s+)?|(?:i\s+)?(?:don't|do not) "
           r"think\s+)?you(?:'ve|\s+have)?\s+(?:probably\s+|likely\s+|must\s+have\s+|must've\s+|already\s+|totally\s+)*"
           r"(?:(?:don't|do not|didn't|did not|can't|cannot|won't|wouldn't|no longer)?\s*(?:know|remember|recall)|"
           r"forgot(?:ten)?(?:\s+about)?)\s+(?P<what>(?:my|where|what|when|who|which|how)\b[^,;?!]{1,40}?)"
           r"(?:\s+(?:by now|anymore|any more|already|again|do you|did you|have you))?\W*$")  # rule 320


WISH_TO_KNOW = (r"^\W*(?:(?:so|and|ok|okay|oh|hey|please|pls|just)\W+)*(?:i(?:'d| would) (?:like|love) to know|i (?:want|need|wanna) to know|"
                r"i(?:'d| would) like to hear|i(?:'m| am) curious about|remind me(?: of| about)?)\s+(?P<what>(?:my|our)\s+(?:(?!\d|\b(?:to|at|on|in|by|"
                r"every|tomorrow|tonight|today|next|later|before|after|when|this)\b)[^?.!,;])+?)\s*[?.!]*\s*$")  # rule 379: asks about X


TAG = (r"^(?P<said>.+?)[,\s]+(?:(?:is|are|am|do|does|did|was|were|have|has)(?:n't| not)? (?:it|i|they|that|he|she|we)|"
       r"(?:am|was) i (?:right|correct|wrong)|(?:is|was) that (?:right|correct|so|true)|right|correct|yeah|yes|no|true|innit|eh)"
       r"\s*\?+\W*$")


WRAPPED = (r"^\W*(?:(?:please|pls|so|ok|okay|and|just|can you|could you|would you|will you)\W+)*(?:tell me|let me know|"
           r"check|find out|confirm|see|say)(?: for me)?,?\s+(?:whether|if)\s+(?P<said>.+?)(?:\s+or not)?\W*$")


def tag_asked(text: str) -> tuple | None:
    """Rule 319: a statement of facts about the user followed by a tag asking for confirmation ("my cat is Luna, isn't
    it?", "I live in Leeds, right?") is a question of those facts, never a fact to keep: one "confirm" intent. Rule 377:
    so is one wrapped in "tell me whether ...", "let me know if ...", "check whether ..."."""
    tagged = re.match(TAG, text.strip(), re.I | re.S) or re.match(WRAPPED, text.strip(), re.I | re.S)
    said = intents_in(tagged["said"]) if tagged else ()
    if said and all(i.kind == "remember" for i in said):
        return (Intent("confirm", {"facts": [f for i in said for f in i.slots["facts"]], "about": tagged["said"]}),)
    return None


def steps_chained(text: str, expression: str) -> str:
    """Rule 258: a step said after a sum ("... and then add 7 to it", "after that subtract 4") applies to the sum's
    result, when the sum read from the whole message left the step's number unused."""
    used = re.findall(r"\d+(?:\.\d+)?", expression)
    parts = [piece for part in clauses(arithmetic.said_plainly(arithmetic.thousands_joined(text)))
             for piece in re.split(r",?\s+(?:and\s+)?(?:after that|afterwards|next|finally)\b,?\s*|"
                                   r",\s*(?=(?:and\s+)?(?:add|subtract|multiply|divide|take away|deduct)\b)", part, flags=re.I)]
    for part in parts[1:]:
        stated = re.findall(r"\d+(?:\.\d+)?", arithmetic.numbers_in_words(part.lower()))
        after = arithmetic.expression(part, expression) if stated and not set(stated) & set(used) else None
        if after and arithmetic.wrap(expression) in after:
            expression, used = after, used + stated
    return expression


def without_the_reason(intents: tuple) -> tuple:
    """Rule 232: "Forget my Fiat Panda, I sold it": "I sold it" is why the named thing goes, not a second thing to forget
    (a search for "it" finds nothing, or anything)."""
    return tuple(i for n, i in enumerate(intents) if not (
        (i.kind == "forget" and i.slots.get("stale") and i.slots.get("key") in PRONOUNS
         or i.kind == "unknown" and re.match(THAT_OUT, i.slots.get("text", ""), re.I))
        and any(before.kind == "forget" and before.slots.get("key") not in PRONOUNS for before in intents[:n])))


THAT_OUT = (r"^\W*(?:(?:please|so|and|just|then)\s+)*(?:take|get|strike|wipe|drop|remove|delete|erase|scrub|clear|cross|rub|cut)\s+"
            r"(?:that|it|this|them|him|her)(?:\s+(?:out\s+of|off(?:\s+of)?|from|out|off))?(?:\s+(?:your|my|the))?(?:\s+(?:memory|"
            r"memories|notes?|records?|list|files?|data))?(?:,?\s+(?:please|thanks|thank you))?\W*$")  # rule 232: "... Take that out of your memory."


GUESS_WHO = (r"^\W*(?:(?:so|and|hey|oh)\W+)*(?:guess who|who)(?P<be>'s| is)?\s+(?P<what>[^?]+?)\s*\?+\s*(?:(?:it's|it is|it was|"
             r"that'd be|that would be|that's)\s+)?(?:me|i did|i am|i have|this guy|this girl|yours truly|moi)\W*$")  # the user, said as a riddle


@lru_cache(maxsize=1024)  # a loop sends the same question on every turn
def intents_in(text: str) -> tuple:
    """The intents in a message, in order, as the cache keeps them."""
    text = ahead(after_that_joined(text))  # "at 8am and then every day after": one request that repeats (rule 296); "2 hours from now" (344)
    text = re.sub(DOUBTED, r"do you remember \g<what>?", text, flags=re.I)  # "I bet you forgot my name" (rule 320)
    text = re.sub(WISH_TO_KNOW, r"what is \g<what>?", text, flags=re.I)  # "I'd like to know my dog's name" (rule 379)
    task = re.match(r"^\s*(?P<label>(?!\W*(?:please )?(?:set|add|create|make|remind)\b)(?:\d:\d\d|[^:]){0,60}\b(?:task|reminder|todo|to-do|"
                    r"job|due)\b(?:\d:\d\d|[^:])*):(?!\d\d)\s*(?P<body>.+)$",  # "due 2026-12-01T02:00." is a time, no label
                    text, re.IGNORECASE | re.DOTALL)
    if task and re.match(r"\W*(?:please |pls |can you |could you )?(?:queue|enqueue|schedule|put|plan|book|log|new|set up)\b",
                         task.group("label"), re.I):  # "queue a job: tidy up, tonight at 11" asks for one
        return (Intent("schedule", {"task": task.group("body").strip(), "when": "", "clause": text}),)
    if task:  # a queued task handed to the model: do it if it can, else remind the user of it
        inner = intents_in(task.group("body"))
        if all(i.kind == "unknown" for i in inner):
            return (Intent("reminder", {"task": task.group("body").strip().rstrip(".!")}),)
        return inner
    pair = re.match(r"^(?P<lead>.*?\b(?:remind|ping|nudge|text|tell) me)\s+(?P<first>.+?\bto\s.+?)\s+and\s+"
                    r"(?P<second>(?:at|on|in|by|tomorrow|tonight)\b[^.]*?\bto\s.+)$", text, re.I | re.S)
    pair = pair or re.match(r"^(?P<lead>.*?\b(?:remind|ping|nudge|text|tell) me)\s+(?P<first>to\s.+?\s(?:at|on|in|by)\s[^.]+?)"
                            r"\s+and\s+(?P<second>(?:to\s)?.+?\s(?:at|on|in|by)\s\S+(?:\s?[ap]m)?)\W*$", text, re.I | re.S)
    if pair and all(timing(pair[half])[0] for half in ("first", "second")):  # two times, two tasks
        second = pair["second"] if re.match(r"(?:to|at|on|in|by|tomorrow|tonight)\b", pair["second"], re.I) else f"to {pair['second']}"
        return intents_in(f"{pair['lead']} {pair['first']}") + intents_in(f"{pair['lead']} {second}")
    text = re.sub(r"^(?P<ask>\W*(?:(?:please|pls|hey|hi|ok|okay)\W+)*(?:(?:can|could|would|will) (?:you|u) (?:please )?)?(?:remember|note(?: down)?|save|store|keep|"
                  r"jot down|write down|log|record|hold on to)\s+)?(?P<thing>my [^?.!,:]{1,40}?)\s*(?:\?+|:)\s*(?:it's|it is|that's|that is)\s+(?P<value>[^?]+)$",
                  lambda m: f"remember that {m['thing']} is {m['value']}", text, flags=re.I)  # "can you remember my X? it's Y" stores X (rule 332)
    text = re.sub(r"\bi(?:'ve| have)?(?: just| finally| recently)? (?:moved|relocated)(?: house| home)?(?: again)?\s*[,;:–—-]+\s*(?:(?:so|and) )?(?:now )?"
                  r"(?:it's|it is|i'm in|i am in|i live in|i'm living in|i'm now in)\s+(?:now\s+)?(?P<new>(?-i:[A-Z])[\w.'-]*(?: (?-i:[A-Z])[\w.'-]*)*)"
                  r"(?:\s+now)?", lambda m: f"I moved to {m['new']}", text, flags=re.I)  # "I moved again, it's Austin now": a move (rule 334)
    text = re.sub(r"\bi (?:told you|said|mentioned|thought)(?: (?:before|earlier|that))* (?P<pre>my [a-z' ]+? (?:is|was|are|were)(?: called| named)?|i(?:(?:'m| am)(?: [a-z]+)?| (?!(?:would|could|should|will|can|might|must|may|shall|did|do|was|had|have|"
                  r"don't|didn't|wasn't)\b)[a-z]+)(?: (?:in|at|for|with|from|as|to|on))?) (?P<old>[^,;]+?),?\s+but (?:(?:in fact|really|actually)\s+)?(?:it's|it is|its|he's|she's|"
                  r"he is|she is|they're|they are|that's|that is)\s+(?:(?:really|actually|in fact|called|named)\s+)*(?P<new>[^,.;!?]+?)(?:\s+(?:actually|really|in fact))?(?=\W*$)",
                  lambda m: re.sub(r"\b(?:was|were)\b", "is", m["pre"]) + f" {m['new']}, not {m['old']}", text, flags=re.I)  # "I told you X, but it's actually Y" (rule 335)
    text = re.sub(GUESS_WHO, lambda m: ("I've " if m["be"] and re.match(r"got\b", m["what"], re.I) else "I'm " if m["be"] else "I ") + m["what"], text, flags=re.I)  # "guess who ...? me!" (rule 427)
    text = checked_back(text)  # "wait, I'm allergic to cats?": asked, never told (rule 434)
    summary = re.match(r"^\W*(?:please |can you )?(?:summari[sz]e|sum up|tl;?dr)\b[^:]*:\s*(?P<text>.+)$", text, re.I | re.S)
    if summary:  # the text to summarise is given: it is not a list of requests
        return (Intent("summarise", {"topic": "", "text": summary.group("text")}),)
    text = re.sub(r"(\b(?:got|bought|picked up) (?:a|my) (?:new |first )?[a-z]+)\s*[!.]+\s+(?=(?:it'?s )?(?:an?|the|\d{4}) )",
                  r"\1, ", text, flags=re.I)  # "just got a new car!! a 2019 Subaru Outback": one statement
    text = passage_after(text)  # "how many characters is this caption? Sunset over the bay": the caption is the text
    given = re.match(r"^\W*(?:please |can you )?(?:count|reverse|upper ?case|lower ?case|shout|capitali[sz]e|title[- ]?case|measure|convert|turn|change|"
                     r"how many)\b[^:\"“]{0,40}:\s*\S", text, re.I)
    given = given or re.search(r"\b(?:don't|do not)\s+(?:want to\s+|wanna\s+)?(?:add|subtract|multiply|divide)\b", text, re.I)
    if (meant := sarcastic(text)) is not None:  # "I just LOVE Mondays. not.": no fact of the user's (rule 425)
        return meant
    if (fixed := corrected_in_place(text)) is not None:  # "My cat is Tom. Wait, no - that's my neighbour's. Mine is Tabby."
        return intents_in(fixed) if fixed else (Intent("unkept"),)
    if (fixed := corrected_operands(text)) is not None:  # "Take 3 from 50 - no wait, from 60": only the corrected sum
        return intents_in(fixed)
    if (fixed := corrected_request(text)) is not None:  # "Remind me at 5pm - no wait, 6pm - to call mum": only the corrected request
        return intents_in(fixed)
    if renewed := restated_then_dropped(text):  # "I moved to Munich, so the Berlin note is wrong; remove it" (rule 284)
        return renewed
    if news := after_news_label(text):  # "Correction: I sold the Mazda, I drive a Kia Niro now": the news itself (rule 302)
        return news
    if named := named_before_forget(text) or no_longer_needed(text) or that_one_dropped(text):  # "That thing I told you about my salary - forget it": the salary
        return intents_in(f"forget {named}")
    after = retracted(text)  # "What's 10 minus 4? Just kidding - what's 10 plus 4?": only the last request counts
    if after is not None and any(i.kind not in ("unknown", "none") for i in intents_in(after)):
        return intents_in(after)
    if reading := date_readings(text):  # "my appointment is on 12/5 - what's the date?": a date, never 12 / 5 (rule 291)
        return (Intent("dated", {"reading": reading}),)
    if about := asked_about_the_words(text):  # "my friend said 'add 5 and 9' - what did he ask me to do?" (rule 290)
        return about
    if others := someone_elses_request(text):  # "my friend texted me 'remind me at 6 to ...'": not the user's request
        return others
    if said := kept_back(text):  # "Don't save that I'm moving to Spain, it's not certain yet": stored nowhere
        return tuple(i for i in intents_in(said[0]) if i.kind not in ("unknown", "none")) + (Intent("unkept", {"said": said[1]}),) \
            if said[0] else (Intent("unkept", {"said": said[1]}),)
    if unasked := not_to_schedule(text):  # "Don't remind me to call Bob", "no need to schedule the dentist": nothing is scheduled
        return unasked
    if (supposed := only_supposed(text)) is not None:  # "If I had a meeting at 3, would you remind me?": nothing is done (rule 257)
        return (supposed,)
    if (kept := unkept(text)) is not None:  # "Don't remember this, but my salary is 85k": nothing of it is stored
        if erased := [i for i in intents_in(kept) if i.kind == "forget"]:
            return tuple(erased)  # rule 118: "Erase my phone number, I'd rather you didn't keep it": the reason of a delete
        return tuple(i for i in intents_in(about_the_value(kept)) if i.kind not in NOT_ASKED) + (Intent("unkept"),)
    if (wanted := wanted_instead(text)) is not None:  # "I don't want 5 plus 3, I want 5 times 3": only what is wanted
        return intents_in(wanted)
    if swapped_for := replaced(text):  # "I sold the Corolla and bought a Tesla": the old one goes, the new one is kept (rule 196)
        return (swapped_for,)
    if update := updated(text) or changed_to(text):  # "Change my city to Bristol": the memory named, corrected (rule 196, 280)
        return (update,)
    if recounted := counted_anew(text):  # "we had another baby, so it's three kids now": the count memory holds is replaced (rule 199)
        return (recounted,)
    text = arithmetic.said_plainly(arithmetic.thousands_joined(text))  # "1,200 a month", "three friends plus me" (rule 171)
    if share := arithmetic.share_of_group(text):  # "9 out of 10 dentists agree. How many is that?": 90%, never 19 (rule 292)
        return (Intent("calculate", {"expression": share[0], "unit": share[1]}),)
    if shared := arithmetic.formula_filled(text) or arithmetic.contents_shared(text) or arithmetic.each_gets(text):  # "the formula is (F-32)*5/9" with "68 F" (rule 371); "5 friends share 2 pizzas with 8 slices each" (rule 370); "6 nephews with 42 marbles, how many does each get?" (rule 400)
        return (Intent("calculate", {"expression": shared}),)
    if needed := arithmetic.time_at_rate(text):  # "15 pages per minute, how long for 90 pages?" is 90 / 15 minutes (rule 401)
        return (Intent("calculate", {"expression": needed[0], "unit": needed[1]}),)
    if ages := arithmetic.ages_added(text):  # "Add the ages: the twins, aged 7, and Leo, 12": 7 + 7 + 12 (rule 246)
        return (Intent("calculate", {"expression": ages}),)
    if covered := less_what_others_cover(text):  # "rent is 1450 a month and my roommate covers 600 of it" (rule 226)
        return covered
    if supposed := with_the_supposed_amount(text):  # "If the bill were 80 instead of 60, what would a 15% tip be?" (rule 229)
        return supposed
    if part := portions.share_of_stated(text) or portions.company_counted(text):  # "I cover 40% of it", "me included" (rules 210-211)
        return (Intent("calculate", {"expression": part[0]}) if part[0] else Intent("unsure", {"unread": part[1]}),)
    if converted := arithmetic.measure_converted(text):  # "a bag of rice is 2.5 kg, how many grams is that?" (rule 293)
        return (Intent("calculate", {"expression": converted[0]}) if converted[0] else Intent("unsure", {"unread": converted[1]}),)
    if duration := arithmetic.one_duration(text):  # "3 hours 20 minutes: how many minutes?" is 3 * 60 + 20 (rule 190)
        return (Intent("calculate", {"expression": duration[0]}) if duration[0] else Intent("unsure", {"unread": duration[1]}),)
    if filled := arithmetic.containers_filled(text):  # "A box holds 24 eggs. I have 9 boxes and break 13": 9 * 24 - 13 (rule 171)
        return (Intent("calculate", {"expression": filled[0]}) if filled[0] else Intent("unsure", {"unread": filled[1]}),)
    if undone := arithmetic.before_the_cut(text) or arithmetic.count_of_each(text) \
            or arithmetic.labelled_amounts(text) or arithmetic.more_than_before(text) \
            or arithmetic.added_to_what_it_holds(text) or arithmetic.spent_of_whole(text):  # "80 after a 20% discount: before?", "3 bags, each 18 kg", "Player 23 has 40. Add 7 to it" (rule 260)
        return (Intent("calculate", {"expression": undone}),)
    if dozens := arithmetic.dozens_counted(text) or arithmetic.times_in_span(text) \
            or arithmetic.percent_rise(text):  # "every 12 minutes: how many in 2 hours?", "50,000, up 10%: what would it be?" (rules 239-240)  # "Nine dozen rolls: how many rolls?" is 9 * 12 (rule 238)
        return (Intent("calculate", {"expression": dozens}),)
    if priced := arithmetic.unit_priced(text):  # "Tickets cost 12 each. How much for 5 tickets?": the count times the price
        return (Intent("calculate", {"expression": priced}),)
    if over_time := arithmetic.rate_over_span(text) or arithmetic.rate_in_another_period(text):  # "3.2 km every day. How far in a week?", "35 a week, weeks until 1000?"
        if beside := arithmetic.clause_beside_rate(text, over_time):  # "1200 a month and I split it with Jo": never a sum without it (rule 226)
            return (Intent("unsure", {"unread": beside}),)
        return (Intent("calculate", {"expression": over_time}),)
    if whole_list := of_the_list(text):  # "My marks were 82, 91 and 77. What's my average?": every listed number counts
        return (whole_list,)
    text = re.sub(r"^\W*(?:just so you know|just fyi|fyi|for your information|for the record|off the record|heads up|"
                  r"between (?:us|you and me))\W+(?=i\b|i'm\b|my\b)", "", text,
                  flags=re.I)  # "Just so you know, I'm ...": a lead-in, not part of the statement
    text = said_of_them(text)  # "My partner is called Dev and he works as a chef": two facts, both kept
    parts = [text.strip()] if given else clauses(text)  # "Count the words: I came, I saw": the text after the colon is one
    if (vague := arithmetic.unsaid_change(text)) and re.search(r"\bhow (?:many|much)\b|\bleft\b|\bnow\b", text, re.I):
        return (Intent("unsure", {"unread": vague}),)  # "He gave some to Leo, then found 6. How many now?": no number to use
    if arithmetic.spent_from_nothing(text):  # "I spend 75 on food and 40 on gas. what's left?": left of what? (rule 364)
        return (Intent("untold", {"reply": "I don't know how much you had to start with, so I can't say what's left. Tell me "
                                           "the amount and I'll take these from it."}),)
    if spent := arithmetic.change_due(text) or arithmetic.shopping(text):  # "3 notebooks at 4.75 each. Also a pen for 2.10. How much altogether?": every item
        return (Intent("calculate", {"expression": spent[0]}) if spent[0] else Intent("unsure", {"unread": spent[1]}),)
    story = arithmetic.ledger(text, unread := []) or (arithmetic.word_problem(" ".join(parts)) if len(parts) > 1 and re.search(
        r"\bhow (?:many|much|long)\b", parts[-1], re.I) else None)
    if unread:  # "... Then he squared what was left.": a step not understood is said, never a partial result (rule 337)
        return (Intent("unsure", {"unread": unread[0]}),)
    asks = text.rstrip().endswith("?") or re.search(r"\bhow (?:many|much|far|long)\b", parts[-1] if parts else "", re.I)
    told = arithmetic.story(text) if len(parts) > 1 and asks else None
    whole = None if story or told else arithmetic.story(text)
    read, before = [], None  # the clauses' own sums, chained as the loop below chains them
    for part in parts:
        before = arithmetic.expression(part, before)
        if before and read and arithmetic.wrap(read[-1]) in before:
            read.pop()
        read += [before] if before else []
    numbers = lambda expression: len(re.findall(r"\d+(?:\.\d+)?", expression))  # noqa: E731
    story = story or told or (whole if whole and (not read or numbers(whole) > sum(map(numbers, read))) else None)
    if story and (left_out := arithmetic.price_left_out(text, story) or arithmetic.clause_beside_rate(text, story)
                              or arithmetic.period_dropped(text, story)):
        return (Intent("unsure", {"unread": left_out}),)  # a total that drops an item is never given
    if story:  # "A box holds 24 pencils. How many pencils are in 5 boxes?": the story spans the sentences
        return (Intent("calculate", {"expression": story, "unit": arithmetic.rate_unit(text, story)}),)
    intents, previous = [], None
    for clause_at, clause in enumerate(parts):
        meant = re.search(rf"(?:\bnot (?P<old>{OPS}),?\s*)?\b(?:i meant|make (?:it|that)|should (?:be|have been)|i mean) (?P<new>{OPS})\b",
                          clause, re.I)
        if meant and previous and intents and intents[-1].kind == "calculate":  # "10 minus 3? no wait, I meant plus"
            intents[-1].slots["expression"] = previous = arithmetic.swap(previous, meant.group("old"), meant.group("new"))
            continue
        problem = arithmetic.word_problem(clause) if previous is None else None
        if previous and re.match(r"^\W*(?:how (?:many|much)\b|what(?:'s| is) the (?:total|answer|sum|cost|damage)\b|total\W*$|"
                                 r"(?:and )?what do (?:i|we) owe\b)", clause, re.I) and not re.search(r"\d", clause):
            continue  # "... How many apples is that?": the sum before is the question
        intent = Intent("calculate", {"expression": problem}) if problem else (restated(clause, previous) or one(clause, previous))
        moved = re.match(r"^\W*(?i:i(?:'m| am) (?:now )?at) ([A-Z][\w&.-]*(?: [A-Z][\w&.-]*)*)(?i: now)?\W*$", clause)
        if moved and intents and intents[-1].kind == "forget" and re.search(r"\bwork", intents[-1].slots.get("clause", ""), re.I):
            intent = one(f"I work at {moved.group(1)}", None)  # "I don't work at Acme anymore, I'm at Globex now"
        if intent.kind == "unknown" and (plain := as_it_is_now(set_right(clause))) != clause:
            intent = one(plain, previous)
        if intent.kind == "unknown" and (lasting := held_for_a_span(clause)):
            intent = lasting  # "I've been vegan since 2019": a fact, with how long it has held (rule 303)
        if intent.kind == "unknown" and (choice := either_or(clause)):
            intent = choice  # "Aisle or window for me when I fly?": answered from what memory says the user prefers (rule 252)
        if intent.kind == "unknown" and (negation := not_so(clause)):
            intent = Intent("not_so", {"facts": [negation]})  # "I'm not married": acknowledged, never kept as its positive
        if intent.kind == "unknown" and (lead := re.match(WRONG_LEAD, clause, re.I)):
            if clause_at + 1 < len(parts):
                if re.match(r"^\W*(?:it's|it is|it should be)\b", parts[clause_at + 1], re.I):  # "... wrong. It's the 4th."
                    parts[clause_at + 1] = f"{clause.strip(' .!')}, {parts[clause_at + 1]}"
                continue  # "You have my age wrong. I'm 29, not 30.": the lead-in to the correction that follows
            intent = Intent("correct", {"new": "", "old": "", "key": key_of(lead.group("what"))})  # alone: it asks what is right
        if (named := pointed_back(clause, parts, clause_at)) and intent.kind in ("none", "unknown", "forget"):
            intent = one(f"forget {named}", None)  # "Rex died last week. Please remove him from your notes."
            intents = [i for i in intents if i.kind not in ("unknown", "remember") or  # why, not a request nor a fact to keep
                       i.kind == "unknown" and i.slots.get("text", "").strip(" .!?") != parts[clause_at - 1].strip(" .!?") or
                       i.kind == "remember" and named.lower() not in parts[clause_at - 1].lower()]
        if intent.kind == "none" and re.fullmatch(rf"\W*(?:(?:please|pls|just|so|and)\s+)*{FORGET}\s+(?:him|her|them)(?:\s+(?:too|please|now|(?:in|on|from) (?:your|my|the) (?:memory|notes|records?)|on file))?\W*",
                                                  clause, re.I) and not named:
            intent = Intent("whom", {"said": clause.strip(" .!?")})  # "Forget her." with no one named: asked, never guessed (rule 198)
        if intent.kind == "forget" and intents and intents[-1].kind == "unknown" and not parts[clause_at - 1].rstrip().endswith("?") \
                and not re.match(r"^\W*(?:is|are|was|were|do|does|did|can|could|will|would|what|which|who|where|when|why|how)\b",
                                 parts[clause_at - 1], re.I):
            intents.pop()  # rule 162: "Biscuit died last week. Please delete anything about my pet.": why, not a request
        if intent.kind == "unknown" and intents and intents[-1].kind == "forget" and \
                re.match(r"^\W*(?:and )?(?:my|the|where|what|when)\b", clause, re.I):
            intent = one(f"forget {clause}", None)  # "forget my sister's name and my birthday too"
        if intent.kind == "unknown" and intents and intents[-1].kind in ("forget", "remember", "correct") and \
                re.match(r"^\W*(?:she|he|they|it|we)\b", clause, re.I):
            continue  # "forget about the cat - she passed away last week": why, not a request
        if intent.kind == "calculate" and previous and arithmetic.wrap(previous) in intent.slots["expression"]:
            intents.pop()  # "..., then multiply the result by 5": one expression, one answer
        previous = intent.slots["expression"] if intent.kind == "calculate" else None
        if intent.kind == "forget" and intent.slots.get("stale") and intents and intents[-1].kind == "cancel":
            continue  # "Cancel my yoga reminder, I quit the class.": why it is cancelled, not a memory to delete
        again = re.match(r"^\W*(?:and|also|then|now)?\s*(?:(?:what|how) about|the same (?:for|with))?\s*[\"“'‘](?P<x>[^\"”’]+)[\"”'’]\W*$",
                         clause, re.I)
        if intent.kind == "unknown" and again and intents and intents[-1].kind == "text":
            intent = Intent("text", {**intents[-1].slots, "text": again.group("x")})  # "Reverse 'abc'. And 'xyz'?": the same again
        if intent.kind == "unknown" and intents and intents[-1].kind == "move" and re.match(SAME_TIME, clause, re.I):
            continue  # "Move the dentist to Thursday. Same time.": a move keeps its time unless a new one is said
        if intent.kind == "pointer" and any(i.kind == "remember" for i in intents):
            continue  # "My flat is 221B. Please note the flat number.": the fact already said is the one to keep
        if intent.kind == "pointer" and intent.slots["what"] and not names_a_fact(intent.slots["what"]) and not intent.slots.get("kept"):
            intent = note_of(intent.slots["what"])  # "Remember the milk", said alone: the note itself
        if intent.kind == "remember" and intents and intents[-1].kind == "remember" and not intent.slots.get("note"):
            intents[-1].slots["facts"] += intent.slots["facts"]
        elif intent.kind != "none":
            intents.append(intent)
    return tuple(last_said(without_asides(without_form_asides(intents))))


def less_what_others_cover(text: str) -> tuple | None:
    """Rule 226: a story where someone else covers part of an amount is the sum of the story without that clause, the
    part taken off the amount (asked what the user pays) or put in its place (asked what the other pays). Asked
    neither, or a sum that does not hold the amount once, it says which part it could not place, never a sum without it."""
    if not (covered := portions.covered_by_others(text)):
        return None
    rest, amount, part, asked, clause = covered
    unplaced = (Intent("unsure", {"unread": clause}),)
    if amount is None:  # "I bought 3 shirts at 20 each and my mum paid for one": no number to take off
        return unplaced
    sums = [i for i in intents_in(rest) if i.kind == "calculate"]
    if not sums and asked == "mine":  # "The repair was 700 and my dad covered 300. How much did I pay?"
        return (Intent("calculate", {"expression": f"{amount} - {part}"}),)
    at = rf"(?<![\d.]){re.escape(amount)}(?![\d.])"
    if not asked or len(sums) != 1 or len(re.findall(at, sums[0].slots["expression"])) != 1:
        return unplaced
    placed = f"({amount} - {part})" if asked == "mine" else part
    return (Intent("calculate", {"expression": re.sub(at, placed, sums[0].slots["expression"])}),)


SUPPOSED = r"^\W*(?:(?:so|and|ok|okay),?\s+)?(?:what if|if|suppose|supposing|say|imagine|assuming)\s+(?:that\s+)?"
INSTEAD = r",?\s*(?:instead of|rather than|and not|not)\s+[$€£]?\d+(?:\.\d+)?(?:\s*(?:dollars|euros|pounds|bucks|quid))?\b"


def with_the_supposed_amount(text: str) -> tuple | None:
    """Rule 229: a what-if that swaps an amount ("If the bill were 80 dollars instead of 60, what would a 15% tip on it
    be?", "Suppose the rent was 1500 rather than 1400 ...") and asks a sum is computed with the supposed amount, as if
    stated; nothing of it is kept. A what-if that asks no sum (a statement, "would you remember it?") is left to the
    other rules."""
    if not re.match(SUPPOSED, text, re.I) or not re.search(INSTEAD, text, re.I):
        return None
    said = re.sub(INSTEAD, "", re.sub(SUPPOSED, "", text, count=1, flags=re.I), count=1, flags=re.I)
    said = re.sub(r"\b(?:were|was)\b", "is", said, count=1, flags=re.I)
    said = re.sub(r"^(\s*)i had\b", r"\1I have", said, count=1, flags=re.I)
    sums = [i for i in intents_in(said[:1].upper() + said[1:]) if i.kind not in ("none", "unknown", "remember")]
    return tuple(sums) if sums and all(i.kind in ("calculate", "unsure") for i in sums) else None


ASIDE = (r"^\W*(?:(?:but|and|so|no|because)\W+)?(?:i (?:never|didn't|did not|don't think i) (?:ever )?(?:say|said|tell you|told you|mention|"
         r"mentioned)(?: (?:that|so|it|this))?(?: to you)?|that(?:'s| is| was) (?:not (?:true|right|correct|me)|wrong|false|incorrect|a mistake|"
         r"out of date|old news)|you(?:'ve| have)? got (?:that|it|this) wrong|(?:i have |i've )?no idea where you got that(?: from)?|"
         r"where did you get that(?: from)?|not any more|not anymore|(?:big |good |great )?news|guess what|"
         r"i (?:just |finally )?got (?:promoted|a promotion|a new job|the job)|i(?:'ve| have) (?:just )?been promoted|"
         r"i (?:changed|switched) (?:jobs|careers))\W*$")  # rule 249: "I got promoted, I'm now the cafe manager": news, then the fact


def without_asides(intents: list) -> list:
    """Rule 200: a comment on what memory holds ("I never said that", "that's out of date") beside a change to it ("I'm
    not a teacher. I never said that.") is why, not a request to decline: only the change is answered."""
    if not any(i.kind in ("forget", "correct", "remember", "replace", "recount", "not_so") for i in intents):
        return intents
    return unread_unless(intents, ASIDE)


def unread_unless(intents: list, aside: str) -> list:
    """The intents without the clauses it could not read that are only an aside of the kind `aside` matches."""
    return [i for i in intents if i.kind != "unknown" or not re.match(aside, i.slots.get("text", ""), re.I)]


FORM_ASIDE = (r"^\W*(?:(?:and|but|so|please|pls|just|oh|ok|okay)\W+)*(?:(?:there's |there is )?no need to (?:explain|show (?:the |your |any )?"
              r"(?:working|work|steps)|elaborate|go into detail)|(?:don't|do not|dont) (?:explain|elaborate|show (?:the |your |any )?(?:working|work|steps))"
              r"(?: it| anything)?|no (?:explanation|explaining|working|details?)(?: (?:needed|necessary|required|please))?|"
              r"(?:keep it|be) (?:short|brief|quick)|short answer|briefly|quick(?:ly)?|"
              r"(?:only|just) (?:the|give me the) (?:number|answer|result|total)(?: please)?)\W*(?:please|pls|thanks|thank you)?\W*$")


def without_form_asides(intents: list) -> list:
    """Rule 300: an aside about the reply's form beside a request ("what's 14 + 15? no need to explain", "keep it
    short") is honoured, not declined: the model's replies are already the bare answer."""
    if not any(i.kind not in ("unknown", "none") for i in intents):
        return intents
    return unread_unless(intents, FORM_ASIDE)


NOT_ASKED = {"remember", "not_so", "forget", "pointer", "unknown", "joke", "smalltalk", "greet", "okay", "thanks", "bye", "none"}  # said, not asked for
RETRACTION = (r"(?:^|(?<=[.!?,;:\-–—])|(?<=\.\.\.))\s*(?:(?:no|oh|ok|okay|sorry|haha|lol|wait|actually)\W+)?(?:just kidding|jk|j/k|kidding|"
              r"(?:scratch|forget|ignore|disregard|cancel) (?:that|this)(?=\s*[,.!;:\-–—])|forget (?:it|about it)(?=\s*[,.!;:\-–—])|never ?mind(?: that)?(?=\s*[,.!;:\-–—])|"
              r"no wait|wait,? no)\b[\s,.!:;\-–—]*(?=\w)|(?<=\?)\s*(?:actually|sorry|oops|or rather|i mean|wait)\b[\s,.!:;\-–—]*(?=\w)")
# ("... ? actually, what's 10 plus 4?": a question taken back by the next one; a statement is never taken back by "actually")
UNKEPT = (r"(?<!\bi )(?<!\bwe )\b(?:(?:please|pls|just)\s+)?(?:don't|do not|dont|never|no need to|you (?:shouldn't|mustn't|needn't)|(?:i'd|i would) rather you didn't)\s+(?:remember|save|store|keep|note|jot|write|"
          r"record|log|memori[sz]e)(?:\s+(?:this|that|it|one))(?:\s+(?:down|in mind|on file|anywhere|please|pls))*(?=\s*(?:[,.!;:\-–—]|but\b|$))")


def of_the_list(text: str) -> Intent | None:
    """An average or a total asked of the one list of numbers the message gives, however far apart ("I scored 14, 22
    and 9 this season. What's the mean?"): all of them. None when it asks neither or gives no single list."""
    mean = re.search(r"\baverage\b|\b(?:the|my|a|their|our|his|her) mean\b", text, re.I)
    total = re.search(r"\b(?:in total|altogether|all together|the total|the sum|combined)\b", text, re.I)
    if not (mean or total) or re.search(r"\b(?:average|mean|total|sum) of\s+(?:the numbers\s+|these\s+)?-?\d", text, re.I) or \
            not re.search(r"\?|\b(?:what|work out|calculate|find|tell)\b|^\W*(?:please |can you |could you )?(?:average|total)\b", text, re.I):
        return None
    plain = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text.replace("R", ""))  # 1,200 is one number
    lists = [m.group() for m in re.finditer(rf"(?<![\d.]){arithmetic.LIST}", plain)] or labelled_list(plain)
    if len(lists) != 1:
        return None
    return Intent("calculate", {"expression": arithmetic.expression(f"the {'average' if mean else 'sum'} of {lists[0]}")})


def labelled_list(text: str) -> list:
    """"the average temperature: Monday 12, Tuesday 15, Wednesday 9": numbers each after one label, after a colon, as
    one list ("12, 15 and 9"); [] for any other shape."""
    found = re.search(r":\s*((?:[A-Za-z]+\s+)?-?\d+(?:\.\d+)?(?:\s*(?:,|;|\band\b)\s*(?:and\s+)?(?:[A-Za-z]+\s+)?-?\d+(?:\.\d+)?)+)\W*$", text)
    numbers = re.findall(r"-?\d+(?:\.\d+)?", found.group(1)) if found else []
    return [", ".join(numbers[:-1]) + f" and {numbers[-1]}"] if len(numbers) > 1 else []


WRONG_LEAD = r"^\W*(?:you(?:'ve| have)? got|you have|you've) (?:my|our) (?P<what>[a-z' ]+?) (?:wrong|mixed up|incorrect)\W*$"
SPELLING = r",?\s+(?:with(?:out)? (?:one|two|a double|a single|an?|the) [a-z]{1,2}(?:'?s)?|spelt [^,]+?|spelled [^,]+?)(?=,|\s+not\b|\W*$)"  # an aside


def set_right(clause: str) -> str:
    """"You've got my wife's name wrong, it's Ana with one n, not Anna" is "my wife's name is Ana, not Anna": what
    is wrong, said as it is (a spelling aside left out)."""
    wrong = re.match(r"^\W*(?:you(?:'ve| have)? got|you have|you've) (?P<what>(?:my|our) [a-z' ]+?) (?:wrong|mixed up|incorrect),?\s*"
                     r"(?:(?:it's|it is|it should be)\s+|(?P<mine>(?=i\b|i'm\b|my\b)))(?P<right>.+)$", clause, re.I)
    if not wrong:
        return this_not_that(clause)
    if wrong.group("mine") is not None:  # "You have my age wrong, I'm 41 not 40": the statement says it
        return this_not_that(re.sub(SPELLING, "", wrong.group("right"), flags=re.I))
    right = re.sub(SPELLING, "", wrong.group("right"), flags=re.I)
    right = re.sub(r"(?<!,)\s+not\s+", ", not ", right, count=1, flags=re.I)  # "Rolo not Polo": "Rolo, not Polo"
    return f"{wrong.group('what')} is {right}"


NOT_SO = (rf"^\W*{statements.OPENERS}i(?:'m| am) (?:not|never) (?P<what>(?:an? |the )?[a-z]+(?: [a-z]+){{0,3}})\W*$|"
          rf"^\W*{statements.OPENERS}i (?:don't|do not|never) (?P<verb>[a-z]+)(?P<rest>(?: [a-z0-9'-]+){{0,4}})\W*$")
PASSING = r"(?:sure|certain|ok|okay|fine|ready|done|here|there|able|allowed|kidding|joking|[a-z]+ing)$"  # a moment, not a fact


def not_so(clause: str) -> tuple[str, str] | None:
    """A plain negated statement about oneself, read as said and never as its positive: "I'm not married" ->
    ("user_is", "not married"), "I don't drive" -> ("user_does", "not drive"); None for a passing state ("I'm not
    sure", "I'm not kidding"), a verb of thinking or wanting ("I don't know"), or anything not so plain."""
    clause = re.sub(r",?\s+(?:and\s+)?(?:(?:i\s+)?never (?:have|had|did|will)|at all|whatsoever|ever|either)\W*$", "", clause.strip(), flags=re.I)
    found = re.match(NOT_SO, clause, re.I)  # "I don't have any pets, never have": its emphasis is no part of it (rule 321)
    if not found:
        return None
    if found.group("what"):
        what = found.group("what").lower()
        return None if re.match(PASSING, what.split()[0]) else ("user_is", f"not {what}")
    verb = found.group("verb").lower()
    if verb in statements.MODALS | statements.AUXILIARIES - {"have"} | statements.NOT_FACT_VERBS | {
            "like", "love", "enjoy", "mind", "care", "remember", "forget", "understand", "agree", "get", "see", "say", "mean"}:
        return None
    return "user_does", f"not {verb}{found.group('rest')}"


def this_not_that(clause: str) -> str:
    """"I'm 41 not 40" is "I'm 41, not 40": a value, then the one it replaces (one word each, so "I do not like" is left);
    "Tom isn't my cat's name, it's Tim" is "my cat's name isn't Tom, it's Tim"; "It's John, not Jon" is "it's not Jon,
    it's John"."""
    turned = re.match(r"^\W*(?P<a>[\w'-]+(?: [\w'-]+)?) (?:isn't|is not|wasn't|was not) (?P<x>my [a-z' ]+?),\s*"
                      r"(?P<rest>(?:it's|it is|that's|that is) .+)$", clause, re.I)
    if turned:
        return f"{turned.group('x')} isn't {turned.group('a')}, {turned.group('rest')}"
    if said := re.match(r"^\W*(?:it's|it is) (?P<b>[^,]+?),? not (?P<a>[^,.!?]+?)[.!]*$", clause, re.I):
        return f"it's not {said.group('a')}, it's {said.group('b')}"
    return re.sub(r"^(\W*i(?:'m| am) [\w.-]+) not (?=[\w.-]+\W*$)", r"\1, not ", clause, flags=re.I)


EMPHASISED = {statements.lemma(v) for base, near in statements.NEAR_VERBS.items() for v in (base, *near)} | {
    statements.lemma(v) for v in ("eat", "play", "smoke", "enjoy", "need", "use", "wear", "watch", "support", "follow")}  # "I do X"


def as_it_is_now(clause: str) -> str:
    """A statement of what still holds, said in the present and plainly: "I've been learning the cello for two years"
    is "I am learning the cello for two years", "My daughter Emma just turned 7" is "My daughter Emma is 7", "I just
    don't like mushrooms" is "I don't like mushrooms", "I do own a bike" is "I own a bike"."""
    clause = re.sub(r"^(\W*i)\s+(?:just|really|simply|honestly|genuinely|also|still)\s+(?=\w)", r"\1 ", clause, flags=re.I)
    clause = re.sub(r"^(\W*i) do (?=([a-z]+)\b)", lambda m: f"{m[1]} " if statements.lemma(m[2]) in EMPHASISED or re.match(
        r"[a-z]+ (?:an?|the|some|two|three|[A-Z])\b", clause[m.end():]) else m[0], clause, flags=re.I)  # "I do have": emphasis (rule 347)
    clause = re.sub(r"^(\W*)i(?:'ve| have) been (?=[a-z]+ing\b)", r"\1I am ", clause, flags=re.I)
    clause = re.sub(r"^(\W*)i (?:just |recently )?turned (\d+)(?: (?:last (?:week|month)|yesterday|today|this (?:week|month)))?(?=\W*$)",
                    r"\1I am \2", clause, flags=re.I)  # "I turned 35 yesterday": the age now (rule 199)
    return re.sub(r"^(\W*(?i:my) [a-z]+(?: [A-Z][a-z]+)?) (?i:just |recently )?(?i:turned) (\d+)(?i: (?:last (?:week|month)|yesterday|today|"
                  r"this (?:week|month)))?(?=\W*$)", r"\1 is \2", clause)


SPAN = (r"(?:since\s+[^,.;!?]+?|for\s+(?:(?:\d+|a|an|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|"
        r"thirty|a few|a couple of|several|many|some|over|almost|nearly|about)\s+)*(?:years?|months?|decades?|weeks?|ages|a while|"
        r"a long time|a bit|ever|life|my whole life))")


def held_for_a_span(clause: str) -> Intent | None:
    """Rule 303: "I've been vegan since 2019", "I have been a nurse for ten years", "I've been married for a while now":
    a durable fact with a start or a duration is a fact like any other, kept with how long it has held ("vegan since
    2019"). None when what is left is no fact ("I've been never ...", a question) or says nothing it can keep."""
    found = re.match(rf"^\W*i(?:'ve| have) been (?!(?:never|not|there|here|away|busy|sick|ill|tired|waiting)\b)(?P<state>[^,.;!?]+?)"
                     rf"\s+(?P<span>{SPAN})(?:\s+now)?(?:,?\s+(?:by the way|btw|fyi))?\W*$", clause, re.I)
    if not found or re.search(r"\b\w+ing\b", found.group("state")):
        return None
    said = one(f"I am {found.group('state')}", None)
    if said.kind != "remember":
        return None
    return Intent("remember", {**said.slots, "facts": [(k, f"{v} {found.group('span')}") for k, v in said.slots["facts"]]})


def pointed_back(clause: str, parts: list, at: int) -> str | None:
    """Whom "remove him/her/them" means: the one named before it in the same sentence ("Alex and I broke up, so remove
    him" -> "Alex", rule 198), else the one the clause before is about ("Rex passed away ..." -> "Rex", "My old hamster
    died ..." -> "my old hamster"), or None. "Forget it" stays "never mind"; "delete her number" is her number."""
    kept_in = r"(?:(?:in|on) (?:your|my|the) (?:memory|notes|file|records?|list|brain|system)|on file)\b"  # "don't keep him in your notes"
    verb = re.search(rf"\b{FORGET}\s+(?:him|her|them)(?=\s*(?:$|[,.!?;]|(?:from|out|off|too|as well|please|now|completely|for good)\b|"
                     rf"{kept_in}))|\b(?:don't|do not) want (?:him|her|them) (?={kept_in})", clause, re.I)
    if not verb:
        return None
    if who := named_before(clause[:verb.start()]):
        return who
    if at == 0:
        return None
    about = re.match(r"^\W*(?P<who>(?i:my|our) [a-z]+(?: [a-z]+)?|[A-Z][a-z]+)(?= (?:just |sadly )?(?:is|was|has|had|died|passed|left|"
                     r"moved|went|got|ran)\b)", parts[at - 1])
    return about.group("who") if about and not re.fullmatch(NOT_A_NAME, about.group("who")) else named_before(" and ".join(parts[:at]))


NOT_A_NAME = (r"(?:I|We|You|He|She|They|It|This|That|These|Those|Please|So|And|But|Then|Also|Oh|Ok|Okay|Well|Sadly|Now|"
              r"Yesterday|Today|Last|My|Our|The|A|An|Since|Because|As|After|When|Just|Actually|Anyway|Sorry|Hey|Hi|Yes|No|Could|Can|"
              r"Would|Will|Do|Does|Did|Is|Are|What|Who|Where|How|Why)")


def named_before(before: str) -> str | None:
    """Rule 198: whom a pronoun points back to in the words before it: a name said with "and I" or after "with"
    ("Alex and I broke up", "I split up with Jo"), else a person or thing of the user's ("my ex", "the cat"), else a
    name that opens the sentence ("Rex died"); None when none is there."""
    for pattern in (r"\b(?P<who>[A-Z][a-z]+) and (?:I|me)\b", r"\b(?:with|from|to|about|of|and) (?P<who>[A-Z][a-z]+)\b",
                    r"\b(?P<who>(?i:my|our|the) (?:(?i:ex|old|former|late|previous)[- ])?(?i:[a-z]+))\b",
                    r"^\W*(?P<who>[A-Z][a-z]+)(?= (?:just |sadly )?(?:is|was|has|had|died|passed|left|moved|went|got|ran)\b)"):
        for found in re.finditer(pattern, before):
            if not re.fullmatch(NOT_A_NAME, found.group("who")):
                return found.group("who")
    return None


SARCASM = (r"(?:[.!,;…]|\s[-–—])\s*(?:not|yeah,? right|as if)\W*$|\s/s\W*$|,?\s*(?:[-–—]\s*)?said no(?: ?one|body),? ever\W*$|"
           r"^\W*(?:(?:oh|ah|ya|yeah|yes)\W+)*(?:yeah,? right|as if)\b\W*")  # a mark of sarcasm at either end


CHECKED = (r"^\W*(?:(?:wait|hold on|hang on|so|oh|huh|hmm+|um+|really|sorry|and|but|ok|okay|what)\W+)*i(?:(?P<be>'m| am)|(?P<have>'ve))?\s+"
           r"(?P<what>[^?.!;]+?)(?:,?\s*(?:right|correct))?\s*\?+\W*$")
NOT_CHECKED = (r"(?:can|could|would|should|will|shall|may|might|must|do|did|don't|didn't|wonder|want|wanna|need|think|guess|mean|"
               r"hope|wish|ask|asked|wondered|forgot|forget|know|see|get it|understand)\b|.*\b(?:what|how|why|when|where|which|who|whether|if)\b")


def checked_back(text: str) -> str:
    """Rule 434: a statement of the user's own said as a question ("wait, I'm allergic to cats?", "so I live in
    Paris??", "I'm 34, right?") checks what is known: it is read as the question ("am I allergic to cats?",
    "do I live in Paris?"), never kept as a fact. "I wonder ...?", "I need to know how ...?" are not such checks."""
    said = re.match(CHECKED, text.strip(), re.I)
    if not said or re.match(NOT_CHECKED, said["what"], re.I) or (not said["be"] and re.match(r"[a-z]+ed\b|.*\d", said["what"], re.I)):
        return text
    if said["be"]:
        return f"am I {said['what']}?"
    return f"have I {said['what']}?" if said["have"] else f"do I {said['what']}?"


def sarcastic(text: str) -> tuple | None:
    """Rule 425: a statement marked plainly as sarcasm ("I just LOVE getting up at 5am. not.", "... /s", "yeah right,
    ...", "as if I ...", "... said no one ever") is no fact of the user's: what it states is never kept (nor its
    opposite guessed), and a question beside it is still read. None when no such mark ends a statement."""
    found = re.search(SARCASM, text, re.I)
    if not found:
        return None
    rest = (text[:found.start()] + " " + text[found.end():]).strip()
    read = intents_in(rest) if rest else ()
    if not any(i.kind in ("remember", "not_so", "several") for i in read) and not (
            all(i.kind == "unknown" for i in read) and re.search(r"\b(?:i|i'm|my)\b", rest, re.I)):
        return None  # an unread statement of the user's is still sarcasm, never "no rule for" it
    return (Intent("hypothetical", {"about": "sarcasm"}),) + tuple(i for i in read if i.kind not in NOT_ASKED)


def retracted(text: str) -> str | None:
    """What is left after a retraction ("just kidding", "scratch that,") that a new request follows, or None."""
    found = list(re.finditer(RETRACTION, text, re.I))
    return text[found[-1].end():] if found and text[:found[-1].start()].strip(" .,!?;:-–—") else None


NOT_THIS = (r"(?:(?:(?:i|we)\s+)?(?:don't|do not|dont|didn't|did not)(?:\s+(?:want|need|mean|ask(?:ed)? for)(?:\s+(?:you\s+)?to)?)?|"
            r"(?:i|we)\s*(?:'m|am|are|'re)\s+not\s+(?:going to|gonna|asking(?: for| you to)?|looking for)|(?:i|we)\s+(?:won't|will not)|"
            r"not|instead of|rather than)")
WANTED_LEAD = (r"^\W*(?:(?:but|just|instead|rather|please|so)\W+)*(?:(?:i|we)\s*(?:want|need|mean|meant|'d like|would like|'ll|will|"
               r"(?:'m|am|are|'re) (?:going to|gonna|asking(?: for| you to)?))(?:\s+(?:you\s+)?to)?\s+)?(?:(?:instead|rather)\W+)?")
OPERANDS_AGAIN = r"\b(?:them|those|these|both|it|that|the same numbers?|the numbers|the same)\b"


def wanted_instead(text: str) -> str | None:
    """"I don't want 5 plus 3, I want 5 times 3", "instead of X, Y", "rather than X, Y", "Y, not X", "Y instead of X": only Y is
    asked for (X's numbers or quoted text carried into "them"/"it" in Y); None when the message is not shaped so."""
    ahead = re.match(rf"^\W*(?:(?:no|oh|sorry|actually|so|but|ok|okay)\W+)*{NOT_THIS}\s+(?P<x>[^,;:.!?–—]+?)\s*"
                     rf"(?:[,;:.!?]|\s[-–—]|(?=\s+but\b))\s*(?P<y>.+)$", text, re.I | re.S)
    after = re.match(r"^(?P<y>.+?)(?:\s*[,;]\s*|\s+[-–—]\s*|\s+(?=instead of|rather than))(?:and\s+|but\s+)?"
                     r"(?:instead of|rather than|not)\s+(?P<x>[^,;:!?]+?)\W*$", text, re.I | re.S)
    for found in (ahead, after):
        if not found:
            continue
        unwanted, wanted = found.group("x"), re.sub(WANTED_LEAD, "", found.group("y"), flags=re.I)
        if all(i.kind in NOT_ASKED | {"correct"} for i in intents_in(unwanted)):
            continue  # "I don't want coffee, I want tea", "it's May 13, not May 3": no request is turned down
        operands = re.findall(r"[\"“'‘][^\"”'’]+[\"”'’]", unwanted) or re.findall(r"-?\d+(?:\.\d+)?", unwanted)
        if operands and not re.search(r"\d|[\"“'‘]", wanted):
            wanted = re.sub(OPERANDS_AGAIN, " and ".join(operands), wanted, count=1, flags=re.I)
        if any(i.kind not in NOT_ASKED | {"correct"} for i in intents_in(wanted)):
            return wanted
    return None


FRONTED = (r"^\W*(?P<lead>(?:(?:that|the) (?:thing|stuff|bit|part|info|detail|note)s?(?: (?:i|we) (?:told|gave|said to|mentioned to) you|"
           r" (?:i|we) (?:said|mentioned|shared|told you)(?: (?:earlier|before|yesterday))?)? (?:about|on|regarding)|"
           r"what (?:i|we) (?:told you|said|mentioned|shared)(?: (?:earlier|before|yesterday))? (?:about|on)|about|as for|regarding|re:?)\s+)?"
           r"(?P<what>(?:my|our|the) [^.?!,;:\-–—]+?|where (?:i|we) [a-z]+)\s*(?:[-–—:,;?.!]+\s*)+(?:(?:ok|okay|so|please|pls|just|actually|"
           r"you can|can you|could you)\s+)*")


SELF_FIX = (r"(?:(?<=[.!?,;:])|\s[-–—])\s*(?P<m>(?:(?:oh|um|uh|er|erm|hmm|hang on|wait|whoops|oops|correction|my bad|my mistake|"
            r"scratch that|i mean|i meant|or rather|rather|make that|actually|never ?mind|(?:no|nope|sorry)(?=\s*(?:[,.!:;\-–—]|wait\b|"
            r"actually\b|sorry\b|i mean\b|i meant\b)))\b[\s,.!:;\-–—]*)+)")
EXPLAINED = r"^\W*(?:(?:that|this)(?:'s| is| was| were)(?! (?:right|correct|true|it)\b)|(?:it|that)(?:'s| is| was) not)\b"  # "that's my neighbour's cat": why, not a fact


def corrected_in_place(text: str) -> str | None:
    """A statement corrected inside the same message, as only the corrected statement: "My sister is Ann. Oops, I meant
    Anna" -> "My sister is Anna"; "I'm 34, sorry, 35" -> "I'm 35"; "My cat is called Tom. Wait, no, that's my neighbour's
    cat. Mine is called Tabby" -> "my cat is called Tabby" ("mine" is the thing taken back). "" when all that follows
    only takes it back; None when nothing is corrected (no statement before the marker, or no new value after it)."""
    for mark in re.finditer(SELF_FIX, text, re.I):
        before, after = text[:mark.start()].strip(" ,;-–—"), text[mark.end():].strip()
        said = clauses(before)[-1] if before else ""
        facts = [f for i in intents_in(said) if i.kind == "remember" for f in i.slots["facts"]] if said else []
        if not facts or not re.sub(r"\bactually\b|\W", "", mark.group("m"), flags=re.I) and not bare(after):
            continue  # "actually" alone before a whole statement: the later statement replaces it anyway
        rest = clauses(after)
        while rest and re.match(EXPLAINED, rest[0], re.I):
            rest = rest[1:]
        kept = before[:len(before) - len(said)] if before.endswith(said) else None
        if kept is None:
            return None
        if not rest:
            return kept.strip() if rest != clauses(after) else None
        thing = re.match(r"(?:[a-z]+_)?([a-z]+)_name$", facts[-1][0]) or re.match(r"my (?:[a-z]+ )?([a-z]+)\b", said, re.I)
        first = re.sub(r"^\W*(?:mine|my one|ours)\b", f"my {thing.group(1)}" if thing else "mine", rest[0], flags=re.I)
        if bare(first):
            value = re.sub(r"^(?:it(?:'s| is| was)|that(?:'s| is)|(?:it |that )?should be|make (?:it|that)|i mean|i meant)\s+", "",
                           re.sub(SPELLING, "", first.strip(" .!"), flags=re.I), flags=re.I)  # "John with an h": John
            old = facts[-1][1]
            at = said.lower().rfind(old.lower())
            if at < 0:
                return None
            prep = re.match(rf"(?:{PREPS})\s+", value, re.I)
            if prep and said[:at].lower().endswith(" " + prep.group().lower()):  # "I'm allergic to nuts, or rather, to peanuts"
                value = value[prep.end():]
            elif not prep and (kept_prep := re.match(rf"(?:{PREPS})\s+", old, re.I)):  # "lives in Rome - wait, no, Milan"
                value = kept_prep.group() + value
            first = said[:at] + value + said[at + len(old):]
        elif not (now := stated(first)) or now[-1][0] != facts[-1][0] or now[-1][0] in LISTS:
            return None  # "I'm 30. Sorry, my English is bad": another subject is no correction; a like joins the likes
        return " ".join([kept.strip(), first.rstrip(".") + ".", *rest[1:]]).strip()
    return None


PREPS = r"in|at|on|to|from|as|for|with|by"


def bare(words: str) -> bool:
    """A value said alone, as a correction gives it ("Anna", "it's blue", "the 13th"): a few words, no statement, no request."""
    words = re.sub(r"^(?:it(?:'s| is| was)|that(?:'s| is)|(?:it |that )?should be|make (?:it|that)|i mean|i meant)\s+", "",
                   words.strip(" .!"), flags=re.I)
    words = re.sub(rf"^(?:{PREPS})\s+", "", words, flags=re.I)  # "to peanuts"
    return bool(re.fullmatch(r"(?:an?\s+|the\s+)?[\w'.@+-]+(?:\s+[\w'.@+-]+){0,3}", words)) and not re.search(
        r"\b(?:i|i'm|my|me|we|you|your|what|how|why|who|where|when|please|for|about|to|if|but)\b", words, re.I)


PERSON = (r"\b(?:(?i:my|our) (?P<adj>(?!(?i:is|was|are)\b)(?i:[a-z]+) (?=(?i:[a-z]+)(?:'s|\s)))?(?P<x>(?!(?i:is|was|are)\b)(?i:[a-z]+))(?i:'s name is| is (?:called|named)| (?:is )?called| named)?,? "
          r"|\b(?i:an?) (?P<x2>(?i:[a-z]+)) (?i:called|named) )(?P<n>[A-Z][a-z]+)")
ANIMALS = {kind for kind, of in KIND_OF.items() if of in ("pet", "dog", "cat")}  # who "he" or "she" can be, beside people
UNNAMED = (r"\b(?i:my|our) (?P<adj>(?!(?i:is|was|are)\b)(?i:[a-z]+) (?=(?i:[a-z]+)[\s,]))?(?P<x>(?!(?i:is|was|are)\b)(?i:[a-z]+))"
           r"(?:\s+[^.!?,;]*?(?=,?\s+(?i:and)\s+(?i:he|she|they)\b))?")  # "My grandad, who is 92, ...", "My dad is a builder and he ..."
LINKED = (r"(?P<link>,?\s+(?i:and)\s+(?i:he|she|they)\b|,?\s+(?i:who)\b)\s*(?P<pred>(?:'s|'re)?[^.!?;,]+?)"
          r"(?P<tail>,[^.!?;]*)?(?=[.!?;]|$)")


def said_of_them(text: str) -> str:
    """A second fact about someone the user named, said in a later clause of the same sentence, as a statement of its
    own about them: "My partner is called Dev and he works as a chef" -> "... Dev. My partner Dev works as a chef.";
    "I have a sister called Rosa who is a nurse" -> "... Rosa. My sister Rosa is a nurse."; "My son Finn, who is 9,
    plays the violin" -> "My son Finn plays the violin. My son Finn is 9." ("it" is left alone: "it" is no person)."""
    found = re.search(PERSON + LINKED, text) or re.search(UNNAMED + LINKED, text)
    if not found or (found.group("x") or found.group("x2")).lower() in NOT_NAMES or \
            not found.groupdict().get("n") and found.group("x").lower().rstrip("s") not in PEOPLE | ANIMALS and \
            found.group("link").strip(" ,").lower() != "who":
        return text  # "he"/"she" is a person or a pet, never "my car" ("who" says it is one: "my grandad, who ...")
    who = f"my {(found.group('adj') or '').lower()}{(found.group('x') or found.group('x2')).lower()} {found.groupdict().get('n') or ''}".strip()
    pred = re.sub(r"^'s\b", "is", re.sub(r"^'re\b", "are", found.group("pred").strip()))
    tail = (found.group("tail") or "").strip(" ,")
    main = text[:found.start("link")]
    if found.group("link").strip(" ,").lower() == "who" and tail and not re.match(r"(?:and|but|so)\b", tail, re.I):
        main, tail = f"{main} {tail}", ""  # "My son Finn, who is 9, plays the violin": the clause around it is the main one
    rest = re.sub(r"^[.!?]+", "", text[found.end():])
    return f"{main}. {who[:1].upper()}{who[1:]} {pred}.{' ' + tail + '.' if tail else ''}{rest}"


ELLIPSIS_FILLER = r"(?:,?\s+(?:though|tho|too|also|as well|actually|instead|for sure|definitely))*"  # rule 378: never a value


def not_me_but_them(clause: str) -> Intent | None:
    """Rule 164: "I'm not allergic to shellfish, my brother is", "I don't smoke but my dad does": the user's part is a
    negation (never kept as its positive), the other's part is a fact about that person, said in full."""
    found = re.match(r"^\W*i(?:'m| am) not (?P<pred>[^,;]+?)\s*(?:[,;]|\s[-–—])?\s*(?:but |though |whereas )?"
                     rf"(?P<who>my [a-z]+(?: [a-z]+)?) (?:is|was){ELLIPSIS_FILLER}\W*$", clause, re.I)
    done = re.match(r"^\W*i (?:don't|do not|never) (?P<verb>[a-z]+)(?P<rest>[^,;]*?)\s*(?:[,;]|\s[-–—])?\s*(?:but |though |whereas )?"
                    rf"(?P<who>my [a-z]+(?: [a-z]+)?) (?:does|do){ELLIPSIS_FILLER}\W*$", clause, re.I)
    if re.fullmatch(r"\W*(?:no,?\s*)?not (?:me|mine|for me)\W*", clause, re.I):
        return Intent("none")  # "Not me - my wife is the vegetarian": what follows says whose it is
    if not (found or done):
        return None
    theirs = (f"{found.group('who')} is {found.group('pred')}" if found else
              f"{done.group('who')} {statements.third_person(done.group('verb'))}{done.group('rest')}")
    mine = one(f"I'm not {found.group('pred')}" if found else f"I don't {done.group('verb')}{done.group('rest')}", None)
    if found and re.match(r"the (?:one|person)\b", found.group("pred"), re.I):
        return None  # "I'm not the one who plays violin, my son is": said another way, not a thing of theirs to keep
    said = [i for i in (mine, one(theirs, None)) if i.kind not in ("unknown", "none")]
    return Intent("several", {"intents": said}) if any(i.kind == "remember" for i in said) else None


def dropped_but_kept(clause: str) -> Intent | None:
    """Rule 162: "forget my number, not my city", "delete my phone but not my job", "erase X but leave Y": the forget,
    with what follows "not"/"keep"/"leave" spared."""
    found = re.match(r"^(?P<drop>.+?),?\s+(?:but\s+)?(?:not|never|keep|leave)\s+(?P<kept>(?:my|the|your|our)\b[^,;]*?)"
                     r"(?:\s+(?:though|alone|please))*\W*$", clause, re.I)
    if not found or not re.search(rf"\b{FORGET}\b", found.group("drop"), re.I):
        return None
    intent = one(found.group("drop"), None)
    if intent.kind != "forget":
        return None
    intent.slots["except"] = found.group("kept")
    return intent


def kept_but_dropped(clause: str) -> Intent | None:
    """Rule 162: "Don't forget my job, but do forget where I live", "keep my car; erase the address": only the forget is a
    request (with what is kept spared); the keep asks for nothing new, and no word of the message is stored."""
    found = re.match(rf"^\W*(?:please\s+)?(?:(?:don't|do not|never)\s+(?:forget|delete|remove|erase|drop|lose)|keep|hold on to|"
                     rf"remember)\s+(?P<kept>[^,;]+?)\s*(?:[,;]|\s[-–—])?\s+(?:but|and|while|though|yet|just)?\s*(?:please\s+|do\s+|"
                     rf"you can\s+|can you\s+|go ahead and\s+)*(?P<drop>{FORGET}\b.+)$", clause, re.I)
    intent = one(found.group("drop"), None) if found else None
    if intent is None or intent.kind != "forget":
        return None
    intent.slots["except"] = intent.slots.get("except") or found.group("kept")
    return intent


DROP_VERB = r"(?:forget|delete|remove|erase|wipe|clear|unlearn|scrap|scratch|scrub|purge|drop|ditch|get rid of|bin|lose|nuke|expunge)\b"


NEWS_LABEL = r"^\W*(?:correction|update|quick update|small update|news|fyi|heads[- ]up|for the record|just so you know)\s*[:!,.–—-]\s*"


def after_news_label(text: str) -> tuple | None:
    """Rule 302: a label before news ("Correction:", "Update -", "FYI:") is no clause of its own: the intents of what
    follows it, when each of them is understood ("Correction: I sold the Mazda, I drive a Kia Niro now" replaces)."""
    label = re.match(NEWS_LABEL, text, re.I)
    if not label or not text[label.end():].strip():
        return None
    news = intents_in(text[label.end():])
    return news if news and not any(i.kind in ("unknown", "none") for i in news) else None


def restated_then_dropped(text: str) -> tuple | None:
    """Rule 284: a fact stated anew, then the old one asked to go ("I moved to Munich, so the Berlin note is wrong; remove
    it", "I work at Bosch now - delete the Siemens entry", "My email is x@y.org, bin the old one"): the statement, marked
    so that the memory held on its subject is erased beside the new one. None unless the first clause is one durable
    fact and all the rest asks only to delete something old: the old one, a note named, or "it" after a verdict that the
    old note is wrong ("My shoe size is 44 - don't keep that" and "I like tea, delete it" are no such request)."""
    cut = re.search(r"\s*(?:[,;.!]+(?=\s)|\s[-–—])\s*(?:(?:so|and|but)\s+)?", text)
    if not cut or re.search(FORGET, text[:cut.start()], re.I) or not re.search(DROP_VERB, text[cut.end():], re.I):
        return None  # cheap tests first: most messages ask no delete after a statement
    rest = text[cut.end():].strip()
    unsaid = re.sub(r"^(?:the|that|this|my)\s+(?:old\s+|previous\s+)?(?:[\w@.-]+\s+)?(?:note|entry|one|memory|fact|info|bit)\s+(?:is|was|'s)\s+"
                    r"(?:now\s+)?(?:wrong|out of date|outdated|stale|obsolete|incorrect|no longer (?:true|right|valid))\s*[,;.!-]*\s*(?:(?:so|and)\s+)?",
                    "", rest, flags=re.I)
    asked = re.match(r"^(?:(?:please|just|so|and|then|can you|could you)\s+)*" + DROP_VERB + r"\s+(?P<what>[^.;!?]+?)(?:\s+(?:please|now|too|for good|"
                     r"(?:from|out of) (?:your |my |the )?(?:memory|notes|records?)))?\W*$", unsaid, re.I)
    old = asked and re.match(r"(?:the |my )?(?:old|previous|former|outdated)\b|(?:the|that) (?:[\w@.-]+ )?(?:note|entry|memory|fact)$|"
                             r"(?-i:[A-Z])\w+$", asked["what"], re.I)
    said = [i for i in intents_in(text[:cut.start()]) if i.kind != "none"] if asked else []
    if len(said) != 1 or said[0].kind != "remember" or len(said[0].slots["facts"]) != 1 or not asked or not (old or unsaid != rest):
        return None
    return (Intent("remember", {**said[0].slots, "drop_old": asked["what"].strip()}),)


def named_before_forget(text: str) -> str | None:
    """What a forget request names before it, when its own object is only "it"/"that" ("That thing I told you about my
    salary - forget it", "The bit about my landlord, scrap that", "About my bank, forget what I said"), or None. A
    statement before it ("My shoe size is 44 - don't keep that") is no name: that is a request not to keep it."""
    found = re.match(FRONTED + rf"(?:{FORGET})\s+(?:it|that|this|what (?:i|we) said|about (?:it|that)|it all)"
                     r"(?:\s+(?:please|pls|now|too|as well))?\W*$", text, re.I)
    if not found or stated(found.group("what")) or found.group("what").lower().startswith("the ") and not found.group("lead"):
        return None  # "The weather's awful, forget it" names nothing; "The bit about the dentist - forget it" does
    return found.group("what")


def no_longer_needed(text: str) -> str | None:
    """Rule 236: "You don't need to know about Jordan anymore. Wipe that." names what to forget (Jordan); only when nothing
    but "wipe that" follows, so a question after it is never dropped."""
    found = re.match(r"^\W*(?:you )?(?:don't|do not|no longer|needn't|need not) (?:need to |have to )?(?:know|remember|keep)"
                     r" (?:anything )?about (?P<what>[^.,;!?]+?)(?:\s+(?:any ?more|now))?\s*(?:[.!,;-]+\s*|$)(?P<rest>.*)$", text, re.I)
    if not found or found["rest"] and not re.match(THAT_OUT, found["rest"], re.I):
        return None
    return found["what"]


def either_or(clause: str) -> Intent | None:
    """Rule 252: "Aisle or window for me when I fly?", "Do I prefer tea or coffee?": a choice between two things asked
    about the user, as Intent("choose", options, about); None for anything else ("3 or 4?" is no choice of theirs)."""
    found = re.match(r"^\W*(?P<lead>(?:do|would) i (?:prefer|like|want) |(?:which|what) do i (?:prefer|like better|want)\W+)?"
                     r"(?:an? |the )?(?P<a>[a-z]+(?: [a-z]+)?) or (?:an? |the )?(?P<b>[a-z]+)\b(?P<rest>[^?.!]*)\??\s*$", clause, re.I)
    if not found or not (found["lead"] or re.match(r"\s+for (?:me|my)\b", found["rest"], re.I)) \
            or {found["a"].lower(), found["b"].lower()} & PRONOUNS:
        return None  # "Should I call mum or dad?" asks advice, not what the user prefers
    return Intent("choose", {"options": [found["a"], found["b"]], "about": clause.strip()})


def that_one_dropped(text: str) -> str | None:
    """Rule 248: "I hate that nickname, never call me that again and get rid of it", "My old email is dead, lose it": the
    thing named with "that"/"my old" before a delete verb whose object is only "it"/"that" is what to forget, or None.
    "Forget it" alone stays "never mind", and a message that names no such thing deletes nothing."""
    verb = re.search(r"(?:[,;.!]|\s[-–—]|\band\b|\bso\b)\s*(?:(?:please|just|so|and)\s+)*(?:get rid of|drop|lose|scrap|ditch|bin|delete|remove|"
                     r"erase|wipe|forget about) (?:it|that|this)(?:\s+(?:please|now|too|for good|(?:from|out of) (?:your |my |the )?"
                     r"(?:memory|notes|records?)))?\W*$", text, re.I)
    named = verb and re.search(r"\b(?:that|this|my (?:old|previous|former)|the old) (?!(?:again|one|too|is|was|it|i|you|my|the|a|an)\b)"
                               r"(?P<what>[a-z]+(?: (?:address|number|name|email))?)\b", text[:verb.start()], re.I)
    return f"my {named['what']}" if named else None


NUMBER = r"\d+(?:\.\d+)?"


def quoted_at(text: str, at: int) -> bool:
    """Whether a position is inside a quote ("text Omar 'running late, sorry'": that "sorry" corrects nothing)."""
    return any(m.start() < at < m.end() for m in re.finditer(r"(?<!\w)(?:\"[^\"]+\"|“[^”]+”|'[^']+'(?!\w)|‘[^’]+’)", text))


def corrected_operands(text: str) -> str | None:
    """A sum corrected inside the same message, as only the corrected sum: "Take 3 from 50 - no wait, from 60" -> "Take 3
    from 60"; "multiply 8 by 3, scratch that, by 4" -> "multiply 8 by 4"; "Add 7 and 12. Sorry, I meant 7 and 15" -> "Add 7
    and 15"; a bare number replaces the last one said. None when no number comes before the marker or the fix is not read."""
    for mark in (m for m in re.finditer(SELF_FIX, text, re.I) if not quoted_at(text, m.start("m"))):
        before, after = text[:mark.start()].strip(" ,;-–—"), text[mark.end():].strip()
        after, tail = re.match(r"(?P<a>[^.!?;]*)(?P<t>.*)", after, re.S).groups()  # "6 people. How much each?": the question stays
        fix = re.sub(r"^(?:it'?s|it is|that'?s|i mean|i meant|make (?:it|that)|(?:it )?should be)\s+", "", after.strip(" ,"), flags=re.I)
        if re.match(r"(?:add|subtract|take|multiply|divide|times|plus|minus|what)\b", fix, re.I) and \
                any(i.kind == "calculate" for i in intents_in(fix)):
            return f"{fix}{tail}"  # "Add 100 and 50, actually no, subtract 50 from 100": a new sum replaces the old
        unit = re.search(r"(?<=\d)\s+([a-z]+)$", fix)  # "3 - sorry, 5 people": the unit goes with the number it follows
        fix = fix[:unit.start()] if unit else fix
        if not re.fullmatch(rf"(?:[a-z]+\s+)?{NUMBER}(?:(?:\s*,\s*|\s+and\s+|\s+[a-z]+\s+){NUMBER})*", fix, re.I):
            continue
        said, new = list(re.finditer(NUMBER, before)), re.findall(NUMBER, fix)
        if len(new) > 1 and len(new) == len(said):  # "7 and 15" for "7 and 12": each in its place
            spans = said
        elif len(new) == 1 and (lead := re.match(r"([a-z]+)\s+", fix, re.I)):  # "from 60": the number after the same word
            spans = [m for m in said if re.search(rf"\b{lead.group(1)}\s+$", before[:m.start()], re.I)][-1:]
        else:
            spans = said[-1:] if len(new) == 1 else []
        if not spans:
            continue
        fixed = before
        for m, value in reversed(list(zip(spans, new))):
            unit_said = unit and not re.match(rf"\s+{unit.group(1)}\b", before[m.end():], re.I)
            fixed = fixed[:m.start()] + value + (f" {unit.group(1)}" if unit_said else "") + fixed[m.end():]
        return f"{fixed}{tail}"  # read as it was meant, or declined: never the sum of the number taken back
    return None


FIX_LEAD = r"^(?:just\s+)?(?:it'?s|it is|that'?s|i mean|i meant|make (?:it|that)|(?:it |that )?should be|rather|instead)\s+"


def corrected_request(text: str) -> str | None:
    """A request corrected inside the same message, as only the corrected request: the value after the marker replaces
    the one of its kind said before it, and what follows the value stays ("Remind me at 5pm - no wait, 6pm - to call mum"
    -> "Remind me at 6pm to call mum"; "Shout 'hi', sorry, I meant 'bye'"; "Delete my email, no wait, my phone number").
    A time replaces a time of its sort (a clock time, a day), a quote a quote, "my X" the thing named. None otherwise."""
    for mark in (m for m in re.finditer(SELF_FIX, text, re.I) if not quoted_at(text, m.start("m"))):
        before, after = text[:mark.start()].strip(" ,;-–—"), text[mark.end():].strip()
        if not before or not re.search(rf"(?:^|[.!?]\s+)\W*(?:(?:please|pls|can you|could you|now|also)\s+)*(?:{REQUEST_VERB}|"
                                       r"ping|nudge|alert|wake)", before, re.I) and not any(
                i.kind in ("text", "schedule", "forget", "cancel", "move") for i in intents_in(before)):
            continue  # a statement corrected is rule 80's
        fix, tail = re.match(r"(?P<fix>[^,;\-–—]*)(?P<tail>.*)", re.sub(FIX_LEAD, "", after, flags=re.I), re.S).groups()
        fix, tail = fix.strip(" .!?"), re.sub(r"^[\s,;\-–—]+", "", tail).strip()
        new = restated_time(before, fix) or value_replaced(before, fix)
        if new:
            return f"{new} {tail}".strip()
    return None


def restated_time(before: str, fix: str) -> str | None:
    """A correction that says the whole time again ("add a standup every weekday... actually just make it daily at 9:30
    starting tomorrow", "every Monday at 10 - make that every Tuesday at 11", "on Friday at 7, no, Saturday at 9"): a
    recurrence, or a day and a clock time, with nothing else. Every time said before goes and the corrected one takes its
    place (a clock time said only before is kept), so the two are never mixed (rule 255). None otherwise (one value for
    one value is value_replaced's)."""
    when, every, rest = timing(fix)
    if rest.strip(" ,.!?") or not (every or len(re.findall(WHEN, fix, re.I)) >= 2):
        return None
    said_when, said_every, task = timing(before)
    clocks = [m.group() for m in re.finditer(WHEN, before, re.I) if clock_of(m.group())] if clock_of(fix) is None else []
    kept = f" {clocks[-1]}" if clocks else ""  # "every Monday at 6pm - I mean Wednesdays": still at 6pm
    return f"{task} {fix}{kept}" if (said_when or said_every) and task else None


WITHDRAWAL = (r"(?:[.!?,;:]|\s[-–—])\s*(?:(?:oh|no|nah|wait|hmm|actually|sorry|on second thoughts?|come to think of it)\W+)*"
              r"(?:let'?s not|never ?mind|forget (?:it|that|i asked)|scratch that|cancel that|ignore (?:that|this|me)|"
              r"don'?t(?: bother)?|no need|skip (?:it|that))\W*$")


UNSAID = (r"^\W*(?:(?:oh|no|nah|wait|hmm|actually|sorry|on second thoughts?|never ?mind|ok|okay)\W+)*(?:forget (?:it|that|what i "
          r"(?:just )?said|i said (?:it|that))|scratch that|(?:delete|remove|erase|undo|drop) that|(?:don'?t|do not) (?:remember|"
          r"keep|save|store) (?:it|that))(?:\W+(?:please|pls|then|too|after all|sorry))*\W*$")


def taken_back(text: str, before: str) -> list:
    """Rule 358: "actually never mind, forget that" said alone, right after a message that asked to keep a fact, asks to
    forget what that message kept: a forget of each of its facts; [] for anything else."""
    if not re.search(UNSAID, text, re.I):
        return []
    return [Intent("forget", {"key": key, "value": value, "what": key}) for i in understand(before) if i.kind == "remember"
            for key, value in i.slots["facts"]]


def withdrawn(text: str) -> bool:
    """A request taken back at the end of its own message ("Add dinner with Jo on Thursday, actually, let's not", "book a
    haircut for 10... scratch that", "Delete my email - never mind"): nothing is done, and the reply says so (rule 255)."""
    tail = max(0, len(text) - 300)  # a take-back ends the message: only its tail is read (a long ", no, no, ..." took seconds)
    found = re.compile(WITHDRAWAL, re.I).search(text, tail) or re.compile(UNDONE, re.I).search(text, tail)
    before = text[:found.start()] if found else ""
    if found and re.search(r"\bforget (?:it|that)\b", found.group(), re.I) and re.search(r"\b(?:forget|delete|remove|erase|wipe|clear)\b",
                                                                                    before, re.I):
        return False  # "Delete my old email, forget it": said twice, not taken back
    if kept_after_all(text[tail:]):
        return True
    return bool(found and (re.search(rf"(?:^|[.!?]\s+)\W*(?:(?:please|pls|can you|could you|now|also)\s+)*(?:{REQUEST_VERB}|"
                                     r"ping|nudge|alert|wake)", before, re.I) or asked_before(before, found.group())))


KEPT_AFTER_ALL = (r"(?:[.!?,;:]|\s[-–—]|\.\.\.)\s*(?:(?:oh|no|nah|nope|wait|hmm|um|actually|sorry|on second thoughts?)\W+)+"
                  r"(?:please\s+)?(?:keep|leave) (?:it|that|them|this)(?: (?:be|there|as it is|in))?(?: after all)?(?: please)?\W*$")


def kept_after_all(text: str) -> bool:
    """Rule 315: "Forget my birthday. Hmm, actually no, keep it." - a deletion taken back by asking to keep what it named:
    nothing is deleted (rule 289 for "keep" and "leave", the words that undo a forget)."""
    found = re.search(KEPT_AFTER_ALL, text, re.I)
    return bool(found and re.search(rf"\b{DROP_VERB}", text[:found.start()], re.I))


UNDONE = (r"(?:[.!?,;:]|\s[-–—]|\.\.\.)\s*(?:(?:oh|no|nah|nope|wait|hmm|um|actually|sorry|on second thoughts?|come to think of it|"
          r"never ?mind|forget (?:it|that|i asked)|scratch that|cancel that|ignore (?:that|this|me)|let'?s not|no need|skip (?:it|that)|"
          r"don'?t bother|(?:don'?t|do not) (?:do|calculate|compute|work|figure|answer|solve|go ahead|bother)(?: (?:it|that|this|anything))?(?: out)?|"
          r"i'?ll (?:do|work|figure) (?:it|that) (?:out )?myself)\W*)+$")


def asked_before(before: str, marker: str) -> bool:
    """Rule 289: any request (a sum, a text, a question) taken back by a marker after it ("what is 2+2? actually no, never
    mind, don't calculate", "multiply 6 by 8... forget it"): the marker says the request is off, whatever its kind."""
    if not re.search(r"never ?mind|forget|scratch|cancel|ignore|let'?s not|no need|skip|bother|don'?t|do not|myself|actually\W+no\b",
                     marker, re.I):
        return False
    return any(i.kind not in NOT_ASKED or i.kind in ("remember", "forget") for i in intents_in(before.strip(" ,;:-–—.")))


WHAT_IF = (r"^\W*(?:(?:so|and|ok|okay|just curious|out of curiosity|hypothetically)\W+)*(?P<lead>what if|if|suppose|supposing|imagine|"
           r"assuming|hypothetically,? if)\s+(?:that\s+)?(?:i|we)\s+(?P<verb>[\w']+)")
PAST_OR_MODAL = r"(?:were|was|had|did|could|would|should|might|'d|went|got|bought|took|made|[a-z]+ed)$"
ASKS_A_SUM = r"\bhow (?:much|many|long|far|old)\b|\bwhat would\b.*\b(?:be|cost|come to|make|pay|total)\b|\btotal\b|\d\s*%"


def only_supposed(text: str) -> Intent | None:
    """A what-if about the user that asks nothing to be done: "If I had a meeting at 3, would you remind me?", "Suppose we
    booked Friday, could you add it?", "If I were a pilot, I'd fly to Japan every week". Counterfactual (a supposition
    word, or a past or modal verb after "if I"), and a question or an "I'd" about it: nothing is scheduled or stored
    (rule 257). A real condition with a request ("If I get the job, remind me to call mum") and a sum asked of a
    supposed amount (rule 229) are not this rule's."""
    found = re.match(WHAT_IF, text, re.I)
    if not found or re.search(ASKS_A_SUM, text, re.I):
        return None
    if found.group("lead").lower() in ("if", "assuming") and not re.match(PAST_OR_MODAL, found.group("verb"), re.I):
        return None
    if not (text.rstrip().endswith("?") or re.search(r"\b(?:i|we)(?:'d| would)\b", text[found.end():], re.I)):
        return None
    asks_to_schedule = re.search(r"\b(?:remind|schedul\w*|reschedul\w*|book|calendar|add|put|set|queue|ping|nudge|alarm|mov(?:e|ed)(?!\s+(?:to|into|in|out|away|abroad|house|home|back|here|there|countries|cities|jobs)\b)|cancel\w*)\b", text[found.start("verb"):], re.I)
    return Intent("hypothetical", {"about": "schedule" if asks_to_schedule else ""})


def value_replaced(before: str, fix: str) -> str | None:
    """`before` with the value of the same kind as `fix` replaced by it, else None."""
    if re.fullmatch(r"[\"“'‘][^\"”'’]+[\"”'’]", fix):  # a quote for the last quote
        quotes = list(re.finditer(r"(?<!\w)[\"“'‘][^\"”'’]+[\"”'’](?!\w)", before))
        return before[:quotes[-1].start()] + fix + before[quotes[-1].end():] if quotes else None
    when, _, rest = timing(fix)
    if when and not rest.strip(" ,.!?"):  # a time for the last time of its sort: a day for a day, a clock time for one
        day = lambda phrase: bool(re.search(rf"\b{DAY}\b|\btomorrow|\btoday|\btonight", phrase, re.I))  # noqa: E731
        said = [m for m in re.finditer(WHEN, before, re.I) if day(m.group()) == day(fix)]
        if not said:
            return None
        old = said[-1]
        prep = re.match(r"(?:at|on|for|by|in)\s+", old.group(), re.I)
        value = fix if re.match(r"(?:at|on|for|by|in)\s", fix, re.I) or not prep else prep.group() + fix
        return before[:old.start()] + value + before[old.end():]
    if re.fullmatch(r"(?:my|our)\s+[a-z' ]{2,40}", fix, re.I):  # "my phone number" for "my email"
        named = list(re.finditer(r"\b(?:my|our)\s+[a-z' ]{2,40}$", before, re.I))
        return before[:named[-1].start()] + fix if named else None
    return word_replaced(before, fix)


NOT_A_THING = r"\b(?:not|no|don't|do not|never|nothing|none|cancel|forget|stop|it|that|this|them|all|everything|mind)\b"


def word_replaced(before: str, fix: str) -> str | None:
    """A name for the last name said ("call Tom - sorry, Tim"), a thing for the last word of the request's own words
    ("buy eggs, no wait, milk", "dentist ..., no sorry, the orthodontist"); None for anything else."""
    if not re.fullmatch(r"(?:(?:the|a|an|some)\s+)?[A-Za-z][\w'-]*(?:\s+[A-Za-z][\w'-]*){0,2}", fix) or re.search(NOT_A_THING, fix, re.I):
        return None
    if fix[0].isupper():
        names = [m for m in re.finditer(r"(?<=\s)[A-Z][a-z'-]+\b", before) if not re.fullmatch(rf"{DAY}|I", m.group(), re.I)
                 and not re.search(rf"\b{MONTH}", m.group(), re.I)]
        return before[:names[-1].start()] + fix + before[names[-1].end():] if names else None
    words = re.findall(r"[a-z][\w'-]*", timing(before)[2])
    at = before.rfind(words[-1]) if words else -1
    return before[:at] + fix + before[at + len(words[-1]):] if at > 0 else None


KEEP_NOT = (r"(?:^|(?<=[,;.!?:\-–—])|\bplease\s+|\bbut\s+|\bjust\s+|\bactually,?\s+)\s*(?:(?:please|pls|just|and)\s+)*(?:don't|do not|dont|never|no need to|"
            r"you (?:don't|do not) (?:need|have) to|you (?:shouldn't|mustn't|needn't)|i (?:don't|do not) want you to|"
            r"(?:i'd|i would) rather you didn't)\s+(?:remember|save|store|keep|note(?: down)?|jot(?: down)?|write(?: down)?|record|log|"
            r"memori[sz]e|make a note of|put down|hold on to)\s+")


def kept_back(text: str) -> tuple[str, str] | None:
    """A request not to keep a fact, with the fact said after it: "Don't save that I'm moving to Spain, it's not certain
    yet", "Don't make a note of my weight, it's 90 kg", "Don't log my address: 3 Mill Lane". (the rest of the message,
    the fact) or None. A thing named with no value ("don't keep my job") is a delete, and "this/that" alone is unkept()."""
    found = re.search(KEEP_NOT + r"(?:that\s+(?P<s>(?:i|i'm|i've|my|we|our)\b[^,;.!?]+)|(?:of\s+)?(?P<t>my [a-z ]+?)\s*"
                      r"(?::\s*|,\s*(?:it's|it is|which is)\s+|\s+(?:is|are)\s+)(?P<v>[^,;.!?]+))", text, re.I)
    if not found:
        return None
    said = found.group("s") or f"{found.group('t')} is {found.group('v')}"
    rest = re.sub(r"^\W*(?:but|and)\b|\W*(?:but|and)\W*$", "", (text[:found.start()] + " " + text[found.end():]), flags=re.I)
    rest = re.sub(r"^\W*(?:(?:it|that)(?:'s| is) not (?:certain|sure|final|official|true|public)|because|as|since)\b[^.!?]*[.!?]?", "",
                  rest.strip(" ,.;:-–—"), flags=re.I)  # why it is not to be kept
    return rest.strip(" ,.;:-–—"), said.strip()


NOT_TO_SCHEDULE = (r"^\W*(?:(?:please|pls|oh|ok|okay|and|so|but|actually)\W+)*(?:(?:do not|don't|dont|never|no need to|there's no need to|"
                   r"you (?:don't|do not|needn't) (?:need to |have to )?)\s*(?:bother (?:to )?|go and )?(?P<verb>remind|schedule|book|queue|"
                   r"enqueue|ping|nudge|notify|alert|wake|set (?:up )?(?:a |an |any )?(?:reminders?|alarms?|timers?)|"
                   r"(?:add|put) (?:it|that|this|[^,.;!?]{1,40}?) (?:to|in|on|into) (?:my|the) (?:calendar|schedule|agenda|diary|"
                   r"planner|queue|reminders|to-?do list))|no (?:need for (?:a |any )?)?(?:reminders?|alarms?)\b(?! (?:is|are) (?:set|scheduled))|"
                   r"i (?:don't|do not) (?:want|need) (?:a |an |any )(?:reminders?|alarms?|nudges?|pings?)\b)")


def not_to_schedule(text: str) -> tuple | None:
    """A request not to schedule ("Don't remind me to call Bob tomorrow", "no need to schedule the dentist", "please
    don't set a reminder for the gym"): no scheduling tool is called. "... any more/again" calls off what there is, and a
    request after it ("..., remind me on Friday instead") is the one that counts."""
    found = re.search(NOT_TO_SCHEDULE, text, re.I)
    if not found:
        return None
    later = re.search(r"(?:[,;.!]|\bbut\b|\binstead\b)\s*(?:but\s+|instead\s+|rather\s+|just\s+|please\s+)*(?=(?:remind|schedule|set|put|"
                      r"book|add|make|ping|nudge|queue)\b)", text[found.end():], re.I)
    if later:
        return intents_in(text[found.end() + later.end():])
    if re.search(r"\b(?:but|instead)\b", text[found.end():], re.I):
        return None  # "don't remind me today but tomorrow at 9": the later request is another rule's
    what = re.sub(r"^\s*(?:me\s+)?(?:to |about |of |for )?", "", text[found.end():]).strip(" .!?")
    if re.search(r"\b(?:any ?more|again|from now on|no more)\b", what, re.I) and found.group("verb") and \
            found.group("verb").lower().startswith("remind"):
        return (Intent("cancel", {"what": re.sub(r"\s*\b(?:any ?more|again|from now on)\b", "", what, flags=re.I).strip(" ,.!?")}),)
    return (Intent("unscheduled", {"what": what}),) + asked_beside(text[found.end():])


def asked_beside(rest: str) -> tuple:
    """What the user asks beside a refusal (rule 212): "Don't set any reminder, I'll remember it myself. Just tell me what 8
    times 7 is" refuses one part and asks the rest; the later sentences' (or the part after ", just/but/instead") requests
    other than scheduling and storing are answered in full."""
    parts = re.split(r"(?<=[.!?;])\s+|,\s*(?=(?:just|but|only|instead|simply|rather)\b)", rest)[1:]
    return tuple(i for part in parts for i in intents_in(re.sub(r"^\W*(?:just|but|only|instead|simply|rather)\W+", "", part, flags=re.I))
                 if i.kind not in NOT_ASKED | {"schedule", "reminder", "cancel", "unscheduled", "unsure"})


REPORTING = (r"\b(?:said|says|saying|texting|telling|asking|texted|texts|messaged|messages|wrote|writes|told|tells|asked|asks|sent|sends|emailed|emails|"
             r"replied|replies|posted|posts|mentioned|mentions|suggested|suggests|wants|wanted|reads|went|goes|yelled|shouted)\b|"
             r"\b(?:text|message|email|e-mail|dm|voicemail|note|letter|sms|post|comment) from (?:my |the |a |an )?[\w ]{1,20}?(?=\s*[:\"“'‘])|"
             r"^\W*according to\b")
TO_THE_MODEL = r"\b(?:remind|schedule|book|set|add|save|store|note|jot|remember|forget|delete|remove|erase|cancel|please|pls|can you|could you|would you)\b"
REQUEST_VERB = r"(?:remind|schedule|book|set up|set|add|put|save|store|note|jot|remember|forget|delete|remove|erase|wipe|clear|cancel|move)\b"
ACTS_ON = {"schedule", "reminder", "remember", "forget", "cancel", "move", "correct", "pointer", "replace", "recount"}  # what changes memory or the calendar


def someone_elses_request(text: str) -> tuple | None:
    """A request in someone else's words is not the user's: "My friend texted me 'remind me at 6 to call mum'", "my boss
    said to book the review for Friday", "a text from Dad: 'can you book the vet'" is never acted on. A request of the
    user's own around a quote ("remind me to reply to her 'see you at 5'") is: it comes before the reporting verb; and what
    the user says after the quote ("... Can you note that the exam is on June 9?") is read as usual."""
    for verb in re.finditer(REPORTING, text, re.I):
        start = max(text.rfind(mark, 0, verb.start()) for mark in ".!?\n")
        lead = text[start + 1:verb.start()]
        if re.search(TO_THE_MODEL, lead, re.I) or re.search(r"\b(?:you|if|suppose|what if)\b", lead, re.I) or len(lead.split()) > 5 or \
                re.fullmatch(r"\W*(?:i|we)(?: already| just)?\s*", lead, re.I) and (re.match(r"\s*(?:you\b|[^\w\s]*\s*(?:please\s+)?"
                                                                                        rf"{REQUEST_VERB})", text[verb.end():], re.I)
                                                                               or re.match(r"wants?|wanted|went|goes|reads|sen[dt]s?", verb.group(), re.I)):
            continue  # "Remind me that Sam said ...", "I said remind me at 5!": the user's own request; "you said": the model's
        rest = re.sub(r"^\s*(?:(?:me|us|him|her|them|everyone|the team|(?:my |the )?[A-Z]\w*|(?i:my|our|his|her) [a-z]+)\b\s*)?(?:that\s+|to\s+(?=\w)|:\s*|,\s*)?"
                      r"(?i:(?:i|we) (?:should|must|need to|have to|ought to)\s+)?", "", text[verb.end():])  # "According to Jo, I should book ..."
        quote = re.match(r"\s*[\"“'‘](?P<q>[^\"”’]+?)[\"”'’](?!\w)", rest)
        words = quote.group("q") if quote else re.split(r"[.!?;\n]|,\s*(?=(?:and|but|so|then|what|how|can|could|please|also)\b)", rest)[0]
        after = rest[quote.end():] if quote else rest[len(words):]
        if re.match(rf"\W*(?:(?:please|pls|can you|could you|would you|will you)\s+)*{REQUEST_VERB}(?!\s+\d)", words, re.I) or \
                quote and any(i.kind in ACTS_ON for i in intents_in(words.strip())):
            own = after.strip(" .,;:-–—!?\"'”’") and intents_in(re.sub(r"^[\s\"'”’.,;:!?\-–—]*(?:(?:and|but|so|then|lol|haha)\b\W*)*", "", after))
            requested = tuple(i for i in own or () if i.kind not in ("unknown", "none"))
            return requested or (Intent("reported", {"words": words.strip()}),)  # rule 306: the user's request, when there is one
    return None


ABOUT_THE_WORDS = (r"\bwhat(?:\s+(?:did|does|do|was|is|were)|'s)\s+(?:(?:he|she|they|it|that|this|(?:my|your|our|his|her|the) \w+|[A-Z]\w*)\s+)?"
                   r"(?:ask|asking|want|wanting|mean|meaning|say|saying|tell|telling|need|needing|request|expect)\b|"
                   r"\bwhat (?:is|was|'s) (?:that|this|it|the message|the request) (?:about|asking)\b|\bwhat does (?:that|this|it) mean\b")
DO_AS_SAID = (r"\b(?:do|did|work out|answer|follow|carry out|handle) (?:what|as) (?:he|she|they|it|the \w+|my \w+|[A-Z]\w*) "
              r"(?:said|says|asked|asks|wrote|wants|wanted|told)\b|\b(?:can|could|would|will) you (?:please )?(?:(?:do|work out|answer|solve|calculate|compute) (?:it|that|this)|"
              r"(?:work|figure) (?:it|that|this) out)\b|\b(?:please )?(?:do|calculate|compute|work out) (?:it|that|this)(?: for me)?\W*$|"
              r"\bwhat(?:'s| is) the answer\b|\bhow much is (?:that|it)\b|\bwhat(?:'s| is| does) (?:that|it) (?:come to|make|equal)\b")


def asked_about_the_words(text: str) -> tuple | None:
    """Rule 290: a request in someone else's words with a question about those words ("my friend said 'add 5 and 9' - what
    did he ask me to do?", "Tom told me to divide 80 by 5. What does he want?") is answered about the words, never done;
    "can you do what he said?" after them does the request in the words. None when no question is asked about them."""
    for verb in re.finditer(REPORTING, text, re.I):
        start = max(text.rfind(mark, 0, verb.start()) for mark in ".!?\n")
        who = text[start + 1:verb.end() if " from " in verb.group() else verb.start()].strip(" ,")  # "a text from Dad: '...'"
        who = re.sub(r"\s+(?:said|says|wrote|writes|reads|read)$", "", who)
        if not who or len(who.split()) > 5 or re.match(r"\W*" + TO_THE_MODEL, who, re.I) or re.fullmatch(r"(?i:i|we|you)", who):
            continue
        rest = text[verb.end():]
        quote = re.match(r"\s*(?:me|us|him|her|them)?\s*[:,]?\s*(?P<o>[\"“'‘])(?P<q>.+?)[\"”'’](?=[\s.,;:!?\-–—]*(?:\s|$))", rest)
        told = None if quote else re.match(r"\s*(?:me|us|him|her|them)?\s*to\s+(?P<q>[^.!?;]+?)(?=\s*(?:[.!?;]|\s[-–—]|,\s*(?:what|and|but|so|can|could)\b|$))", rest, re.I)
        found = quote or told
        if not found:
            continue
        words, after = found.group("q").strip(), rest[found.end():]
        if not any(i.kind not in NOT_ASKED for i in intents_in(words)) and not re.match(
                rf"\W*(?:(?:please|pls|can you|could you)\s+)*{REQUEST_VERB}", words, re.I):
            continue  # a statement in quotes is rule 153's
        if re.search(DO_AS_SAID, after, re.I):
            return intents_in(words)
        said = (Intent("quoted", {"who": who, "words": words if quote else f"to {words}"}),)
        if re.search(ABOUT_THE_WORDS, after, re.I) or re.search(ABOUT_THE_WORDS, text[:start + 1], re.I):
            return said
        rule_153s = re.match(rf"\W*(?:(?:please|pls|can you|could you)\s+)*{REQUEST_VERB}(?!\s+\d)", words, re.I) or \
            any(i.kind in ACTS_ON for i in intents_in(words))  # "my cousin messaged me: 'book the dentist ...'" (rule 153)
        if not rule_153s and not re.match(r"\W*(?:what|how|why|is|are|can|could|would|will|do|does)\b", words, re.I):  # an order
            own = intents_in(re.sub(r"^[\s\"'”’.,;:!?\-–—]*(?:(?:and|but|so|then|also)\b\W*)*", "", after)) if after.strip() else ()
            return said + tuple(i for i in own if i.kind not in NOT_ASKED)  # "... 'add 5 and 9'. Also, what's 3 times 3?"
    return None


def unkept(text: str) -> str | None:
    """The message without its request not to keep what it says ("don't save that", "do not remember this:"), or None."""
    found = re.search(UNKEPT, text, re.I)
    return None if not found else re.sub(r"^\W*(?:but|and)\b|\W*(?:but|and)\W*$", "", (text[:found.start()].rstrip(" ,.;:-–—!") + ", "
                                                                                    + text[found.end():].lstrip(" ,.;:-–—!")).strip(
        " ,.;:-–—"), flags=re.I).strip(" ,.;:-–—")


def about_the_value(said: str) -> str:
    """Rule 348: "my PIN is 4471, don't keep it, just tell me how many digits it has": "it" in a request about words
    after the one fact said is that fact's value, quoted ('4471'); anything else is left as said."""
    facts = [f for i in intents_in(said) if i.kind == "remember" for f in i.slots["facts"]]
    if len(facts) != 1 or (at := said.find(facts[0][1])) < 0:
        return said
    rest = re.sub(r"\bit\b", f"'{facts[0][1]}'", said[at + len(facts[0][1]):], flags=re.I).lstrip(" ,.;:-–—!")
    return f"{said[:at + len(facts[0][1])]}. {rest}" if any(i.kind == "text" for i in intents_in(rest)) else said


SOLD = r"sold|traded in|gave away|got rid of|ditched|dumped|returned|scrapped|wrote off"  # a thing let go, so "bought Y" replaces it
LET_GO = rf"{SOLD}|quit|left|gave up|lost|broke up with|split (?:up )?with|stopped (?:using|driving|playing|seeing)"
TOOK_UP = r"bought|purchased|adopted|got myself|got(?= (?:an? |the )?(?:new|brand)\b)|leased|picked up"
GONE_FIRST = [  # the old thing, said as let go of; what follows the part is the new thing
    rf"^\W*(?:i|we)(?:'ve| have)?(?: just| recently| finally| already)? (?P<let>{LET_GO}) (?P<old>.+?)",
    r"^\W*(?P<old>[A-Z][a-z]+) and (?:i|me) (?:broke up|split up|split|divorced|separated|parted ways)(?: \w+ \w+ ago| last \w+)?",
    r"^\W*(?:please )?(?:don't|do not|stop|quit|no need to|never) call(?:ing)? me (?P<old>[A-Z]\w*)(?: any ?more| again)?",
    r"^\W*i (?:don't|do not|no longer) go by (?P<old>[A-Z]\w*)(?: any ?more)?",
    r"^\W*(?:i|we) (?:don't|do not) (?:drive|have|own|use|ride|play|keep|eat) (?P<old>.+?) any ?more",
    r"^\W*(?:i|we) no longer (?:drive|have|own|use|ride|play|keep|eat) (?P<old>.+?)"]
MOVED_FROM = (r"^\W*(?i:(?:i|we)(?:'ve| have)?(?: just| recently| finally)? (?:moved|relocated)(?: house| home| over)? from) (?P<old>[A-Z][\w'-]*"
              r"(?: [A-Z][\w'-]*)*) to (?P<new>[A-Z][\w'-]*(?: [A-Z][\w'-]*)*)(?i:,?\s+(?:last|this|in|a|two|three|recently|now|back)\b[^.!?]*)?\W*$")
MOVED_TO_FROM = (r"^\W*(?i:(?:i|we)(?:'ve| have)?(?: just| recently| finally)? (?:moved|relocated)(?: house| home| over)? to) (?P<new>[A-Z][\w'-]*"
                 r"(?: [A-Z][\w'-]*)*) from (?P<old>[A-Z][\w'-]*(?: [A-Z][\w'-]*)*)(?i:,?\s+(?:last|this|in|a|two|three|recently|now|back)\b[^.!?]*)?\W*$")
# "I just moved to Leeds from Bristol": the destination is where they live (rule 287)
NOW_NOT = (r"^\W*(?:(?i:that's |that is |nope,? |no,? )?(?i:wrong|not right|incorrect)\s*[-–—:,.;!]\s*)?"  # "That's wrong - ..." (rule 282)
           r"(?i:(?:i|we)(?:'m| am|'re| are)|my [a-z]+(?:'s| is))(?: [a-z]+){0,3} (?P<new>[A-Z][a-z]+)(?: now)?(?:" + SPELLING + r")?,? (?:and )?not "
           r"(?P<old>[A-Z][a-z]+)(?: any ?more)?\W*$")  # "I'm seeing Priya now, not Sam", "my partner is Jo now, not Sam"
SWITCHED = (r"^\W*(?:i|we)(?:'ve| have)?(?: just| recently| finally)? (?P<how>switched|changed|went|converted|upgraded|downgraded|"
            r"migrated|traded(?: in)?|swapped|exchanged|replaced)(?: over)? (?:from )?(?P<old>[^,.;!?]+?) (?:to|for|with) "
            r"(?P<new>[^,.;!?]+?)(?: now| instead)?\W*$")


def replaced(text: str) -> Intent | None:
    """Rule 196: something the user had, replaced by something new: "I sold the Corolla and bought a Tesla", "Don't call
    me Bobby any more, I go by Rob now", "Alex and I split up, my new partner is Jo", "I switched from Android to an
    iPhone", "I traded my Golf for a Volvo". One intent: the old thing and the one new fact (said as a statement: "bought
    X" is "I have X"), so the memory that held the old thing is overwritten, or erased beside the new note. None for any
    other shape, or when what follows is not one fact."""
    if moved := re.match(MOVED_FROM, text) or re.match(MOVED_TO_FROM, text):  # "We moved from Leeds to York": York is kept, Leeds goes (rule 217)
        return Intent("replace", {"old": moved.group("old"), "facts": [("lives_in", moved.group("new"))]})
    if now_not := re.match(NOW_NOT, text):  # "I'm with Jordan now, not Sam": the memory that held Sam gets Jordan
        return Intent("correct", {"new": now_not.group("new"), "old": now_not.group("old"), "key": "", "swapped": True})
    if swap := re.match(SWITCHED, text, re.I):
        new = swap.group("new")
        fact = ("user_uses", new) if re.match(r"sw|ch|went|conv|migr", swap.group("how"), re.I) else ("user_has", new)
        return Intent("replace", {"old": bare_thing(swap.group("old")), "facts": [fact]})
    for gone in GONE_FIRST:
        for found in re.finditer(rf"{gone}(?P<cut>\s*(?:[,;.!]|\s[-–—])\s*(?:(?:and|so|but)\s+)?|\s+(?:and|so|but)\s+)(?P<rest>\w.+)$", text, re.I):
            rest = found.group("rest")
            bought = "let" in found.groupdict() and re.fullmatch(LET_GO, found.group("let"), re.I) and re.match(
                rf"^(?:now,?\s+)?(?:(?:i|we)(?:'ve| have)? (?:just |then |also |now )?)?(?:{TOOK_UP})\b", rest, re.I)
            if bought:  # "sold X (quit X) and bought Y": I have Y
                rest = re.sub(rf"^(?:now,?\s+)?(?:(?:i|we)(?:'ve| have)? (?:just |then |also |now )?)?(?:{TOOK_UP})\b", "I have",
                              rest, flags=re.I)
            rest = re.sub(r"^(?:now,?\s+)?(?:it's|it is|use|just)\s+(?=[A-Z])", "call me ", rest)  # "..., it's Beth now"
            rest = re.sub(r"^(?:now,?\s+)?(?:i |we )?(?:joined|started (?:working )?at|went to work (?:at|for))\s+", "I work at ", rest, flags=re.I)
            rest = re.sub(r"^(?:now,?\s+)?(?=(?:moved|switched)\b)", "I ", rest, flags=re.I)  # "sold X and moved to Y"
            said = [i for i in intents_in(rest) if i.kind != "none"]
            if len(said) == 1 and said[0].kind == "remember" and len(said[0].slots["facts"]) == 1:
                apart = bool(bought) and not re.fullmatch(SOLD, found.group("let"), re.I)  # "quit my job and bought a boat": two things
                return Intent("replace", {"old": bare_thing(found.group("old")), "facts": said[0].slots["facts"], "apart": apart})
    return None


SMALL_COUNT = r"\d+|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve"
ONE_MORE = r"another|one more|an extra|a second|a third|a fourth|a fifth|a sixth"


def counted_anew(text: str) -> Intent | None:
    """Rule 199: a count that changed, said as news: "We had another baby, so it's three kids now", "we're up to 4 cats",
    "we adopted one more dog" (no number: one more than memory holds). One intent with the thing and the new count (None
    when only "another" is said); None for a plain statement ("I have two cats"), a question, a wish or a what-if."""
    if text.rstrip().endswith("?") or re.match(HYPOTHETICAL, text, re.I) or re.search(r"\b(?:want|wish|would|could|might|if)\b", text, re.I):
        return None
    told = re.search(rf"(?:^\W*|[,;.!]\s*|\b(?:so|and|now)\s+)(?:(?:so|and|now)\s+)?(?:it's|it is|that's|that is|that makes|(?:we|i)(?:'re| are|'m| am) "
                     rf"(?:now )?up to|(?:we|i)(?:'ve| have)?(?: got)?)\s+(?P<n>{SMALL_COUNT})\s+(?P<thing>[a-z]+s|children|people|mice|geese|sheep|fish)\b(?P<now>\s+(?:now|in total|"
                     rf"altogether|all together))?\W*$", text, re.I)
    more = re.search(rf"\b(?:i|we)(?:'ve| have)?\s+(?:just\s+)?(?:had|got|adopted|welcomed|bought|rescued|took in|gotten)\s+(?:{ONE_MORE})\s+"
                     rf"(?P<thing>[a-z]+)\b", text, re.I)
    if told and (more or told.group("now") or re.search(r"makes|up to", told.group(), re.I)):
        n = told.group("n").lower()
        return Intent("recount", {"thing": told.group("thing").lower(), "count": int(n) if n.isdigit() else arithmetic.UNITS.index(n),
                                  "owned": bool(re.search(r"\b(?:i|we)\b", told.group(), re.I) or more)})  # "it's 5 degrees now": no one's
    if more:
        return Intent("recount", {"thing": more.group("thing").lower(), "count": None, "owned": True})
    nth = re.search(r"\b(?:we|i)(?:'ve| have)?(?: got| had| have)? (?:a|our) (second|third|fourth|fifth|sixth) ([a-z]+)(?: now)?\W*$", text, re.I)
    return Intent("recount", {"thing": nth.group(2).lower(), "count": ORDINALS.index(nth.group(1).lower()) + 2, "owned": True}) \
        if nth else None


ORDINALS = ["second", "third", "fourth", "fifth", "sixth"]  # "a third child": three of them


UPDATE = (r"^\W*(?:(?:please|pls|can you|could you|would you)\s+)*(?:update|change|set|switch|replace|correct|amend|edit)\s+my "
          r"(?P<thing>[a-z]+(?:'s)?(?: [a-z]+)?)(?:\s+(?:from (?P<old>[^,;]+?) )?(?:to|with|as)\s+|\s*:\s*(?:(?:it's|it is|now it's|it should be)\s+)?)"
          r"(?P<new>[^,;!?]+?)(?:,?\s+(?:now|instead|please|pls|thanks))*\W*$")
SCHEDULED = r"\b(?:reminders?|alarms?|meetings?|appointments?|bookings?|events?|class(?:es)?|tasks?|jobs?|timers?|lessons?|sessions?|calendar|schedule|password|pin)\b"


def updated(text: str) -> Intent | None:
    """Rule 196: "Change my city to Bristol", "Update my car: it's a Mazda now", "Replace my email with jo@new.com": a
    correction of the memory named, to the value given. What is scheduled ("change my alarm to 7") is a move, not this;
    a text operation or a letter case ("change my name to uppercase") is none."""
    found = re.match(UPDATE, text, re.I)
    if not found or re.search(SCHEDULED, found.group("thing"), re.I) or \
            re.fullmatch(r"(?:upper|lower|title)\s*case|capitals|caps|bold|italics?", found.group("new"), re.I):
        return None
    return Intent("correct", {"new": found.group("new").strip(), "old": (found.group("old") or "").strip(), "key": key_of(found.group("thing"))})


CHANGED = (r"^\W*(?:(?:so|oh|btw|by the way|fyi|heads up|quick update)\W+)*my (?:new )?(?P<thing>[a-z]+(?:(?:-| (?!has\b|have\b|is\b))[a-z]+)?)\s+"
           r"(?:(?:has |have )?(?:changed|moved)|is (?:different|new)(?: now)?|(?:has )?(?:switched|been updated))"
           r"(?:\s+(?:now|again|recently|lately|today))?(?:\s*(?:[,;:!.]|[-–—])\s*|\s+(?:and|so)\s+)+(?:(?:and |so )?(?:it's|it is|the new one is|"
           r"now it's|it's now|now|to|the new \w+ is)\s+)?(?P<new>[^,;!?]+?)(?:,?\s+(?:now|instead|these days))*\W*$")


def changed_to(text: str) -> Intent | None:
    """Rule 280: "My phone number changed, it's 555-0199 now", "my email is different now: jo@new.org", "My address has
    changed - it's 4 Oak Road": news that the thing named has a new value, a correction of the memory that holds that
    thing, never a new memory named after the change ("phone_number_changed")."""
    found = re.match(CHANGED, text, re.I)
    if not found or re.search(SCHEDULED, found.group("thing"), re.I) or re.search(r"\b(?:mind|plans?)\b", found.group("thing"), re.I):
        return None  # "my meeting moved to 3pm" is a move; "my mind changed" holds no fact
    thing = re.sub(r"\W+", "_", found.group("thing").lower().replace("-", ""))  # the words said: memory is searched by them
    return Intent("correct", {"new": found.group("new").strip(), "old": "", "key": thing})


def bare_thing(words: str) -> str:
    """"my old Corolla" -> "Corolla": the thing without its determiner, its "old" and its "any more"."""
    words = re.sub(r"(?:\s+(?:any ?more|now|these days|last \w+|yesterday|today|recently|(?:a|an|one|two|three|a few) \w+ ago|in \d{4}))+$",
                   "", words.strip(" ,.!"), flags=re.I)
    return re.sub(r"^(?:(?:my|the|our|a|an|his|her|old|former|previous|ex-?|job|work|at|in|as|with)\s+)+(?=\w)", "", words, flags=re.I)


def last_said(intents: list) -> list:
    """"I live in Porto. Actually no wait, I live in Braga": within one message the later fact on a subject
    replaces the earlier (a list, such as likes, keeps both)."""
    for stale, new in zip(intents, intents[1:]):  # "I don't live in Leeds any more, I moved to York": York replaces Leeds
        if stale.kind == "forget" and stale.slots.get("stale") and new.kind == "remember" and len(new.slots["facts"]) == 1:
            new.slots["old"] = re.sub(r"^(?:(?:actually|so|well|now|in|at|from|with|to|on|for)\s+)+", "",
                                      re.sub(r"\s+", " ", stale.slots["what"]).strip(), flags=re.I)
            stale.kind = "none"
    intents = [i for i in intents if i.kind != "none"]
    later = set()
    for intent in reversed(intents):
        if intent.kind == "remember" and not intent.slots.get("note"):
            facts = []
            for key, value in reversed(intent.slots["facts"]):
                if key in LISTS or key not in later:
                    facts.append((key, value))
                    later.add(key)
            intent.slots["facts"] = facts[::-1]
    return [i for i in intents if i.kind != "remember" or i.slots["facts"]]


def one(clause: str, previous: str | None) -> Intent:
    """The intent of one clause."""
    clause = re.sub(r"^(\W*i(?:'m| am))\s+(?:actually|really|in fact)\s+(?=\d)", r"\1 ", clause, flags=re.I)  # "I'm actually 38"
    clause = re.sub(r"^(\W*)our\b(?=\s+[a-z]+(?:'s [a-z]+)?\s+(?:is|are|was|were|'s)\b)", r"\1my", clause, flags=re.I)  # "our cat is named Miso": the user's too
    clause = re.sub(r"^(\W*(?:i|we)\b[^:]*\b(?:\d+|two|three|four|five|six|seven|eight|nine|ten|several) [a-z]+):\s+", r"\1, ", clause,
                    flags=re.I)  # "I have three cats: Tig, Tog and Tug" lists them (rule 143)
    for pattern, kind in OTHER[:1]:  # a harmful request is refused before anything else is read
        if re.search(pattern, clause, re.IGNORECASE):
            return Intent(kind)
    idiom = re.match(r"^\W*(?:oh,? |ok,? |okay,? )?(?:forget (?:about )?(?:it|that)|never ?mind|nvm)\s*[,;.!:-]+\s*(?P<rest>\w.+)$", clause, re.I)
    if idiom:  # "forget about it, what's 3 + 3?": the idiom is no request; what follows is
        return one(idiom.group("rest"), previous)
    trailing = re.match(r"^(?P<what>.+?),?\s+(?:(?:please|pls|can you|could you)\s+)*(?:note that|remember that|remember it|"
                        r"save (?:that|it)|keep that in mind|keep (?:that|it)|don't forget (?:it|that)|make a note(?: of (?:it|that))?|"
                        r"(?:jot|write|note|put) (?:that|it) down|don't let me forget(?: it| that)?)(?:,?\s+(?:please|pls|thanks|thank you|for me))*\W*$",
                        clause, re.I)
    if trailing and ":" in trailing.group("what"):
        trailing = None  # "How many words are in: remember that please": the words after the colon are the text
    if trailing and re.match(HYPOTHETICAL, trailing.group("what"), re.I):
        return Intent("hypothetical")  # "If I moved to Oslo, would you remember it?": a what-if is no fact to keep
    if trailing:  # "I upgraded to python 3.12, note that": the note comes after what to note
        clause = f"remember that {trailing.group('what')}"
    as_text = re.search(r"\b(?:from|in|of)\s+[\"“'‘]|^(?![^:]*\b(?:my|me|you|your|memory|notes?|about|everything|all)\b)[^:]*\b(?:remove|delete|drop|strip|get rid of)\b[^:]*:\s*\S",
                        clause, re.I)  # "remove the spaces from 'a b c'", "remove the spaces: a b c" edit a text (rule 403)
    clause = re.sub(rf"^(\W*)(?:please\s+)?do\s+(?={FORGET}\b)", r"\1", clause, flags=re.I)  # "Do delete the Fiat."
    if (dropped := kept_but_dropped(clause) or dropped_but_kept(clause)) is not None:
        return dropped
    if kept := re.match(r"^\W*(?:please\s+)?(?:don't|do not|never)\s+(?:delete|remove|erase|drop|wipe)\s+(?P<what>(?:my|the|our)\b[^,;?]+?)"
                        r"(?:,? please)?\W*$", clause, re.I):
        return Intent("pointer", {"what": kept.group("what"), "kept": True})  # "Don't delete the parrot.": changes nothing
    if (theirs := not_me_but_them(clause)) is not None:
        return theirs
    called_off = cancelled(clause) or moved(clause)
    if called_off:
        return called_off
    forget = None if as_text or re.search(r"\b(?:don't|do not|never|not)\b(?:\s+\w+){0,3}\s+forget\b", clause, re.I) else re.search(
        rf"(?:^\W*|[,;:(]\s*|\b(?:please|pls|ok|okay|so|and|but|just|now|actually|oh|also|can you|could you|you can|u can|can u|then|i'd like you to|"
        rf"i would like you to|i want you to|i need you to|would you|will you)\s+){FORGET}\b(?: out(?= \w)| away(?= \w))?"
        rf"(?: about| that(?=\s+(?:i|my|you)\b))?"
        rf"\s+(?P<what>.+?)(?:\s+(?:but|except)\b.*|,\s*(?:and )?keep\b.*|,\s*(?:i|i'm|i am|it's|that's)\b.*|\s+[-–—]\s+.*)?(?:\s+(?:from|out of|off|in|on|inside) (?:your |my |the )?"
        rf"(?:memory|notes|file|records?|list|brain|system)\b.*?)?(?:,? please| for me| now| pls| on file| any ?more)?[.!?]*$", clause, re.I)
    swapped = re.match(r"^\W*(?:(?:correction|actually|no|nope|sorry|oops|wait|to be clear|just so you know)\W+)*(?:(?:my (?P<k>[a-z]+(?:'s)?"
                       r"(?: (?!(?:is|was|are)n?\b)[a-z]+)?)|it|that)(?:'s|\s+is|\s+was)?(?:n't|\s+not)|i (?:don't|do not|didn't) [a-z]+"
                       r"(?: (?:in|at|for|with|from|as))?)\s+(?:actually |really )?(?:an? |the )?(?P<old>[^,;.!?]+?)(?: any ?more| now)?\s*"
                       r"(?:[,;]|\s[-–—])\s*(?:but |rather )?(?:it's|it is|its|it was|they're|they are|that's|that is|(?:he|she)(?:'s| is)"
                       r"(?: called| named)?|i(?:'m| am) [a-z]+ to)\s+(?:actually\s+)?(?P<new>[^,.;!?]+?)(?:\s+(?:actually|now|instead))?\W*$",
                       clause, re.I)
    if swapped:  # "my allergy isn't peanuts, it's tree nuts": B replaces A
        return Intent("correct", {"new": swapped.group("new").strip(), "old": swapped.group("old").strip(),
                                  "key": key_of(swapped.group("k")) if swapped.group("k") else "", "swapped": True})
    gone = (re.search(r"\b(?:anymore|any more|no longer)\b|\bnot\b[^,.]*\bafter all\b", clause, re.I) and re.search(r"\b(?:i|my)\b", clause, re.I)
            or re.match(r"^\W*i (?:quit|left|sold|gave up|stopped|finished|broke up with|split (?:up )?with|moved out of|"
                        r"lost|got rid of)\b", clause, re.I))
    if not as_text and re.search(ALL_GONE, clause, re.I):  # "wipe your memory of me clean", "a clean slate" (rule 330)
        kept = re.search(r"\b(?:except|but|apart from|other than|besides)\s+(?:for\s+)?(?:not\s+)?(?P<kept>.+)$", clause, re.I)
        return Intent("forget", {"key": "*", "value": None, "what": "everything", "everything": True, "except": kept.group("kept") if kept else ""})
    if forget and forget.group("what").lower() in (PRONOUNS | {"about it", "that stuff", "it all"}) - {"everything"}:
        forget = None  # "forget it": never mind, unless the clause says what is no longer true
        if not gone:
            return Intent("none")
    if forget:  # "forget that I told you I hate rain": what was said, never the saying (rule 328)
        told = re.sub(r"^(?:(?:the fact )?that )?i (?:told you|said(?: to you)?|mentioned)(?: (?:that|about))?\s+(?=\w)|^(?:all|everything|anything|"
                      r"whatever|what)(?: (?:that )?you(?:'ve| have)? (?:know|have|got|saved|stored|kept|remember|noted|recorded))? (?:about|on|"
                      r"regarding|concerning) (?=\w)", "", forget.group("what"), flags=re.I)
        mention = re.match(rf"^(?:{ANY_NOTE}) (?:(?:that|which) )?(?:mentions?|mentioning|contains?|containing|says?|saying|with|"
                           r"includes?|including|refers? to|referring to) (?:the (?:word|name|text) )?[\"']?(?P<word>[^\"']+?)[\"']?$", told, re.I)
        if mention:  # "erase anything that mentions Berlin": every note holding the word (rule 329)
            word = re.sub(r"^(?:my|the|an?)\s+(?:(?-i:[a-z])+\s+)*?(?=(?-i:[A-Z]))", "", mention.group("word"), flags=re.I)  # "my cousin Ravi": Ravi
            return Intent("forget", {"key": topic_key(word), "value": None, "what": word, "mention": True})
        what = re.sub(r"^(?:all (?:of )?(?=my )|everything (?:you know )?about |all (?:that )?(?:you (?:know|have|remember) )?about |what i (?:told|said to) you about |the (?:note|bit|thing|"
                      rf"stuff) about |{RECORD} |about |the |my )+|\s+(?:thing|stuff|bit|info)$|"
                      r"\s+(?:too|as well|also)$", "",
                      told, flags=re.I) or told
        if re.match(EVERYTHING, forget.group("what"), re.I):
            kept = re.search(r"\b(?:except|but|apart from|other than|besides)\s+(?:for\s+)?(?P<kept>.+)$", clause, re.I)
            return Intent("forget", {"key": "*", "value": None, "what": "everything", "everything": True,
                                     "except": kept.group("kept") if kept else ""})
        if len(items := re.split(r",?\s+and\s+(?=(?:my|the|where|what|when)\b)", forget.group("what"))) > 1:
            return Intent("several", {"intents": [one(f"forget {item}", None) for item in items]})
        said = re.sub(r"^(?:all (?:of )?(?=my )|everything (?:you know )?about |all (?:that )?(?:you (?:know|have|remember) )?about |what i (?:told|said to) you about |(?:what|whatever|anything) "
                      r"(?:you know|you have|you've got|you remember) (?:about|on) |(?:who|what|where|when|which) "
                      r"(?=my )|the (?:note|bit|thing|"
                      rf"stuff) about |{RECORD} |about |the )+|\s+(?:thing|stuff|bit|info)$", "",
                      told, flags=re.I)
        facts = stated(said)
        key = facts[0][0] if facts else asked(question_of(said)) or topic_key(said)
        every = {"every": True} if re.match(r"(?:all|everything|anything|whatever|what)\b", forget.group("what"), re.I) and told != forget.group("what") else {}
        return Intent("forget", {"key": key, "value": facts[0][1] if facts else None, "what": what, **every})  # rule 331: each hit
    if gone and not clause.rstrip().endswith("?"):  # "I don't work at Globex anymore": what memory says is no longer true
        what = re.sub(r"\b(?:i'm|i am|im|i|my|don't|do not|not|no longer|anymore|any more|have|work at|live in|"
                      r"scrap|forget|delete|remove|drop|that|from|your|notes|memory|quit|left|sold|gave up|stopped|"
                      r"finished|lost|so|(?:it )?turns out|after all|you can|please|(?:get|got) rid of|broke up with|split (?:up )?with|moved out of|last (?:week|month|year)|the|a)\b", " ",
                      re.sub(rf"\b{FILLERS}\b", " ", clause, flags=re.I), flags=re.I)  # "not vegan btw": vegan (rule 414)
        if not re.sub(rf"\b(?:in|on|at|since|last|this|ago|{MONTH})\b", "", timing(what)[2], flags=re.I).strip(" ,.!"):
            return Intent("none", {})  # "I quit in january": a time, nothing named to forget
        return Intent("forget", {"key": topic_key(what), "value": None, "what": what.strip(" ,.!"), "stale": True, "clause": clause})
    lead = re.match(r"^\W*(?:correction|actually|sorry|oops|wait|my bad|i meant|i mean|to be clear)\b[\s,:;.!-]+(?P<rest>\w.+)$",
                    clause, re.I)
    if lead and not re.search(r"\bnot\b|n't\b|\b(?:it|that)(?:'s| is| was)\b", lead.group("rest"), re.I) and stated(lead.group("rest")):
        return one(lead.group("rest"), previous)  # "Actually, my name is Bea": the statement, which replaces what it says
    fix = re.match(r"^\W*(?:correction|actually|no|nope|sorry|oops|wait|scratch that|my bad|i meant|i mean|that'?s (?:wrong|not right|"
                   r"incorrect)|wrong|not quite|you(?:'ve| have) (?:got )?(?:my \w+|it|that|this) wrong|my [a-z]+(?: [a-z]+)?(?:'s| is) "
                   r"(?:wrong|incorrect|out of date))\b.*?\b(?:it's|it is|its|"
                   r"it was|make (?:it|that)|should be|i meant|i mean|(?:[A-Z][a-z]+|he|she|they|my \w+) (?:is|'s|are)(?: (?:named|called))?)\s+(?:actually\s+)?(?P<new>[^,.;!?]+?)(?:,?\s*(?:and )?not\s+"
                   r"(?:an? |the )?(?P<old>[^,.;!?]+))?(?:,? sorry)?(?:[,.;!].*)?$", clause, re.I)
    if fix:  # "Correction: it's a Honda Accord, not a Civic": the memory that holds the old value gets the new one
        named = re.match(r"^\W*my ([a-z]+(?: [a-z]+)?)(?:'s| is) (?:wrong|incorrect|out of date)", clause, re.I) or re.search(
            r"\bmy ([a-z]+(?: [a-z]+)?)(?:'s| is) (?:actually )?(?=[^,]*,?\s*(?:and )?not\b)", clause, re.I) or re.search(
            r"\byou(?:'ve| have)? (?:got )?my ([a-z]+(?: [a-z]+)?) wrong\b", clause, re.I)  # "my birthday is X, not Y"; "you have my X wrong"
        return Intent("correct", {"new": re.sub(SPELLING, "", fix.group("new"), flags=re.I).strip(), "old": (fix.group("old") or "").strip(),
                                  "key": key_of(named.group(1)) if named else ""})
    note = re.match(r"^\W*(?:please |pls |can you |could you )?(?:remember|note|don't forget|do not forget|keep in mind|jot down|"
                    r"write down|save|store|record|log|hold on to)"
                    r"\b(?: that|:)?\s*(?P<what>.+?)[.!]*$", clause, re.I)
    if note and not clause.rstrip().endswith("?") and note.group("what").lower() in ("it", "that", "this", "them", "those", "these"):
        return Intent("pointer", {"what": ""})  # "My username is kit9. Remember it.": the fact said before it (rule 200)
    if note and (clause.rstrip().endswith("?") or note.group("what").lower() in PRONOUNS):
        note = None  # "Remember me?" is a question, not something to remember
    asked_for = re.match(r"^\W*(?:to\s+)?(?=(?:remind|ping|nudge|schedule|set (?:a|an|up a) (?:reminder|alarm))\b)", note.group("what"), re.I) \
        if note else None
    if asked_for:  # "Don't forget to remind me to water the plants tomorrow": the reminder is the request, not a note
        return one(note.group("what")[asked_for.end():], previous)
    if note and (pointed := pointer(note.group("what"))) is not None:  # "remember that please", "note the flat number"
        return Intent("pointer", {"what": pointed})
    if note:
        facts = stated(note.group("what"))
        if facts:
            return Intent("remember", {"facts": facts, "importance": "high"})
        return note_of(note.group("what"))
    expression = arithmetic.expression(clause, previous)
    if expression:
        return Intent("calculate", {"expression": expression})
    if someone := of_someone(clause) or wrong_of_someone(clause):
        return someone
    key = asked(clause)
    if key:
        return Intent("ask", {"key": key, "about": clause})
    shape = statements.question(as_question(clause))
    if shape:  # "What car do I drive?": answered from the statement with the same verb
        return Intent("ask", {"key": shape["subject"] + "_" + shape["verb"], "about": clause, "shape": shape})
    subject = quoted(clause)
    reference = re.fullmatch(r"(?:the )?(?:result|output|answer)|it|that|this", subject, re.I)
    command = clause.replace(subject, " ") if subject != clause and not reference else clause  # "lowercase this: LOUD"
    about_me = re.match(r"^\W*(?:i|my|we|i'm|i've)\b", clause, re.I) and not re.search(r"[:\"']", clause) or \
        re.match(r"^\W*(?:is|are|does|do)\s+[\"“'‘]", clause, re.I) or \
        re.match(r"^\W*(?:how (?:do|can|would|should) (?:i|you|we)|how to|what'?s the best way)\b", clause, re.I)  # advice
    ops = sorted((m.start(), kind, m) for pattern, kind in (TEXT_OPS if not about_me else ())
                 for m in [re.search(pattern, command, re.IGNORECASE)] if m and kind not in ("count_letter", "length"))
    in_turn = len(ops) == 2 and re.fullmatch(r"\W*(?:(?:it|this|that|the (?:text|words?|string))\W+)?(?:and then|then|and|"
                                              r"(?:and )?after that|followed by)\W*(?:(?:make|turn|put|convert|change|get|write) (?:it|that|this|the result)?\W*(?:into|to|in)?\W*)?", command[ops[0][2].end():ops[1][2].start()], re.I)
    if len(ops) == 2 and ops[0][1] != ops[1][1] and (in_turn or re.match(r"\s*(?:version |form )?of\b", command[ops[1][2].end():], re.I)):
        inner, outer = (ops[0][1], ops[1][1]) if in_turn else (ops[1][1], ops[0][1])  # "uppercase this, then reverse it: ..." in turn (rule 399); "uppercase the reverse of 'stop'": the reverse first
        return Intent("several", {"intents": [Intent("text", {"op": inner, "text": subject, "letter": None}),
                                              Intent("text", {"op": outer, "text": "the result", "letter": None})]})
    for pattern, kind in TEXT_OPS if not about_me else ():  # "I love loud music" is not a command
        match = re.search(pattern, command, re.IGNORECASE)
        if match and kind not in ("reverse_each", "reverse_words") and re.search(BUT_FOR, command, re.I):
            break  # "lowercase everything except the first letter": not the plain operation, so none of it
        if match:
            letter = match.groupdict().get("letter")
            if kind == "length" and subject != clause and re.search(NO_SPACES, command, re.I):
                subject = "".join(subject.split())  # "how many characters in 'a b' without spaces": of "ab"
            return Intent("text", {"op": kind, "text": None if subject == clause else subject,
                                   "letter": letter and letter.lower()})
    facts = stated(clause)
    if facts:
        important = re.search(r"\b(?:important|never forget|make sure)\b", clause, re.I)
        casual = re.search(r"\b(?:by the way|btw|not important)\b", clause, re.I)
        old = re.search(r",?\s+(?:and )?not\s+(?:an? |the )?(?P<old>[^,;.!?]+?)\s*(?:[,;.!?]|$)", clause, re.I)
        return Intent("remember", {"facts": facts, "importance": "high" if important else "low" if casual else None,
                                   "old": old.group("old") if old else ""})  # "..., not Tom": what it corrects
    for pattern, kind in OTHER[1:]:
        match = re.search(pattern, clause, re.IGNORECASE if kind not in ("weather", "wish") else 0)
        if match:
            slots = {k: (v or "").strip() for k, v in match.groupdict().items()} | {"clause": clause}
            return Intent(kind, conditioned(slots) if kind == "schedule" else slots)
    loose = re.match(r"^\W*(?:when|what|where|who|which|how(?= do| does| did| is| are))(?:'s| is| are| was| were)?\s+"
                     r"(?P<k>(?!you\b|i\b).+?)\W*$",
                     clause, re.IGNORECASE)
    if loose:  # a question about something else: answered only if memory mentions it
        return Intent("ask", {"key": key_of(loose.group("k")), "about": clause, "loose": True})
    if another := of_another(clause):
        return another
    return Intent("unknown", {"text": clause.strip().rstrip(".!?")})


def of_another(clause: str) -> Intent | None:
    """Rule 164: "my dad smokes", "My grandmother speaks Greek", "my brother has diabetes": a plain present-tense fact
    about one of the user's people, kept as said about that person; never their words ("my boss says ..."), a negation,
    a hedge, or a fact about the user told through them ("my boss hates me")."""
    found = re.match(rf"^\W*{statements.OPENERS}my (?P<who>[a-z]+)(?: (?-i:[A-Z][a-z]+))? (?P<verb>[a-z]+)\b(?P<rest>[^?]*?)[.!]*$", clause, re.I)
    if not found or found.group("who").lower() not in PEOPLE or re.search(statements.NEGATIONS + "|" + statements.HEDGES, clause, re.I):
        return None
    verb, rest = found.group("verb").lower(), found.group("rest").strip(" ,")
    base = statements.base_form(verb) if verb != "has" else "have"
    if verb == base or verb in (statements.AUXILIARIES | statements.MODALS) - {"has"} or base in statements.NOT_FACT_VERBS | statements.MODALS | statements.AUXILIARIES - {"have"} \
            or re.search(r"\b(?:me|i|you|myself|my)\b", rest, re.I) or (base == "have" and not rest):
        return None  # "my dad drove" (not a present fact), "my mum says ...", "my boss hates me"
    return Intent("remember", {"facts": [(f"{found.group('who').lower()}_{verb}", rest)], "importance": None, "old": ""})


BUT_FOR = r"\b(?:except|excepting|apart from|other than|but not|but (?:keep|leave)|only the first|just the first|not the first|leave the first)\b"
NO_SPACES = r"\b(?:without|excluding|not counting|ignoring|minus|leaving out|no) (?:the |any )?(?:spaces|whitespace|blanks)\b"
CONDITION = (r"\b(?:only )?(?:if|unless|in case|provided (?:that )?|as long as|(?:when(?:ever)?|once|as soon as|after|before) "
             r"(?:i|we|it|you|my|the|he|she|they)\b)[^,;.!?]*")
WHEN_IN_CONDITION = r"\s*\b(?:tomorrow|tonight|today|this (?:morning|afternoon|evening|weekend)|on [a-z]+day|next [a-z]+)\b"


def conditioned(slots: dict) -> dict:
    """A reminder with a condition the agent cannot check ("If it rains tomorrow, remind me to take an umbrella")
    keeps the condition in its task ("take an umbrella if it rains"), never dropped; a time inside the condition
    ("tomorrow") is the reminder's time."""
    found = re.search(CONDITION, slots["clause"], re.I)
    if not found or not slots.get("task"):
        return slots
    condition = found.group().strip()
    task = slots["task"].replace(condition, "").strip(" ,")
    when = (slots.get("when") or "").replace(condition, "").strip(" ,")
    timed = re.search(WHEN_IN_CONDITION, condition, re.I)
    if timed and not when:
        when, condition = timed.group().strip(), (condition[:timed.start()] + condition[timed.end():]).strip()
    return slots | {"task": f"{task} {condition[0].lower()}{condition[1:]}", "when": when}


POLITE = r"please|pls|plz|thanks|thank you|thx|for me|now|too|as well|ok|okay|will you|would you|could you|can you|kindly"


CANCEL = r"cancel|call off|unschedule|deschedule|dequeue|abort"
REASON = r"(?:,\s*(?:the|it|it's|i|i'm|we|we're|they|that's|as|since|because|cause)\b[^?]*)?"  # ", the meeting's off": why
TASK_NOUN = r"(?:task|reminder|job|alarm|timer|appointment|booking|to-?do)s?"
REPEATING = r"(?:daily|weekly|monthly|hourly|nightly|yearly|fortnightly|recurring|repeating|regular|scheduled)"
TAKEN_BACK = {"that", "this", "it", "everything", "all", "all that"}


RECORD = (r"(?:(?:the |that |this |any |all (?:the )?|every |your |my )?(?:records?|entry|entries|notes?|memory|memories|info|information|"
          r"details?|data|facts?) (?:about|on|regarding|concerning|for|of)|(?:the |that |those |any |all (?:the )?)?(?:things?|stuff|bits?|"
          r"anything|everything|what(?:ever)?(?= you))(?: (?:that |which )?you(?:'ve| have)?(?: got| already)? (?:have|know|got|keep|hold|"
          r"stored|saved|remember|noted|recorded)(?: stored| saved| on file| in memory)?)? (?:about|on|regarding|concerning))")
# "the record about my job", "the stuff you've got on my job" (rule 346): what memory holds on it
WANT_TO = r"(?:i|we) (?:need|want|have|would like|'d like|wanna) to|i must|let's|let us"  # "I need to cancel the massage"


def cancelled(clause: str) -> Intent | None:
    """"cancel the weather check", "stop checking the weather", "I don't need the reminder to call mum any more",
    "drop the laundry task": scheduled work called off, named by the user's words (the tool decides what matches)."""
    lead = rf"^\W*(?:(?:{ASKING}|{WANT_TO})\W+)*"  # "actually, cancel ...", "oh wait, call off ..." (rule 408)
    said = (re.match(rf"{lead}(?:{CANCEL})\s+(?:my |the |our )?(?P<what>.+?)(?:,? please)?{REASON}[.!]*$", clause, re.I)
            or re.match(rf"^\W*(?:i )?(?:don't|do not|no longer|won't|will not|will no longer) need (?:the |my |that |this )?{TASK_NOUN} (?:to |for |about )?"
                        rf"(?P<what>.+?)(?: any ?more| now)?[.!]*$", clause, re.I)
            or re.match(rf"^\W*(?:i )?(?:don't|do not|no longer|won't|will not|will no longer) need (?:the |my |that |this )"
                        rf"(?P<what>[^,;]+?\s+{TASK_NOUN})(?: any ?more| now)?{REASON}[.!]*$", clause, re.I)
            or re.match(rf"{lead}(?:forget|forget about|never mind)\s+(?:the |that |this |my )(?P<what>[^,;]+?\s+(?:reminder|alarm|timer|"
                        rf"appointment|booking)s?)(?:,? please)?{REASON}[.!]*$", clause, re.I)  # "forget about the bins reminder"
            or re.match(rf"{lead}(?:delete|remove|drop|scrap|clear|ditch|get rid of)\s+(?:the |that |this |my |(?=\w+'s \w+\s+{TASK_NOUN}\b))(?P<what>[^,;]+?\s+{TASK_NOUN}"
                        rf"|{TASK_NOUN}\s+(?:to|for|about)\s+.+?)(?:\s+from (?:the |my )?(?:queue|schedule|list))?(?:,? please)?{REASON}[.!]*$", clause, re.I)
            or re.match(rf"{lead}(?:delete|remove|drop|scrap|clear|ditch|get rid of|take)\s+(?:the |that |this |my |our )?(?P<what>[^,;]+?)\s+"
                        rf"(?:(?:off|from) (?:the |my |our )?(?:calendar|agenda|diary|planner|schedule)|(?<!\bmy )(?<!\bthe )(?:event|meeting)s?)"
                        rf"(?:,? please)?{REASON}[.!]*$", clause, re.I)  # "remove the swim from my calendar", "delete the book club event"
            or re.match(rf"{lead}(?:stop|halt|end|kill|turn off|switch off)\s+(?:the |my |our |that )(?P<what>{REPEATING}\s+[^,;]+?|"
                        rf"[^,;]+?\s+{TASK_NOUN})(?:,? please)?{REASON}[.!]*$", clause, re.I))  # "stop the daily weather check"
    stop = re.match(rf"{lead}(?:stop|quit)\s+(?P<verb>[a-z]+)ing\b(?P<rest>.*?)(?:,? please)?{REASON}[.!]*$", clause, re.I)
    if stop and not re.match(r"(?:remember|stor|keep|hold|track|sav|not|be)$", stop.group("verb"), re.I):
        said, what = stop, f"{base_verb(stop.group('verb'))}{stop.group('rest')}"
    else:
        what = said and re.sub(rf"^(?:the |my |our |that )?{TASK_NOUN}\s+(?:to|for|about)\s+|\s+{TASK_NOUN}$", "", said.group("what"), flags=re.I)
    if not said or what.lower() in TAKEN_BACK or re.search(rf"\b{RECORD} (?:my|me)\b", clause, re.I):
        return None  # "cancel that" takes back what was just said; "remove the record about my job" is memory
    return Intent("cancel", {"what": what.strip().strip("'\"‘’“”")})


def moved(clause: str) -> Intent | None:
    """"move the dentist to Thursday", "push my haircut back to 5pm", "reschedule the team lunch for Monday": something
    already scheduled, named by the user's words, and the new time (a time it must name: "move my car to the garage" is none)."""
    said = re.match(rf"^\W*(?:(?:please|pls|can you|could you|would you|just|ok|okay|and|so|now|{WANT_TO})\s+)*(?:move|shift|reschedule|push|"
                    r"postpone|bump)\s+(?P<what>.+?)(?:\s+from\s+[^,;]+?)?\s+(?:back |forward |out )?(?:to|till|until|for)\s+"
                    r"(?P<when>.+?)(?:\s+instead)?(?:,? please)?[?.!]*$", clause, re.I) or changed_time(clause) or moved_by(clause)
    if not said or not (timing(said.group("when"))[0] or from_the_event(said.group("when"))):
        return None
    return Intent("move", {"what": said.group("what").strip("'\"‘’“”"), "when": said.group("when"), "said": clause})


SHIFT = (r"(?:(?:back|forward|up|ahead|out|to|till|until|for)\s+)*(?:by\s+)?(?:an?|one|half an|two|three|four|five|six|ten|fifteen|"
         r"twenty|thirty|forty-five|ninety|\d+(?:\.\d+)?)\s+(?:minute|min|hour|hr|day|week)s?\b|(?:(?:back|forward|to|till|until|for)\s+)?"
         r"(?:the (?:same|following|next|previous) |the (?:day|week) (?:after|before)\b|that (?:same )?day\b|on the day\b)")


def moved_by(clause: str):
    """"push the vet back an hour", "move the vet a day earlier", "bring the call forward 30 minutes", "shift the review to
    the following week": something scheduled, moved by an amount counted from its own time (tasks.move finds it)."""
    return re.match(rf"^\W*(?:(?:please|pls|can you|could you|would you|just|ok|okay|and|so|now|{WANT_TO})\s+)*(?:move|shift|reschedule|push|"
                    rf"postpone|bump|bring|delay|put off)\s+(?P<what>.+?)\s+(?P<when>(?:{SHIFT}).*?)(?:,? please)?[?.!]*$", clause, re.I)


SCHEDULED_THING = rf"(?:{TASK_NOUN}|meetings?|events?|entr(?:y|ies)|class(?:es)?|sessions?|calls?|slots?|lessons?|practices?|workouts?)"


def changed_time(clause: str):
    """"change my gym reminder from 6pm to 7pm", "update the standup meeting to 9:30": something scheduled (a reminder,
    meeting, appointment ...) given a new time, the old one ("from 6pm") left out: a move."""
    said = re.match(rf"^\W*(?:(?:please|pls|can you|could you|would you|just|ok|okay|and|so|now)\s+)*(?:change|update|set(?! up)(?! (?:my |the )?alarm\b)|make|"
                    rf"switch|edit)\s+(?!(?:an?|another|one more|a new) )(?P<what>(?:my |the |our |that |this )?[^,;]*?\b{SCHEDULED_THING})(?:\s+(?:time\s+)?from\s+[^,;]+?)?"
                    rf"\s+(?:to|for)\s+(?P<when>.+?)(?:\s+instead)?(?:,? please)?[?.!]*$", clause, re.I)
    rest = said and re.sub(r",?\s*(?:at |and |but |keep |keep it at )*(?:the )?same (?:time|hour)(?: as before)?\W*$", "",
                           timing(said.group("when"))[2], flags=re.I)
    return said if said and not rest.strip(" ,.!?") else None  # "to drink water at 8am" is a task; "Friday, same time" a time


SAME_TIME = r"^\W*(?:(?:at|and|but|keep|keep it at|at the)\s+)*(?:the )?same (?:time|hour)(?: as before)?(?: please)?\W*$"


def base_verb(stem: str) -> str:
    """The verb a gerund was made from, without its "-ing": watering -> water, running -> run, making -> make."""
    if len(stem) > 2 and stem[-1] == stem[-2] and stem[-1] not in "lsz":
        return stem[:-1]  # runn -> run, but call stays call
    if len(stem) <= 4 and re.search(r"[^aeiou][aeiou][^aeiouwy]$", stem):
        return stem + "e"  # mak -> make, writ -> write
    return stem


def pointer(what: str) -> str | None:
    """What a note request points back to instead of saying a new fact, or None: "that please" -> "" (what was just said),
    "the flat number" -> "the flat number" (a fact named, not given). Politeness words are never a fact."""
    what = re.sub(rf"^(?:(?:{POLITE})\W+)+|(?:\W+(?:{POLITE}))+\W*$", "", what.strip(" .!,"), flags=re.I).strip(" .!,")
    if what.lower() in PRONOUNS | {"", "this one", "that one", "all that", "all this", "that too", "this too"} or \
            re.fullmatch(rf"(?:{POLITE})", what, re.I):
        return ""
    if about_me(what):  # "remember where I live": the fact named, not given (rule 162)
        return what
    named = re.fullmatch(r"(?:the|my|our|that|this|his|her|their)(?: [a-z'-]+){1,4}", what, re.I)
    return what if named and not re.search(r"\b(?:is|are|was|were|has|have|had|on|at|in|for|to|from|with|called|named)\b|\d",
                                            what, re.I) else None


def about_me(what: str) -> bool:
    """An embedded question about the user with no answer in it ("where I live", "what I do for a living")."""
    return bool(re.fullmatch(r"(?:where|what|when|who|which|how old)\b(?: [a-z'-]+){1,6}", what, re.I)
                and re.search(r"\b(?:i|i'm|my|me)\b", what, re.I))


def names_a_fact(what: str) -> bool:
    """Whether a pointer names a fact about the user that has a value ("my PT's name", "the flat number"), rather than
    being the note itself ("the milk")."""
    return about_me(what) or bool(re.search(r"^(?:my|our|his|her|their)\b|\b(?:number|name|code|date|time|address|day|email|phone|pin|"
                          r"password|birthday|details?|info)s?$", what, re.I))


def note_of(what: str) -> Intent:
    """A note kept as said ("Remember: dentist on Friday at 3pm")."""
    return Intent("remember", {"facts": [("note_" + topic_key(what), what)], "importance": "high", "note": True})


RESTATING = (r"^\W*(?:(?:correction|actually|sorry|oops|whoops|wait|my bad|scratch that|to be clear|no|nope|i meant(?: to say)?|"
             r"i mean|make (?:it|that)|rather)\b[\s,:;.!-]*)+")
STRONG_RESTATING = r"\b(?:correction|i meant|i mean|make (?:it|that)|scratch that|oops|whoops|my bad)\b"


def restated(clause: str, previous) -> Intent | None:
    """Rule 264: a correction said as a lead-in and the fact again ("Sorry, I meant I'm a lecturer, not a teacher", "oops,
    I drive a Kia not a Ford", "make that a nurse"): the fact as it is now, kept on its own key (so it replaces the one said
    before), never the lead-in ("I meant ...") as a fact. A bare value ("make that a nurse") is a correction of the fact
    just said, found by the correction rule. None when there is no lead-in, or when what follows is no fact."""
    lead = re.match(RESTATING, clause, re.I)
    if not lead or clause.rstrip().endswith("?") or re.search(r"\b(?:am|is|are|was|were|do|does|did)\s+not\b|n't\b|'m not\b",
                                                                clause[lead.end():], re.I):
        return None  # "No, I'm not a teacher" denies; it says nothing as it is now
    rest = re.sub(r"(?<=\w) (not (?:an? |the )?[^,.;!?]+?)\W*$", r", \1", clause[lead.end():].strip())  # "X not Y": "X, not Y"
    parts = re.match(r"^(?P<new>[^,;!?]+?)(?:,?\s*(?:and )?not\s+(?:an? |the )?(?P<old>[^,.;!?]+))?[\s.!]*$", rest, re.I)
    if not parts or re.search(r"\bnot\b|n't\b", parts.group("new"), re.I):
        return None
    if stated(parts.group("new")) and (intent := one(parts.group("new"), previous)).kind == "remember":
        intent.slots["old"] = (parts.group("old") or "").strip() or intent.slots.get("old", "")
        return intent
    if len(parts.group("new").split()) <= 4 and (parts.group("old") or re.search(STRONG_RESTATING, clause[:lead.end()], re.I)):
        return Intent("correct", {"new": parts.group("new").strip(), "old": (parts.group("old") or "").strip(), "key": ""})
    return None


def stated(text: str) -> list[tuple[str, str]]:
    """Facts the user states about themselves ("my name is Ada" -> [("name", "Ada")]).
    Other people's words, quoted speech and hypotheticals are not the user's facts."""
    if re.search(REPORTED, text, re.I) or re.match(r"^\W*(?:how|what|which|where|when|who|why|do|does|did|am|is|are|can)\b"
                                                   r"[^.!]*\b(?:i|my)\b[^.!]*\?\s*$", text, re.I):
        return []  # "How do I like my coffee?" asks; it states nothing
    text = plainer(text)
    found, taken = {}, []
    for pattern, key in FACTS:
        for match in re.finditer(pattern, text.strip(), re.IGNORECASE):
            value = re.sub(rf"(?:\s+{FILLERS})+$", "", match.group("v").strip(" ."), flags=re.I)  # "a lefty btw": a lefty (rule 414)
            key_here = key.format(k=key_of(match.groupdict().get("k") or ""))
            if key == "is_a":  # rule 414: "I'm a nurse" is a job, "I'm a lefty" says what the user is
                works = re.fullmatch(ROLE, re.sub(r" (?:at|for|in|with) .*", "", value), re.I) and value.split()[0].lower() not in TRAITS
                key_here, value = ("job", value) if works or " " in value or value.lower() in NOT_JOBS else (value.lower(), f"The user is {match['a']} {value}")
            if any(match.start() < end and start < match.end() for start, end in taken) or not sensible(
                    key_here, value, match, text.strip()):
                continue
            taken.append(match.span())
            value = re.sub(r"^(?:(?:actually|really|now|it's|it is|that's|that is)\s+)+|,?\s+not\s+[^,;]+$", "", value, flags=re.I)  # "actually June 14,
            # not 4"; "my colour: it's teal" is teal (rule 333)
            value = re.sub(r"\s+(?:last (?:week|month|year|spring|summer|autumn|fall|winter)|yesterday|recently|lately|"
                           r"\w+ (?:days|weeks|months|years) ago)$",
                           "", value, flags=re.I)  # when it happened is not part of the fact
            found.setdefault(key_here, value)
    if all(k.endswith("_name") and k != "name" for k in found) and (said := statements.statement(text)) \
            and f"{said[0]}_name" not in found:  # "I have a sister called Rosa": her name says it all
        found[said[0]] = said[1]  # "my sister Priya lives in Toronto": her name, and where she lives
    return sorted(found.items(), key=lambda item: text.lower().find(item[1].lower()))


PREPOSITION_NAME = r"_(?:to|with|from|at|in|for|of|on|by)_name$"


def sensible(key: str, value: str, match, text: str) -> bool:
    """Precision before recall: no pronoun likes ("I love you"), no negations, no lower-case places."""
    if (key == "name" or key.endswith("_name")) and not name_like(value, match, text) or re.search(PREPOSITION_NAME, key):
        return False  # rule 360: "my flight to Rome is ..." names where it goes, never the flight
    if key == "location" and not text[match.start("v")].isupper():
        return False
    if key in ("lives_in", "from") and value.lower().split()[-1] in NOT_PLACES:  # "I live in fear", "from the future"
        return False
    return not (value.lower() in PRONOUNS or value.lower().startswith(("it ", "you ", "that "))
                or key in NOT_KEYS or (key == "job" and value.split()[0].lower() in NOT_JOBS)
                or re.match(r"^(?:not|never)\b", value, re.I))


def name_like(value: str, match, text: str) -> bool:
    """A name is a word that is not a common one; lower case counts only after "my name is" / "call me"."""
    first, said = value.split()[0], text[match.start("v"):match.end("v")]
    coined = re.fullmatch(r"[A-Za-z][A-Za-z-]*\d[\w-]*", first) and re.search(r"\b(?:called|named)\b", text, re.I)  # "Route66" (rule 252)
    if first.lower() in NOT_NAMES or not first.isalpha() and "'" not in first and not coined or "'s" in value.lower():
        return False
    if " " in said and not (said.split()[1][0].isupper() or said.split()[1].isdigit()):  # "Ada's friend", not "Agent 47"
        return False
    explicit = re.search(r"\bname(?:'s| is)\b|\bcall me\b|\bcalled\b|\bnamed\b|^\W*(?:hi|hello|hey)\b", text, re.I)
    return said[0].isupper() or bool(explicit)


OPS = r"plus|minus|times|divided by|multiplied by|over"
LISTS = ("likes", "dislikes", "allergies")  # a new value joins the old one instead of replacing it
FORGET = (r"(?:never ?mind what i (?:told|said to) you about|(?:can|could|would|will) you (?:please )?not (?:keep|store|remember|save|hold on to)|forget|delete|remove|erase|wipe|clear(?: out)?|unlearn|unremember|unsave|unstore|un-?(?:remember|save|store|learn)|expunge|scrap|scratch|scrub|purge|nuke|drop|ditch|get rid of|(?:stop|quit|cease) (?:remembering|storing|saving|recording|logging)|don't remember|"
          r"do not remember|don't keep|do not keep|stop keeping|no need to keep|don't store|do not store|stop storing|"
          r"(?:i'd )?rather you didn't (?:keep|store|remember)|(?:don't|do not|stop|no need to) (?:hold|hang) on to|"
          r"no need to (?:keep|remember|store))")
EVERYTHING = (r"^\W*(?:everything(?!(?: (?:that )?you(?:'ve| have)? (?:know|have|got|saved|stored|kept|remember|noted|recorded))? (?:about|on|regarding|concerning) (?!me\b|myself\b|the user\b|them\b|us\b))(?: you know)?|all(?! about|\s+(?:of )?(?:my|the|your|these|those)\b|(?: that)? you(?:'ve| have)? (?:know|got|remember|have)(?: stored| saved| kept)? (?:about|on) (?!me\b|myself\b))|it all|all of (?:it|that|this|them)|every (?:memory|fact|thing)(?!\s+(?:about|of|on|regarding|concerning)\b)|"
              r"all (?:my|the|your|of my|of the|of your) (?:(?:stored|saved|kept|personal|remembered) )?(?:data|memor(?:y|ies)|facts|info|information|notes|details|records|entries|stuff)(?!\s+(?:about|of|on|regarding|concerning)\b)|"
              r"(?:my|your|the) (?:whole |entire )?memory\b(?!\s+(?:about|of|on|for|with|where|that|which|mentioning|regarding|concerning)\b))\b")  # rule 232
ANY_NOTE = (r"anything|everything|whatever|something|all|any|every|each|(?:any|all|every|each)(?: of)? (?:the |your |my )?(?:saved |stored )?"
            r"(?:notes?|memor(?:y|ies)|entr(?:y|ies)|facts?|records?|lines?)(?: you (?:have|keep|saved|stored))?")  # rule 329
ABOUT_ME = (r"(?:me|myself|(?:all|everything|anything|whatever|what)(?: you(?:'ve| have)? (?:know|have|got|remember|saved|stored|kept))?"
            r" (?:about|on|of) me)")
ALL_GONE = (rf"\b(?:{FORGET}|reset|empty|flush)\s+(?:(?:your|the|my) (?:whole |entire )?(?:memory|memories|notes|records)(?: (?:of|about|on) me)?|"
            rf"{ABOUT_ME})(?: (?:from|out of) (?:your |the )?(?:memory|notes|head|records|system))?(?: (?:clean|completely|entirely|totally))?"
            r"(?=\W*(?:please|pls|now|for good)?\W*$|\W*[,;.!]|\s+(?:and|but|except|apart from|other than|besides)\b)|\bclean slate|"
            r"\b(?:wipe|clear) the slate|\bslate clean|\b(?:start (?:over|afresh|fresh|from scratch)|fresh start)\b(?=.*\b(?:"
            r"memor|notes?\b|know|remember|forget|wipe|clear|delete|erase|about me|with me|on me))")  # rule 330: the whole memory
HYPOTHETICAL = r"^\W*(?:if|suppose|supposing|imagine|what if|pretend|assuming)\b"
REPORTED = r"[\"“”]|(?:^|\s)['‘]\s*i\b|\b(?:said|says|saying|told|tells|asked|asks|thinks|claims|claimed|wrote|writes|goes|going)\b|^\W*(?:if|suppose|imagine|what if|pretend)\b|\bif i\b"

ANY_THAT = [  # "is there anything I'm allergic to?" asks what; "are there any languages I speak?" asks which
    (r"\b(?:(?:is|are) there )?(?:anything|something)(?: that)? i(?:'m| am) ([a-z]+(?: (?:to|of|in|with|about|for))?)(?=\W*$)",
     r"what am i \1"),
    (r"\b(?:(?:is|are) there )?any [a-z]+(?: that)? i(?:'m| am) ([a-z]+ (?:to|of|in|with|about|for))(?=\W*$)",
     r"what am i \1"),  # "is there any food I'm allergic to?" (rule 231)
    (r"\b(?:(?:is|are) there )?any ([a-z]+(?: (?!what|where|when|who|which|how|that|if|whether|of)[a-z]+)?)(?: that)? i (?!can|could|should|must|need|have to|ought|would|will|might|may)"
     r"([a-z]+)\b", r"what \1 do i \2")]
MENTIONED = r"(?:mention(?:ed)?|tell you|told you|say|said)(?: (?:about|of))?"  # "did I mention any diet I follow?" asks which (rule 200)
EMBEDDED = [(r"\bmy ([a-z]+?)s name\b", r"my \1's name"),  # "whats my dogs name"
            (r"^(\W*)(?:i was|i(?:'m| am)|just) wondering (?:if|whether) you\b|^(\W*)i wonder(?:ed)? (?:if|whether) you\b", r"\1\2do you"),
            (r"\bdo you (?:happen to |still )?(?:recall|remember)\b", "do you remember"), (r"\bdo you happen to know\b", "do you know"),  # rule 354
            (r"\b(?:tell me|do you (?:know|remember)|remind me(?: of)?)\s+(what|which|where|when|who)\s+((?:\w+\s+){0,3}?)i(?:'ve| have)? "
             r"(?!am\b|was\b|do\b|did\b)(\w+)", r"\1 \2do i \3"), (r"\bdo i got\b", "do i have"),
            (r"\b(?:remind me|quick question|just wondering)[\s,:;-]+(?:of\s+)?(what|where|when|who|which|how)\b", r"\1"),
            (r"\bany (\w+) (?:stuff|things?|info|details?)\b.*$", r"what is my \1"),
            (r"\bwhat name do i go by\b|\bwhat(?:'s| is) my nickname\b|\bwhat do (?:people|you) call me\b", "what is my name"),
            (r"\b(what|who) are my (\w+?)s?'? names\b", r"\1 is my \2's name"),(r"\bwhat my (.+?) (?:is|was)\b", r"what is my \1"), (r"\bwhen my (.+?) is\b", r"when is my \1"),
            (r"\bwhere i (live|work|come from)\b", r"where do i \1"), (r"\bhow old i am\b", "how old am i"),
            (r"\bwhere i(?:'m| am) from\b", "where am i from"), (r"^(\W*(?:(?:can|could|would) you\s+|please\s+)*)(where|(?:what|which) (?:city|town|country|place|village))\s+i was born\b",
             r"\1\2 was i born"),
            (r"^(\W*(?:(?:can|could|would) you\s+|please\s+)*)(what|which|where|who|how old|how many)((?:\s+[a-z]+){0,2}?)\s+"
             r"(my(?:\s+[a-z']+){1,2}?)\s+(is|are|was|were)\W*$", r"\1\2\3 \5 \4?"),  # "who my dentist is" (rule 163)
            (r"^(\W*(?:(?:can|could|would) you\s+|please\s+)*)(what|which|where|who)((?:\s+[a-z]+){0,2}?)\s+i had\b",
             r"\1\2\3 did i have"), (r"\bwhat i do\b", "what do i do"),
            (r"^(\W*)(what|which|where|who|when)((?:\s+[a-z]+){0,2}?)\s+is it(?: that)?\s+i\s+(?!am\b|was\b|do\b|did\b)([a-z]+)\b",
             r"\1\2\3 do i \4"), (r"\b((?:do|did) i [a-z]+(?: [a-z]+)?|am i [a-z]+)\s+again(?=\W*$)", r"\1"),  # rule 200: a cleft
            (rf"^(\W*)(?:did|have) i (?:ever )?{MENTIONED} (?:any|a|an|my|which|what) ([a-z]+)(?: that)? i ([a-z]+)\b", r"\1what \2 do i \3"),
            (r"\b(where|who|(?:what|which) (?:company|firm|place)) am i (?:employed|working)(?: at| for)?\b", r"\1 do i work"),
            (r"^(\W*)(?:tell me|remind me of) (?:the|my) ([a-z]+) (?:that )?i ((?!am\b|was\b)[a-z]+)\W*$", r"\1what \2 do i \3?"),
            (r"^(\W*)the ([a-z]+) (?:that )?i ((?!am\b|was\b)[a-z]+)\W+what (?:was|is|'s) it(?: again)?\W*$", r"\1what \2 do i \3?"),
            (rf"^(\W*)(?:did|have) i (?:ever )?{MENTIONED} (?:any|a|an|my|which|what) ([a-z]+(?: [a-z]+)?)\W*$", r"\1what is my \2?"),
            *ANY_THAT]


INTENSIFIERS = (r"really|seriously|very|super|severely|deathly|quite|so|totally|extremely|highly|mildly|slightly|kind of|"
                r"kinda|actually|also|still|definitely|absolutely|pretty|incredibly")


def plainer(text: str) -> str:
    """The same words in fewer shapes: "what're" -> "what are", "my birthday's on" -> "my birthday is on",
    "I'm seriously allergic" -> "I'm allergic"."""
    text = re.sub(r"\b(what|who|where|when|how)'re\b", r"\1 are", text, flags=re.I)
    text = re.sub(r"\b(what|where|who|when|how|that)s\b", r"\1's", text, flags=re.I)  # "whats my sisters name"
    text = re.sub(r"\bhow (old|tall|much|many)'s\b", r"how \1 is", text, flags=re.I)  # "how old's my brother?"
    text = re.sub(r"\b(my (?:[a-z]+ )?[a-z]+)'s (?=(?:on|in|at|a|an|the|called|named|from|\d|jan|feb|mar|apr|may|jun|jul|aug|"
                  r"sep|oct|nov|dec)\w*\b)", r"\1 is ", text, flags=re.I)
    text = re.sub(r"\bam i (living|staying|based)\b", r"do i live", text, flags=re.I)  # "which city am I living in?"
    return re.sub(rf"\b(i'm|i am|im|i)\s+(?:{INTENSIFIERS})\s+(?=[a-z])", r"\1 ", text, flags=re.I)


def as_question(text: str) -> str:
    """A question said indirectly, said directly: "do you remember where I live?" -> "where do I live?",
    "remind me what I'm driving" -> "what am i driving"."""
    text = plainer(text)
    text = re.sub(r"\b(?:remind me|tell me|do you (?:know|remember))\s+((?:what|which|where|when|who)(?:\s+[a-z]+){0,3}?)\s+"
                  r"i(?:'m| am)\s+([a-z]+ing|[a-z]+ to)\b", r"\1 am i \2", text, flags=re.I)
    for pattern, plain in EMBEDDED:
        text = re.sub(pattern, plain, text, flags=re.IGNORECASE)
    return text


PLACE_ASKED = r"(?:where|(?:in )?(?:which|what) (?:city|town|country|place|village|area|state|county|part of (?:the )?\w+))"
WORK_ASKED = r"(?:where|(?:which|what|who) (?:company|firm|employer|business|organi[sz]ation|shop|school|hospital))"


def of_someone(clause: str) -> Intent | None:
    """Rule 141: a question about one thing of a person the user named asks that thing, never their name: "which city is
    my sister in?", "where's my brother based?" (where they live), "where does my dad work?", "which company does my wife
    work for?" (where they work), "how old is my son?" (their age). None for any other clause."""
    person = r"my (?P<p>[a-z]+)(?:'s)?"
    for pattern, asked in ((rf"^\W*{WORK_ASKED}(?:'s| is| does| do)? {person}\b.*\bwork(?:s|ing)?\b", "works"),
                           (rf"^\W*who does {person} work for\b", "works"),
                           (rf"^\W*{PLACE_ASKED}(?:'s| is| does| do| are)? {person}(?! *(?:work|job|office|meet|met|go|went|stud))"
                            rf"(?: (?:live|living|based|staying|now|these days|in|at the moment)\b|\W*$)", "lives"),
                           (rf"^\W*how old is {person}\W*$", "age"), (rf"^\W*what(?:'s| is) {person}(?:'s)? age\b", "age")):
        found = re.search(pattern, clause, re.I)
        if found and (who := key_of(found.group("p"))) in PEOPLE | {"mother", "father"}:
            return Intent("ask", {"key": f"{who}_{asked}", "about": clause, "person": who, "asked": asked})
    named = re.search(r"^\W*(?:(?:how old|what age) is (?P<a>(?-i:[A-Z])[a-z]+)(?: now| these days)?\W*$|where does (?P<w>(?-i:[A-Z])[a-z]+) (?P<v>live|work)\b)", clause, re.I)
    if named:  # "How old is Tom?": a person memory names (rule 143), else the question is read as before
        who, asked = (named["a"], "age") if named["a"] else (named["w"], "lives" if named["v"].lower() == "live" else "works")
        return Intent("ask", {"key": f"{who.lower()}_{asked}", "about": clause, "person": who.lower(), "asked": asked, "named": who})
    return None


def wrong_of_someone(clause: str) -> Intent | None:
    """Rule 143: "You've got Tom's age wrong, he's 9 now" corrects Tom's age (a named person's fact), as "you've got my X
    wrong, it's A" corrects the user's own; None for any other clause."""
    found = re.match(r"^\W*you(?:'ve| have)? (?:got )?(?P<who>(?-i:[A-Z])[a-z]+)'s (?P<what>[a-z]+(?: [a-z]+)?) (?:wrong|mixed up)"
                     r"\W+(?:(?:he|she|they|it)(?:'s| is| are|'re)|(?:he|she|they) (?:turned|turns))\s+(?P<new>[^,.;!?]+?)"
                     r"(?:\s+(?:now|actually|already|these days))?\W*$", clause, re.I)
    if not found:
        return None
    return Intent("correct", {"new": found.group("new"), "old": "", "key": key_of(f"{found.group('who')} {found.group('what')}")})


def asked(text: str) -> str | None:
    """The key a question asks about ("what is my dog's name?" -> "dog_name"), or None."""
    text = as_question(text)
    for pattern, key in QUESTIONS:
        match = re.search(pattern, text, re.IGNORECASE)
        if match:
            groups = {k: v for k, v in match.groupdict().items() if v}
            k = groups.get("k") or groups.get("k2") or ""
            key = key.replace("{k}", key_of(k)) if "{k}" in key else key
            return key if key.strip("_") and key not in NOT_KEYS else None
    return None


def question_of(what: str) -> str:
    """What to forget, as the question that would ask for it: "where I'm from" -> "where am I from"."""
    found = re.match(r"^(where|what|when|how old|who)\s+(i'm|i am|i)\b\s*(.*)$", what, re.I)
    if not found:
        return f"what is {what}"
    verb = "am" if found.group(2).lower() != "i" else "do"
    return f"{found.group(1)} {verb} i {found.group(3)}".replace(" do i am", " am i").strip()


def key_of(text: str) -> str:
    """'favourite colour' -> 'favourite_colour'; a word for a known key becomes that key ('address' -> 'lives_in')."""
    key = re.sub(r"\W+", "_", text.strip().lower().replace("'s", "")).strip("_")
    key = re.sub(r"^(?:new|current|present|latest|actual)_(?=[a-z])", "", key)  # "my new partner" is my partner
    key = "_".join(NEAR.get(part, part) for part in key.split("_"))  # "pup" is "dog", "fav" is "favourite"
    key = re.sub(r"\bfavorite\b", "favourite", re.sub(r"\bcolor\b", "colour", key.replace("_", " "))).replace(" ", "_")
    return SAME.get(key, key)


def topic_key(text: str) -> str:
    """A key for a note or a thing to forget: its first few words that matter."""
    words = [w for w in re.findall(r"[a-z0-9]+", text.lower().replace("'s", ""))
             if w not in {"my", "the", "a", "an", "i", "that", "to", "on", "at", "in", "is", "about", "where", "what"}]
    aliases = {"live": "lives_in", "name": "name", "birthday": "birthday", "job": "job", "allergy": "allergies",
               "allergies": "allergies", "like": "likes", "likes": "likes"}
    return aliases.get(words[0], "_".join(words[:3])) if words else "note"


def quoted(text: str) -> str:
    """The text a text operation works on: a quoted part, else what follows ':', 'in', 'of' or the verb."""
    found = (re.search(r"[\"“]([^\"”]+)[\"”]", text) or re.search(r"(?<!\w)'([^']+)'(?!\w)", text)
             or re.search(r":\s+(.+?)\s*$", text)
             or (value := given(text)) and re.search(f"({re.escape(value)})", text)
             or re.search(r"\b(?:flip|turn|spin) ((?:\S+ ){0,4}?\S+) (?:around|round|backwards)\b", text, re.I)
             or re.search(r"^\W*(?:please |can you |could you )?(?:convert|turn|change|make|put|write|say|spell)\s+(?!(?:it|this|that)\s)(.+?)\s+"
                          r"(?:(?:in|into|to|in all)\s+)?(?:upper ?case|lower ?case|all caps|caps|capitals|capital letters|"
                          r"small letters|backwards|reversed?)\b", text, re.IGNORECASE)
             or re.search(r"\bthe word (\S+?)[,.?!]*(?:\s|$)", text, re.I)
             or re.search(r"\b(?:acronyms?|initials|initialism|abbreviation|slug|length|reverse|uppercase|lowercase|(?:upper|lower|title)"
                          r"[- ]case|word count)\s+(?:for|of)\s+(?:the (?:words?|phrase|name|text) )?(.+?)(?:\s+please)?[?.!]*$", text, re.I)  # rule 225
             or re.search(r"\bhow (?:long|many characters)(?: long)? is (\w+)\W*$", text, re.I)
             or re.search(r"\b(?:in|of|the word|the text|this text|this)\s+(?:the word |the text |the sentence )?(.+?)"
                          r"(?:\s+for me|\s+please)?[?.!]*$", text, re.IGNORECASE)
             or re.search(r"^\W*(?:please |can you |could you )?\w+\s+(.+?)(?:\s+for me|\s+please)?[?.!]*$", text))
    return unnamed(found.group(1).strip()) if found else text


NAMING = r"(?:the|this|that|a|my|your) (?:string|word|text|phrase|name|sentence|line)"
GIVEN = r"(?:[,;:\-–—]|\band)\s*(?:it'?s|it is|that'?s|that is|which is|which'?s)\s+(?P<value>[^,;.!?]+?)\s*[.!?]*$"


def unnamed(subject: str) -> str:
    """Rule 429: words that only name what the text is ("the string", "the word", "the phrase") before it are never part
    of it: "reverse the string stressed" works on "stressed"."""
    return re.sub(rf"^{NAMING}\s+(?!(?:of|in|for|to|from|and|is)\b)(?=\S)", "", subject, flags=re.I) or subject


def given(text: str) -> str | None:
    """Rule 430: a text named by reference ("my name", "this word", "it") whose value the same message gives after it
    ("spell my name backwards, it's Annika", "reverse my password, which is hunter2"): that value; None otherwise."""
    value = re.search(GIVEN, text, re.I)
    referred = value and re.search(rf"\b(?:it|this|that|{NAMING}|(?:my|your|his|her|our|their) \w+)\b", text[:value.start()], re.I)
    return value.group("value").strip(" \"'“”‘’") if referred else None
