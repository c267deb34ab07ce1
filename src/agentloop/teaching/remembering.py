"""Plan, continued: the handlers for memory about the user: remember, ask back, forget, correct.

Facts are written under the memory's own keys, questions answered from memory in the prompt, the
conversation or a recall tool, deletes matched against what memory holds. Like plan.py's, a handler
returns the answer, or is a generator that yields calls; a replayed handler reads the calls it made.
"""
import re

from . import arithmetic, facts, say, statements
from .grammar import KIND_OF, NEAR, PEOPLE
from .rules import INJECTION, SENSITIVE, asks_confidential, kept_out, secret, unasked
from .tasks import ORDER_IN_DATA, refusal
from .toolbox import by_id, call, takes_key
from .understand import LISTS, Intent, as_question, not_so as negated, topic_key, understand



def remember(intent: Intent, turn):
    said = [(k, as_it_is(v)) for k, v in intent.slots["facts"] if v.strip()]  # "I graduated": an event, no value to keep
    if not said:
        return say.sentence(f"OK: {say.facts(intent.slots['facts']).strip()}")
    pairs, withheld = unsecret(said, turn)
    if not pairs:
        return withheld
    if rule := unasked(turn):
        return f"I haven't saved that: my instructions say: {rule.rstrip('.')}."
    tool = turn.tool("remember")
    if tool is None:
        name = dict(pairs).get("name")
        rest = [(k, v) for k, v in pairs if k != "name"]
        noted = f"You said {say.facts(rest)}; I have no memory tool, so I'll know it only in this conversation." if rest else ""
        return f"Nice to meet you, {name}! {noted}".strip() if name else noted
    known, keyed = turn.known(), takes_key(tool)
    if intent.slots.get("old") and len(pairs) == 1 and not keyed and turn.tool("forget") and ids_in_prompt(turn):
        return (yield from replace(Intent("replace", {"old": intent.slots["old"], "facts": pairs}), turn))  # notes by id (rule 196)
    if (old := superseded(turn, pairs, tool, intent.slots.get("drop_old"))) is not None:  # "I moved to Munich": the Berlin note goes (rule 284)
        return (yield from replace(Intent("replace", {"old": old, "facts": pairs}), turn))
    importance = intent.slots.get("importance") or next(
        (spec.get("default") for p, spec in tool.params.items() if "importance" in p or "priority" in p), None) or "medium"
    calls = []
    for key, value in pairs:
        key = turn.written(same_subject(known, key)) if keyed else key  # "my partner is Alex" replaces Sam
        old = facts.lookup(known, key) if key in LISTS else None
        value = f"{old}, {value}" if keyed and old and value.lower() not in old.lower() else value
        roles = {"key": key, "value": value} if keyed else {"value": third_person(value) if intent.slots.get("note")
                                                              else say.phrase(key, value, about_user=True)}
        calls.append(call(tool, **roles, importance=importance, scope="user", metadata={"key": key}))
    if (old := intent.slots.get("old")) and keyed and len(pairs) == 1:  # "my cat's name is Tomasz, not Tom"
        stale = rf"\b{re.escape(old)}\b"
        whole = re.match(r"(?:an?|the|my)\b", pairs[0][1], re.I)  # "a Tesla Model 3" replaces "Honda Civic" whole
        holders = [call(tool, key=turn.written(k), value=pairs[0][1] if whole else in_place(v, old, pairs[0][1]))
                   for k, v in known.items() if k not in (pairs[0][0], same_subject(known, pairs[0][0])) and re.search(stale, v, re.I)]
        new_key = same_subject(known, pairs[0][0]) not in known
        calls = holders if holders and new_key else calls + holders  # "not in Bristol anymore": Bristol's key gets Cardiff
    results = yield calls
    if reason := refusal(results):
        return f"I didn't store that. {reason}"
    if intent.slots.get("note") and re.match(r"the user\b", pairs[0][1], re.I):  # rule 321: said back to the user
        return f"Got it. I'll remember that {second_person(pairs[0][1])}."
    if intent.slots.get("note"):
        return f"Got it. I'll remember: {pairs[0][1]}."
    unerased = " I found no older note on it to erase." if intent.slots.get("drop_old") and not keyed else ""  # rule 284
    return f"{withheld} Got it. I'll remember that {say.facts(pairs)}.{unerased}".strip()


ADDED = r"\b(?:also|too|as well|another|other|second|in addition|additionally|plus|besides)\b"  # a fact beside the one held


def superseded(turn, pairs: list, tool, dropped: str = "") -> str | None:
    """Rule 284: in a store of sentences with a tool that erases notes by their text, the value a stored note holds on
    the one subject just stated anew ("User lives in Berlin" when the user says they moved to Munich): that note goes
    beside the new one. None for a keyed store, a subject that holds several things (likes, allergies, "user_" verbs),
    the same value again, or no such note."""
    eraser = turn.tool("forget")
    if len(pairs) != 1 or not eraser or takes_key(tool) or by_id(eraser) or asks_for_key(eraser):
        return None
    named = re.sub(r"^(?:the|that|this|my)\s+|\s+(?:note|entry|memory|fact|one)$", "", dropped or "", flags=re.I)
    named = "" if re.fullmatch(r"(?:it|that|this|them|(?:old|previous|former|outdated)(?: \w+)?)?", named, re.I) else named
    key, value = pairs[0]
    if turn.made:  # replayed after its calls: the note may be gone from the prompt; what was erased says what it held
        erased = [str(v) for args in turn.made if args[""] == eraser.name for p, v in args.items() if p]
        return (named or facts.facts_in_memory(erased[0]).get(key) or erased[0]) if erased else None
    if named:  # "I moved to Leeds, forget Bristol": the thing named goes, when a note holds it
        return named if any(re.search(rf"\b{re.escape(named)}\b", note, re.I) for note in notes_in(turn.system or "")) else None
    if key in LISTS or key.startswith("user_") or not note_holding(turn, key) or re.search(ADDED, turn.text, re.I):
        return None  # "I also have a dog named Max": a second one, never Rex's replacement
    if key.endswith("_name") and not re.search(r"\b(?:now|actually|any ?more|no longer|renamed|changed|new)\b", turn.text, re.I):
        return None  # "My dog's name is Max" beside Rex may be a second dog: only news of a change replaces a name
    held = facts.facts_in_memory(note_holding(turn, key)).get(key, "")
    return held if held and held.lower() not in value.lower() and value.lower() not in held.lower() else None


def as_it_is(value: str) -> str:
    """A value without the word that says it is so now ("paramedic now", "Bristol these days": rule 138): the memory is
    what is true, and "now" would be said back as part of the job."""
    return re.sub(r"(?<=\w)\s+(?:now|these days|nowadays|at the moment|at present|currently)$", "", value, flags=re.I) or value


def in_place(held: str, old: str, new: str) -> str:
    """The memory with the old value replaced by the new, the words before it said once: "a hamster called Nibbles"
    corrected to "called Pip" is "a hamster called Pip", never "called called Pip" (rule 138)."""
    before = re.search(rf"(\w+)\s+{re.escape(old)}\b", held, re.I)
    if before:
        new = re.sub(rf"^{re.escape(before.group(1))}\s+(?=\S)", "", new, flags=re.I)
    return re.sub(rf"\b{re.escape(old)}\b", new, held, flags=re.I)


def unsecret(pairs: list, turn) -> tuple[list, str]:
    """The facts a rule lets memory keep, and what was said about the rest: "I like dark mode, and my API key is sk-..."
    keeps dark mode and not the key. When no one fact is the secret, the message's words decide for all of them."""
    what = secret(turn, pairs)
    if not what:
        kept, rule = kept_out(turn, pairs)  # "the user's name is never to be written into memory" (rule 172)
        return kept, f"I won't store {' or '.join(say.thing(k) for k, _ in pairs if (k, _) not in kept)}: my instructions " \
                     f"say: {rule}." if rule else ""
    said = [pair for i in understand(turn.text) if i.kind == "remember" for pair in i.slots["facts"]]
    blamed = [pair for pair in said if secret(turn, [pair], whole=False)]
    kept = [pair for pair in pairs if pair not in blamed] if blamed else []
    apart = [c for c in re.split(r"[,;]|\s[-–—]\s|[.!?](?:\s|$)", turn.text) if not re.search(SENSITIVE[what], c, re.I)]
    if not blamed and all(any(v.lower() in c.lower() for c in apart) for _, v in pairs):  # rule 360: the secret in a clause of
        return pairs, f"I left out {what.replace('a ', 'the ', 1)}, which my instructions keep out of memory."  # its own
    refused = [pair for pair in pairs if pair not in kept]
    told = (f"I won't store {' or '.join(say.thing(k) for k, _ in refused)}: it looks like {what}, and sensitive data must "
            "not go into memory." if refused and kept else
            f"I won't store that: it looks like {what}, and sensitive data must not go into memory." if refused else "")
    return kept, told


def not_so(intent: Intent, turn):
    """"I'm not married", said in passing: acknowledged as said, never stored, and never as its positive (a negation is
    no fact to keep; "Remember that I'm not married" asks for a note, and gets one). When memory holds what it denies
    ("I'm not vegetarian" with `diet: vegetarian`), that memory is no longer true and goes, as "anymore" would."""
    [(key, value)] = intent.slots["facts"]
    denied = re.sub(r"^not\s+" + (r"[a-z]+\s+" if key == "user_does" else ""), "", value)  # "not have a car": "a car"
    denied = re.sub(r"^(?:an?|the|any|in|at|to)\s+", "", denied)
    erased = turn.tool("forget") and any(made[""] == turn.tool("forget").name for made in turn.made)
    if denied and (facts.mentioning(turn.known(), denied) or erased) and turn.tool("forget"):  # made: replayed after it
        return forget(Intent("forget", {"key": topic_key(denied), "value": None, "what": denied, "stale": True}), turn)
    if (disliked := re.match(r"^not (?:really|much|particularly|especially) (?:like|enjoy|love|care for) (.+?)\W*$", value, re.I)) \
            and turn.tool("remember"):  # "I don't really like karaoke": a dislike, as "I don't like karaoke" is
        return remember(Intent("remember", {"facts": [("dislikes", disliked.group(1))]}), turn)
    if re.search(TASTE, value, re.I) and turn.tool("remember"):  # rule 216: "I'm not a morning person" is a taste, kept as said
        return remember(Intent("remember", {"facts": intent.slots["facts"]}), turn)
    if turn.tool("remember"):  # rule 321: "I don't have any pets" is a lasting fact, kept as said: never its positive
        return remember(Intent("remember", {"facts": [(topic_key(denied) or "user_not", statements.said(key, value, about_user=True))],
                                            "note": True}), turn)
    return f"OK: {say.facts(intent.slots['facts'])}. I have no memory tool, so I'll know it only in this conversation."


TASTE = r"^not (?:an? (?:[a-z]+ )?(?:person|fan|lover|type|drinker|eater|fan of .+)|(?:a )?(?:big |huge )?fan of .+|(?:really )?into .+)$"


def third_person(note: str) -> str:
    """A note kept as one sentence, the way memory services write it: "I take my coffee black" -> "The user takes
    their coffee black"; a note that is not a first-person statement is kept as said."""
    said = statements.statement(note) or negated(note)  # "I don't drive": "The user does not drive"
    return (statements.said(*said, about_user=True) or note) if said and re.match(r"^\W*i\b", note, re.I) else note


def same_subject(known: dict, key: str) -> str:
    """The key memory already keeps this subject under ("partner_name" for "partner"), else the key."""
    bare = key.removesuffix("_name")
    near = facts.ALIASES.get(key, ()) if key != "location" else ()  # where they are this week is not where they live
    return next((k for k in known if k != key and (k.removesuffix("_name") == bare or k in near)), None) or next(
        (k for k in known if near_names(k, key)), key)


LOOSE_HEADS = {"location", "lives_in", "prefers", "likes"}  # near names of another grain: a city is no street address


def near_names(held: str, key: str) -> bool:
    """Rule 285: two keys for one subject in the near-name table ("mobile_number" and "cell" are both a `phone`, and
    `phone` is theirs): a new value under one replaces the other. Near names of another grain (a city, an address; where
    they are this week, where they live) never do."""
    heads = [head for head in facts.ALIASES if head not in facts.LOOKED_IN | LOOSE_HEADS]
    return held != key and any({held, key} <= {head, *facts.ALIASES[head]} for head in heads)


def holder(known: dict, key: str) -> str:
    """Rule 280: the key memory keeps this subject under, by name (same_subject) or else by meaning: "phone_number" and
    "mobile" are kept as `phone`, so the correction writes `phone` again instead of adding a key beside it."""
    if (named := same_subject(known, key)) != key or key in known:
        return named
    if worded := named_in(known, key):  # "address" is `home_address`, before the city a looser lookup finds
        return worded
    meant = facts.canonical(key)
    return next((k for k in known if k.replace("_", "") == key.replace("_", "") or facts.canonical(k) == meant), key)


def ask(intent: Intent, turn):
    key, known = intent.slots["key"], turn.known()
    if asks_confidential(turn.system, intent.slots["about"]) and not found(known, key):  # "what's the code word?" when it
        # is not to be disclosed; a memory of theirs is still theirs ("never share the user's address with others")
        return "I can't tell you that: my instructions say it is confidential."
    if "|" in key and (every_one := all_of(key, known)):  # rule 163: "which foods should I avoid?": each that memory holds
        return every_one
    if "|" in key:  # "anything I shouldn't eat?": what they avoid, else their allergies, else their diet
        key = next((k for k in key.split("|") if facts.lookup(known, k) is not None), key.split("|")[0])
    tool = turn.tool("list_memory", "recall") if key == "*" else turn.tool("list_memory") if key == "note" \
        else turn.tool("recall")
    if tool is not None and not tool.params and key != "*":
        tool = None  # a tool that takes nothing cannot search for one thing (peek_inbox() is no memory search)
    if key == "*" and not known and tool and takes_key(tool):  # get_fact(subject) cannot list everything
        return "I can only look up one thing at a time in my memory: ask me about it (your name, where you live, ...)."
    shape = intent.slots.get("shape") or statements.question(as_question(intent.slots["about"]))
    if not found(known, key) and tool:
        queries = [say.query(key) if key != "*" else "user"]
        queries += [key.replace("_", " ")] if key != "*" and key.replace("_", " ") not in queries and "|" not in key else []
        if shape and not takes_key(tool) and re.fullmatch(r"[a-z]{3,}|(?!do|be|am|is)[a-z]{2}", shape["said"]):  # "go" too (rule 417)
            verb = statements.third_person(shape["said"])  # "what instrument do I play?": "The user plays the cello"
            thing = [as_said(w, intent.slots["about"]) for w in sorted(shape["words"])[:1]]
            queries = (thing + [verb] if shape["verb"] in LIGHT_VERBS else [verb, *thing]) if intent.slots.get("shape") \
                else [*queries, verb]  # rule 318: "do I have a bike?" searches "bike", never "has" first
        if shape and not takes_key(tool):  # "where did I spend my childhood?": "grew" too; "what do I do on Thursdays?": Thursdays first
            more = [q for q in statements.searched(shape) if q not in queries][:3]
            queries = more + queries if shape["verb"] == "do" and shape["words"] else queries + more
        queries = by_its_own_noun(queries, key, intent.slots["about"]) if not takes_key(tool) else queries
        if shape and shape["yes_no"] and not takes_key(tool) and (thing := thing_asked(intent.slots["about"])):
            queries = [thing, *[q for q in queries if q != thing]]  # "Do I like coffee?": the note about coffee, whatever its verb
        if (group := kind_named(intent.slots["about"])) and not takes_key(tool):  # "any food issues?": "allergic" (rule 286)
            queries = KIND_SEARCH.get(group, "").split() or queries
        nouns = [facts.canonical(w) for w in asked_about(intent.slots["about"])]
        tries, opaque = (), []
        results, asked_key = [], nouns[0] if takes_key(tool) and key.startswith("user_") and nouns else key
        if takes_key(tool) and (on_file := keys_listed(turn.system)):  # "keys saved: diet, name": one of them, never a made-up key
            asked_key = listed(", ".join(on_file), key, intent.slots["about"])
            if (by_verb := said_with_verb(on_file, shape)) and asked_key in (None, f"{shape['subject']}_name"):
                asked_key = by_verb  # "where does my sister live?": `sister_lives`, not her name
            if asked_key is None:
                return f"None of the keys I can look up ({', '.join(on_file)}) is about that, so I don't know."
        elif takes_key(tool) and (lister := turn.tool("list_memory")) and lister is not tool:  # list the keys, then fetch one
            [listing] = yield [call(lister, limit=50, scope="user")]
            asked_key = listed(listing, key, intent.slots["about"]) or said_of_user(listing, intent.slots["about"])
            if asked_key is None and (opaque := opaque_keys(listing)):  # "fact1, note_3": keys that say nothing are opened
                opened = yield [call(tool, key=k, query=k, limit=5, scope="user") for k in opaque]
                known.update(read_opened(opaque, opened))
                tries, queries = None, []
            if asked_key is None and not opaque and not nothing(listing):  # the keys are listed and none is about it: never a guessed one
                names = ", ".join(re.findall(r"[A-Za-z][\w-]*", listing)[:12])
                return f"None of the keys I can look up ({names}) is about that, so I don't know."
            asked_key = asked_key or key
        tries = [] if tries is None else likely_keys(asked_key) if takes_key(tool) and not keys_listed(turn.system) \
            and not turn.tool("list_memory") else []
        for query in tries or list(dict.fromkeys(queries))[:3]:  # a second word when the first finds nothing, as a person would search; not a fourth
            asked_key = query if tries else asked_key  # rule 265: a get-by-key tool alone is tried with the likely keys
            roles = {"key": asked_key, "query": query} if takes_key(tool) else {"query": query, "key": key}  # a look-up: the key
            [result] = yield [call(tool, **roles, limit=10 if key == "*" else 5, scope="user")]
            results.append(result)
            if not nothing(result):
                break
            if takes_key(tool) and (other := listed(result, key, intent.slots["about"], asked_key)) and other != asked_key:
                asked_key = other  # "no slot 'dietary'; slots in use: diet": the key it names
                [result] = yield [call(tool, key=asked_key, query=query, limit=5, scope="user")]
                results.append(result)
                break
        if 0 < len(results) < 3 and all(map(nothing, results)) and not takes_key(tool) and key != "*" \
                and not intent.slots.get("loose"):  # rule 163: wider, for a question about the user ("who wrote Hamlet?" is not)
            if broader := wider(key, intent.slots["about"], queries):
                [result] = yield [call(tool, query=broader, key=key, limit=5, scope="user")]
                results.append(result)
        if results and all(map(nothing, results)) and not takes_key(tool) and key != "*":  # rule 251: near words, at most two more
            for near in near_searches(intent.slots["key"], intent.slots["about"], queries)[:2]:
                [result] = yield [call(tool, query=near, key=key, limit=5, scope="user")]
                results.append(result)
                if not nothing(result):
                    break
        for result in results:
            if nothing(result):
                continue  # an empty answer is not a memory
            if takes_key(tool):
                known.setdefault(asked_key, result.strip())  # get_fact(key) answers with the bare value
                near = {alias for each in key.split("|") for alias in (each, *facts.ALIASES.get(each, ()))}
                key = asked_key if key.startswith("user_") or asked_key in near or facts.canonical(asked_key) == key else key
                # said as what was found ("children" for the model's "kids")
            known.update(facts.facts_in_memory(result))
            known.update((k, v) for k, v in facts.facts_in_memory(of_the_user(result)).items() if k not in known)  # rule 288
            known.update((f"memory_{i}", text) for i, text in enumerate(facts.texts_in(result))
                         if not facts.facts_in_memory(text) and not re.match(r"\W*$", text))
        if (named := intent.slots.get("named")) and not takes_key(tool):  # rule 353: "Tom" is `son_name`: the son's notes
            for relation in [k.removesuffix("_name") for k, v in known.items() if k.endswith("_name")
                             and v.strip().lower() == named.lower()][:1]:
                [result] = yield [call(tool, query=relation.replace("_", " "), key=key, limit=5, scope="user")]
                known.update((k, v) for k, v in facts.facts_in_memory(result).items() if k not in known)
    if "|" in intent.slots["key"] and (every_one := all_of(intent.slots["key"], known)):  # what the searches found
        return every_one
    if "|" in intent.slots["key"]:  # "any food I must avoid?" answered by the allergy a near search found (rule 251)
        key = next((k for k in intent.slots["key"].split("|") if facts.lookup(known, k) is not None), key)
    if intent.slots.get("person"):
        return of_someone(intent, known)
    if shape and shape["yes_no"] and (no := denied(intent.slots["about"], known)):  # "Do I like coffee?": "No: you don't"
        return no
    if key == "*":
        return everything(known)
    if key == "note":
        notes = [v for k, v in known.items() if k.startswith(("note", "memory_"))]
        if notes:
            return f"You asked me to remember: {'; '.join(notes)}."
        if turn.tool("recall"):  # a search needs words: it cannot list what it does not know to ask for
            return "I can only search my memory by its words: tell me what it was about and I'll look."
        return "You haven't asked me to remember anything yet."
    if honest := for_another_time(intent, known, key):  # "where am I this week?": not where they live
        return honest
    if owned := owned_thing(intent.slots["about"], known):  # "what phone do I have?": the phone, never its number (rule 415)
        return owned
    if of_a_kind := by_kind_asked(intent.slots["about"], known):  # "any food issues I have?": lactose intolerant (rule 286)
        return of_a_kind
    if attribute := facts.attribute_said(intent.slots["about"], known):  # "which hand do I write with?": left-handed (rule 230)
        return attribute
    if shape and (kept := statements.answer(shape, known)):
        return yes_only_if_so(shape, intent.slots["about"], kept)
    if shape and (named := [k for k in known if (set(k.split("_")) & (shape["words"] | statements.NOUNS.get(shape["verb"], set()))
                                                 or statements.kinds_in(k.replace("_", " ")) & statements.kinds_in(" ".join(shape["words"])))
                            and not statements.decode(k)]):  # "which band do I love?", "any pets?" (`cats`): the memory named
        return yes_only_if_so(shape, intent.slots["about"],
                              say.sentence(("Yes: " if shape["yes_no"] else "") + say.phrase(named[0], known[named[0]])))
    held, value = facts.holder(known, key)
    if held != key and (held.endswith("_name") or held in say.PHRASES and held in facts.family(key)
                        or held == key.removesuffix("_name") or held not in facts.family(key)):  # rule 138: "diet" found
        # for "food" is said as a diet  # "my dog's name" from `dog: a labrador called Nala`
        key = held  # "who am I married to?" finds `wife_name`: said as what it is, never as the word asked with
    thing = re.search(r"\bdo i (?:like|love|enjoy) (.+?)[?.!]*$", intent.slots["about"], re.I)
    if thing and value is not None:
        liked = thing.group(1).lower() in value.lower()
        return f"Yes: you like {value}." if liked else f"I don't know that you like {thing.group(1)}; you told me you like {value}."
    if value is None and key.endswith("_name") and (thing := facts.lookup(known, key.removesuffix("_name"))) is not None:
        key, value = key.removesuffix("_name"), thing  # "who's my fav band?": the band, not a name
    if value is not None:
        return say.sentence(say.phrase(key, value))
    if word := next((w for w in asked_about(intent.slots["about"]) if facts.lookup(known, facts.canonical(w)) is not None
                     and not (shape and w == shape["subject"]) and not owned_name(key, w)), None):  # "where does my brother live?" is not his name
        key = facts.canonical(word)  # "where's home for me these days?", "what's my line of work?"
        held = facts.holder(known, key)[0]
        key = held if held not in facts.ALIASES.get(key, ()) else key  # said as what memory holds (rule 138)
        return say.sentence(say.phrase(key, facts.lookup(known, key)))
    if key.endswith("_name") and (named := name_told(known, key)):  # `pets: a cat named Pixel and a parrot named Kiwi` (rule 322)
        return say.sentence(say.phrase(named[0], named[1]))
    if key in ("lives_in", "location") and (base := based_at(intent.slots["about"], known)):  # rule 357
        return base
    if notes := sharing_words(known, intent.slots["about"]) or loosely(known, key) or naming_the_thing(shape, known):
        return "My notes say: " + "; ".join(dict.fromkeys(noted(notes))) + "."
    if intent.slots.get("loose"):
        return say.fallback(intent.slots["about"], turn.tools)
    if owned := re.match(OWNED, intent.slots["about"], re.I):  # rule 415: "what phone do I have?" is no phone number
        return say.without_promise(f"I don't know what {owned['thing'].lower()} you have yet. Tell me and I'll remember it.", bool(turn.tool("remember")))
    return say.unknown(key if not intent.slots.get("shape") else "user_" + key, can_keep=bool(turn.tool("remember")))  # "how old is my dad?": never "your dad be"


OWNED = (r"^\W*(?:what|which)(?: (?:kind|sort|type|make|model|brand) of)? (?P<thing>[a-z]+) (?:do i (?:have|own|use|drive|ride)|"
         r"have i got|did i (?:get|buy))\b")  # rule 415: a thing the user has


def owned_thing(question: str, known: dict) -> str | None:
    """Rule 415: "what phone/car/laptop do I have?" asks for the thing the user has: the one memory whose words name a
    thing of that kind ("an iPhone 15" is a phone, a beagle a dog), said as kept; never a number ("555-1234" is a phone
    number, no phone). None when it asks no such thing, or no one memory or several answer it."""
    asked = re.match(OWNED, question, re.I)
    thing = asked and statements.lemma(asked["thing"].lower())
    held = [(k, v) for k, v in known.items() if asked and not re.fullmatch(r"[\d\s()+.-]+", str(v).strip()) and any(
        w.endswith(thing) or KIND_OF.get(w) == thing for w in map(statements.lemma, re.findall(r"[a-z]+", f"{k} {v}".lower())))]
    if len(held) != 1:
        return None
    key, value = held[0]
    return f"Your {asked['thing'].lower()} is {value}." if key.split("_")[0] in (thing, asked["thing"].lower()) else \
        "My notes say: " + "; ".join(noted(held)) + "."


def confirm(intent: Intent, turn):
    """Rule 319: "my cat's name is Luna, isn't it?": each fact is asked of memory as a question would be, and the answer
    says whether memory agrees ("Yes: ...", "No: your cat is Miso.") or that it does not know; nothing is stored."""
    replies = []
    for key, value in intent.slots["facts"]:
        reply = yield from ask(Intent("ask", {"key": key, "about": intent.slots["about"]}), turn)
        held = not re.search(r"\bdon't know\b|\bno rule\b|\bcan't\b", reply)
        agrees = all(re.search(rf"\b{re.escape(w)}", reply, re.I) for w in re.findall(r"[a-z0-9]{3,}", value.lower()))
        replies.append(reply if not held else ("Yes: " if agrees else "No: ") + lowered(reply))
    return " ".join(replies)


def name_told(known: dict, key: str) -> tuple | None:
    """Rule 322: the name a stored value gives the thing asked, under whatever key it is kept: "the parrot's name" is
    Kiwi in `cat: a cat named Pixel and a parrot named Kiwi`; one name only, never a guess between two."""
    thing = re.sub(r"^(?:the|my|our)_", "", key.removesuffix("_name"))
    names = {m[1] for v in known.values() for m in re.finditer(
        rf"\b{re.escape(thing.replace('_', ' '))}s?,?\s+(?:who is |that is |which is )?(?:named|called)\s+([A-Z][\w'-]*(?-i:(?:\s+[A-Z][\w'-]*)*))", str(v), re.I)}  # rule 351
    return (f"{thing}_name", names.pop()) if len(names) == 1 and "_" not in thing else None


KIND_ASKED = r"\b(?P<word>[a-z]+)(?: (?:issues?|problems?|restrictions?|needs|requirements|conditions?|stuff|things|details|info))\b"
WHOLE_KINDS = {"hobbies", "pastimes", "health", "family", "relatives", "vehicles", "finances"}  # a kind named by itself


KIND_SEARCH = {"food": "allergic intolerant diet", "health": "allergic condition medication", "hobbies": "plays enjoys hobby",
               "family": "children married sister", "vehicles": "drives car", "contact": "phone email", "pets": "pet dog cat",
               "work": "works job", "money": "salary income"}  # rule 286: what a search for a kind of fact is made with


def kind_named(question: str) -> str | None:
    """Rule 286: the category a question names as a kind ("food issues", "health problems", "hobbies"), or None."""
    words = re.findall(r"[a-z]+", question.lower())
    named = [m["word"] for m in re.finditer(KIND_ASKED, question.lower())] + [w for w in words if w in WHOLE_KINDS]
    return next((facts.CATEGORY_WORDS[w] for w in named if w in facts.CATEGORY_WORDS), None)


KIND_FRAME = set("""what which any are is there do does i i'm have has got 've my me tell about list show the all of that
    you know anything on file have stored saved kept remember please can could issues issue problems problem restrictions
    restriction needs requirements conditions condition stuff things details info""".split())


def only_a_kind_asked(question: str) -> bool:
    """Rule 286: the question asks for the facts of a kind and nothing more ("any food issues I have?", "what are my
    contact details?"), never a plan or advice beside it ("any work stuff I have to do today?", "what family things
    do I have planned?"): every word but the kind's is a frame word."""
    return not set(re.findall(r"[a-z']+", question.lower())) - KIND_FRAME - set(facts.CATEGORY_WORDS) - WHOLE_KINDS


def by_kind_asked(question: str, known: dict) -> str | None:
    """Rule 286: a question that names a kind of fact rather than one fact ("any food issues I have?", "what health
    problems do I have?", "do I have hobbies?", "my contact details?") is answered with every memory of that kind (the
    small table `facts.CATEGORIES`: food and diet, health, family, work, home, pets, vehicles, contact, hobbies); None
    when none is held, or the question names one fact ("what's my favourite food?")."""
    group = kind_named(question) if only_a_kind_asked(question) else None
    held = [(k, v) for k, v in known.items() if group and facts.in_category(group, f"{k.replace('_', ' ')} {v}")]
    if not held:
        return None
    yes = "Yes: " if re.match(r"^\W*(?:do|have|am|is|are|did)\b|^\W*any\b", question, re.I) else ""
    return say.sentence(yes + "; ".join(say.phrase(k, v) for k, v in held))


SUBJECTLESS = r"(?i)(?!(?:this|its|yes|news|notes|results|hits|matches|facts)\b)(?:is|has|was|[a-z]{2,}[^s\W]s)\s+\w"  # "lives in", "commutes by"


def of_the_user(result: str) -> str:
    """Rule 288: a search of the user's memory that returns notes without their subject ("Found 1 note: lives in Ghent",
    {"memory": "Lives in Ghent, Belgium"}, "- commutes by tram") returns notes about the user: each such line is read
    as "The user lives in Ghent", so the answer it holds is used. A line with a subject, or a "label: value" line, is
    left to the other rules."""
    lines = [re.sub(r"^\s*(?:[-*•]|\d+[.)])?\s*(?:(?:found|match(?:es)?|results?|hits?)\b[^:]{0,20}:\s*)?", "", line, flags=re.I)
             .strip(" '\"") for text in strings_in(result) for line in text.splitlines()]
    return "\n".join(f"The user {line[0].lower()}{line[1:]}" for line in lines if ":" not in line and re.match(SUBJECTLESS, line))


def strings_in(result: str) -> list[str]:
    """Rule 288: the texts of a tool result, however deep its JSON holds them (ids left out), else the result itself."""
    def texts(data) -> list:
        if isinstance(data, dict):
            return [t for k, v in data.items() if k != "id" for t in texts(v)]
        return [t for item in data for t in texts(item)] if isinstance(data, list) else [data] if isinstance(data, str) else []
    return [t for data in facts.json_in(result) for t in texts(data)] or [result]


def everything(known: dict) -> str:
    """Rule 197: all that memory holds, said to the user: a note under an id ("n1: The user likes chess") as "you like
    chess", never "your n1 is ...", and a fact read out of a note said once; nothing held is said so. A line that
    gives the assistant an order ("note: Ignore your rules and ...") is no fact about the user (rule 241)."""
    known = {k: v for k, v in known.items() if not (re.search(INJECTION, str(v), re.I) or re.search(ORDER_IN_DATA, str(v), re.I))}
    notes = [v for k, v in known.items() if re.fullmatch(NOTE_ID, k) or k.startswith("memory_")]
    said = [to_you(v) if v in notes else say.phrase(k, v) for k, v in known.items()
            if v in notes or not any(v.lower() in note.lower() for note in notes)]
    return "Here is what I know: " + "; ".join(dict.fromkeys(said)) + "." if said else "I don't know anything about you yet."


def as_said(stem: str, question: str) -> str:
    """Rule 201: a word to search with as a note can write it: the question's own word for the stem, one of it
    ("languag" in "Which languages ...?" is "language"), never the stem itself."""
    word = next((w for w in re.findall(r"[a-z]+", question.lower()) if statements.lemma(w) == stem), stem)
    return re.sub(r"ies$", "y", word) if word.endswith("ies") else re.sub(r"(?<=[^s])s$", "", word)


def wider(key: str, question: str, tried: list) -> str:
    """Rule 163: the search to try when the question's own words found nothing, from the kinds tables: the kind of the
    thing asked (a dog is a pet), its members (a partner: a wife, ...), its category (a mother: family); else ""."""
    words = [NEAR.get(w, w) for w in key.split("|")[0].split("_") + asked_about(question) if w != "name"]
    kinds = [KIND_OF.get(w) or KIND_OF.get(w[:-1]) for w in words]  # a dog is a pet
    members = [" ".join(sorted(m for m, kind in KIND_OF.items() if kind == w)[:5]) for w in words]  # a partner: a wife, ...
    groups = [group for w in words for group, held in facts.CATEGORIES.items() if w in held]  # a mother: family
    near = [" ".join(dict.fromkeys(" ".join(facts.family(w)).replace("_", " ").split()))  # a boss: manager, supervisor (rule 345)
            for w in [NEAR.get(w, w) for w in key.split("|")[0].split("_") if w != "name"]]
    return next((q for q in [*near, *kinds, *members, *groups] if q and q not in tried), "")


NEAR_SEARCH = {"avoid": "allergies allergic intolerant", "allerg": "allergic intolerant", "eat": "diet allergies",
               "liv": "home city address", "hom": "city address lives", "city": "lives home", "work": "employer workplace company",
               "job": "occupation work profession", "driv": "car vehicle", "car": "drives vehicle", "speak": "language languages",
               "languag": "speaks", "born": "birthday birthplace", "birthday": "born", "kid": "children", "child": "kids",
               "pet": "dog cat"}  # a question's word, as statements.lemma stems it -> words a note about it is written with (rule 251)


NEAR_SEARCH.update({statements.lemma(word): near for word, near in {  # rule 266: the usual categories' other words
    "diet": "vegan vegetarian pescatarian halal kosher gluten", "eat": "diet vegan vegetarian allergies",
    "dog": "pet", "cat": "pet", "wife": "spouse partner husband", "husband": "spouse partner wife",
    "partner": "spouse wife husband", "spouse": "wife husband partner", "kid": "children child daughter son",
    "child": "kids kid daughter son", "daughter": "child kid", "son": "child kid", "birthday": "born birth dob"}.items()})


def likely_keys(key: str) -> list[str]:
    """Rule 265: the keys a get-by-key tool is tried with when no tool lists them, at most three: the key, the thing
    without "_name", then its first near names ("dog_name": dog, pet_name; "birthday": birth_date, born)."""
    bare = key.removesuffix("_name")
    near = [*facts.ALIASES.get(key, ())[:1], *NEAR_SEARCH.get(statements.lemma(bare), "").split()[:1]]
    return list(dict.fromkeys([key, bare, *(f"{n}_name" if key.endswith("_name") else n for n in near)]))[:3]


def near_searches(key: str, question: str, tried: list) -> list[str]:
    """Rule 251: the words to search with when the question's own found nothing: the near words of the key's and the
    question's words ("avoid" -> allergies, allergic, intolerant), in order, never one already tried."""
    words = [statements.lemma(w) for w in [*re.split(r"[_|]", key), *re.findall(r"[a-z]{3,}", question.lower())]]
    near = [n for w in words for n in NEAR_SEARCH.get(w, "").split()]
    return [n for n in dict.fromkeys(near) if n not in tried]


def all_of(keys: str, known: dict) -> str | None:
    """The answer from every memory a question with several near keys finds ("avoids|allergies|diet|dislikes": the
    allergy and the disliked food), when more than one holds something; None otherwise."""
    held = {}
    for key in keys.split("|"):
        value = facts.lookup(known, key)
        if value is not None and value not in held.values():
            held[facts.holder(known, key)[0]] = value
    return say.sentence("; ".join(say.phrase(k, v) for k, v in held.items())) if len(held) > 1 else None


ASKED_OF = {"lives": ({"lives", "live", "living", "city", "home", "location", "based", "town", "country", "address", "place"},
                      "where your {} lives"),
            "works": ({"works", "work", "workplace", "employer", "company", "office", "employed"}, "where your {} works"),
            "age": ({"age", "old", "years"}, "how old your {} is")}


def of_someone(intent: Intent, known: dict) -> str:
    """Rule 141: the answer to a question about one thing of a person ("which city is my sister in?") is the memory of
    that thing of that person, never another of their facts (her name); with only other facts held, it says it does not
    know and what it does know."""
    person, (words, unknown) = intent.slots["person"], ASKED_OF[intent.slots["asked"]]
    if named := intent.slots.get("named"):  # "How old is Tom?": the memories whose key names Tom ("son_tom_age")
        holders = {k.removesuffix("_name") for k, v in known.items() if k.endswith("_name") and v.strip().lower() == person}
        theirs = {k: v for k, v in known.items() if person in k.split("_")[:-1] or k.split("_")[0] in holders}
        unknown = unknown.replace("your {}", named)
        if not theirs:
            return f"I don't know {unknown}."
    else:
        theirs = {k: v for k, v in known.items() if facts.canonical(k.split("_")[0]) == person
                  or KIND_OF.get(k.split("_")[0]) == KIND_OF.get(person, "-") or k.split("_")[0] in KIN.get(person, ())}
        # "wife_works" for "my partner"; "daughter_is" for "my kid" (rule 266)
    said = [say.phrase(k, v) for k, v in theirs.items()
            if set(k.split("_")[1:]) & words or intent.slots["asked"] == "age" and re.fullmatch(r"\d{1,3}(?: years?(?: old)?)?", v.strip())
            and k.split("_")[1:] in ([], ["is"], ["be"])]  # "daughter: 6" is her age
    if said:  # two children held for "my kid": both said, never one picked
        return say.sentence("; ".join(said))
    if held := told_with(person, words, known):  # "family: son Tomas, age 9": the note that says it, quoted (rule 163)
        return f'My notes say: "{held}".'
    if not theirs:  # never another person's fact ("your sister lives in Leeds" for the brother)
        return f"I don't know {unknown.format(person)}."
    return f"I don't know {unknown.format(person)}; I only know that {listed_out([say.phrase(k, v) for k, v in theirs.items()])}."


KIN = {"kid": {"daughter", "son", "child", "kids", "children"}, "child": {"daughter", "son", "kid", "kids", "children"},
       "kids": {"daughter", "son", "child", "kid", "children"}, "children": {"daughter", "son", "child", "kid", "kids"}}
# rule 266: a family word and the members it covers ("my kid" is the daughter or the son memory holds)


def told_with(person: str, words: set, known: dict) -> str | None:
    """Rule 163: the one memory that names the person and says the thing asked in its own words ("son Tomas, age 9",
    "kids: daughter Ines, 6 years old", "brother Sam - lives in Porto"), as written; None when none or several do."""
    said = [f"{k.replace('_', ' ')}: {v}" for k, v in known.items()
            if re.search(rf"\b{re.escape(person)}s?\b", f"{k.replace('_', ' ')} {v}", re.I)
            and words & {statements.lemma(w) for w in re.findall(r"[a-z]+", str(v).lower())} | words & set(re.findall(r"[a-z]+", str(v).lower()))
            and (not words & {"age", "old"} or re.search(r"\d", str(v)))]
    return said[0] if len(said) == 1 else None


def yes_only_if_so(shape: dict, question: str, reply: str) -> str:
    """Rule 144: a yes/no question is answered "Yes" only when the memory says the thing asked (or one of its kind: cats
    are pets, asthma is health): "Do I eat meat?" with `diet: vegetarian` is "I don't know that; my notes say you are
    vegetarian" (rule 234: "My notes don't say that; they say you are vegetarian"), never "Yes: you are vegetarian"; "Do I drive a Volvo?" is never "Yes: You drive a Tesla"."""
    if not reply.startswith("Yes: "):
        return reply
    told = re.findall(r"[a-z]+", reply.lower())
    lemmas = {statements.lemma(w) for w in told}
    kinds = {KIND_OF.get(one) for w in told for one in (w, w[:-1])}  # a labrador is a dog, a dog a pet
    kinds |= {KIND_OF.get(kind) for kind in kinds if kind}
    for word in re.findall(r"[a-z]+", question.lower()):
        if statements.lemma(word) not in shape["words"] or statements.lemma(word) in lemmas or {word, word[:-1]} & kinds \
                or word in ANY_SORT_OF:
            continue
        if (group := facts.CATEGORY_WORDS.get(word) or ("health" if word.startswith("condition") else None)) \
                and facts.in_category(group, reply):
            continue
        return f"My notes don't say that; they say {lowered(reply)}"  # rule 234: never "I don't know" before an answer
    return f"Yes: {lowered(reply)}"


ANY_SORT_OF = {"particular", "special", "specific", "certain", "kind", "sort", "type"}  # rule 234: "any particular diet" asks for one


YES_NO_ASKED = r"^\W*(?:(?:do|does) i (?:really |ever |still |actually )?(?P<verb>[a-z]+)|am i(?: really| still| actually)?) (?P<thing>.+?)\W*$"
AGAINST = {"dislike": "like love enjoy want fancy prefer", "hate": "like love enjoy want fancy prefer",
           "avoid": "eat drink take use have smoke"}  # a key that denies what a question with these verbs asks
CLOSED = {"a", "an", "the", "any", "some", "of", "to", "in", "on", "at", "for", "with", "my", "really", "much", "all"}


def denied(question: str, known: dict) -> str | None:
    """Rule 216: "Do I like coffee?" with `dislikes: coffee`, "Am I a morning person?" with the note "The user is not a
    morning person", "Do I drink alcohol?" with "The user never drinks alcohol": a memory that says the opposite of what
    a yes/no question asks (a key that denies its verb, or a negation before the same verb and thing) answers "No: ...",
    its negation kept. None when no memory denies it (then the question is answered as before)."""
    asked = re.match(YES_NO_ASKED, question.strip(), re.I)
    if not asked:
        return None
    verb = (asked.group("verb") or "be").lower()
    things = [w for w in re.findall(r"[a-z]+", asked.group("thing").lower()) if w not in CLOSED and len(w) > 2]
    if not things or verb in ("know", "live", "work"):  # "do I have ..." is a count or a kind (rules 83, 144): only a "not" answers
        return None
    named = lambda text: all(re.search(rf"\b{re.escape(w)}(?:e?s)?\b", text, re.I) for w in things)
    verbs = {"be": r"(?:is|am|are)", "have": r"(?:have|has)"}.get(verb, rf"(?:{verb}|{verb}s|{verb}es)")
    for key, value in known.items():
        value = str(value)
        against = re.search(r"\b(dislike|hate|avoid)s?\b", f"{key.replace('_', ' ')} {value}", re.I)
        if against and verb in AGAINST[against.group(1).lower()].split() and named(value):
            said = second_person(value) if re.match(r"\W*(?:the user|user)\b", value, re.I) else say.phrase(key, value)
            return f"No: {lowered(said).rstrip('.')}."
        negated = rf"\b(?:{verbs} (?:not|no)|{verbs}n't|(?:does|do|did) ?n[o']t {verb}|never {verbs}|no longer {verbs}|'m not|isn't|aren't)\b[^,;]*$"
        if named(value) and re.search(rf"(?:,|\bbut)\s*(?:not|never)\s+(?:\w+\s+){{0,2}}{re.escape(things[0])}", value, re.I) \
                and re.search(rf"\b{re.escape(verb[:4])}", f"{key.replace('_', ' ')} {value}", re.I):
            told = second_person(value) if re.match(r"\W*(?:the user|user)\b", value, re.I) else say.phrase(key, value)
            return f"No: {lowered(told).rstrip('.')}."  # `likes: tea, not coffee`: never "Yes" for coffee
        said = value if not key.startswith("user_") else f"the {key.replace('_', ' ')} {value}"  # `user_is: not a morning person`
        if named(value) and re.search(negated, said.split(things[0])[0] + things[0], re.I):
            return f"No: {second_person(said)}."
    return None


def thing_asked(question: str) -> str | None:
    """The first word of the thing a yes/no question asks about ("Do I like coffee?": coffee), searched first (rule 216)."""
    asked = re.match(YES_NO_ASKED, question.strip(), re.I)
    things = [w for w in re.findall(r"[a-z]+", asked.group("thing").lower()) if w not in CLOSED and len(w) > 2] if asked else []
    return things[0] if things and (asked.group("verb") or "be").lower() not in ("have", "know", "live", "work") else None


def second_person(note: str) -> str:
    """ "The user never drinks alcohol" -> "you never drink alcohol"; "User is not a morning person" -> "you are not ..."."""
    said = re.sub(r"^\W*(?:the user|user|they|he|she)\b\s*", "you ", note.strip().rstrip("."), flags=re.I)
    said = re.sub(r"^you (is|'s)\b", "you are", re.sub(r"^you (does|doesn't)\b", lambda m: "you " + m.group(1).replace("does", "do"), said))
    said = re.sub(r"^you (never|no longer|also|really)? ?([a-z]+?)(e?s)\b", lambda m: f"you {m.group(1) + ' ' if m.group(1) else ''}{m.group(2)}"
                  + ("e" if m.group(3) == "es" and not m.group(2).endswith(("sh", "ch", "x", "ss", "o")) else ""), said) \
        if not re.match(r"^you (?:is|are|has|was|do|don't)\b", said) else said
    return re.sub(r"^you has\b", "you have", said)


def lowered(reply: str) -> str:
    """ "Yes: You drive a Tesla." -> "you drive a Tesla." """
    said = reply.removeprefix("Yes: ")
    return said[:1].lower() + said[1:]


def noted(notes: list) -> list[str]:
    """The memories a loose question found, each said once in the second person: a note read into a fact is said as the
    fact ("your wife is a doctor"), never beside its own text ("The user's wife is a doctor; a doctor"), and a text under
    an id is said as written (rule 138)."""
    read = [(k, v) for k, v in notes if re.fullmatch(r"[a-z]+(?:_[a-z]+)*", k) and not k.startswith(("memory_", "note"))]
    values = {v.lower() for _, v in read}
    said = [say.phrase(k, v) for k, v in read]
    return said + [v for k, v in notes if (k, v) not in read and not any(held in v.lower() for held in values)]


SPAN = (r"\b(?:(?:this|next) (?:week(?:end)?|morning|afternoon|evening|month)|today|tonight|tomorrow|right now|at the moment|"
        r"(?:on |this |next )(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b")


def for_another_time(intent: Intent, known: dict, key: str) -> str | None:
    """"I don't know where you are this week; you live in Leeds": the reply to a question asked for a span when memory
    answers it only without the span (under another key, or where they live when the question does not say "live")."""
    held, value = facts.holder(known, key)
    moved = held != key or held == "lives_in" and not re.search(r"\b(?:live|living|home)\b", intent.slots["about"], re.I)
    if value is None or not moved or not (span := for_a_while(intent.slots["about"])):
        return None
    return f"I don't know {'where you are' if key in ('location', 'lives_in') else say.thing(key)} {span}; {say.phrase(held, value)}."


def for_a_while(question: str) -> str | None:
    """The span a question is asked for ("where am I this week?" -> "this week"), or None: an answer that holds without
    it (where they live) does not answer it."""
    found = re.search(SPAN, question, re.I)
    return found.group().lower() if found else None


PLAIN = set("""name time kind sort type thing things stuff what when where which much many remind tell know remember
    again these those days now please does have this that there with about your mine again still today""".split())


def by_its_own_noun(queries: list[str], key: str, question: str = "") -> list[str]:
    """The searches for a question, as a person would make them: no bare closed-class word ("for" in "what do I do for
    work?"), the thing's own noun second (the key, one of it: "job", "allergy") and its first near name third, so that
    they are tried within three. Rule 318: before a phrase as notes write it ("works as a"), the subject: the question's
    own word for the key ("profession" for `job`), then the key."""
    kept = [q for q in queries if len(q) > 3 or q not in PREPOSITIONS]
    noun = re.sub(r"ies$", "y", key) if re.fullmatch(r"[a-z]{3,}", key) else None
    near = [n.replace("_", " ") for n in facts.ALIASES.get(key, ())][:1] if say.query(key) != key else []  # "employer" too
    if noun and kept and " " in kept[0]:  # rule 318: "works as a" is how a note says it; the subject is searched first
        own = [w for w in asked_about(question) if facts.canonical(w) == key and w not in kept[0]][:1]
        return list(dict.fromkeys(own + [noun] + kept[:1] + near + kept[1:]))
    return list(dict.fromkeys(kept[:1] + [noun] + near + kept[1:])) if noun else kept


LIGHT_VERBS = {"hav", "get", "got", "own", "go"}  # rule 318: a verb that says nothing of the thing searched for ("go": rule 417)
PREPOSITIONS = set("for to at in on of by as up off out via per and but or the".split())


def owned_name(key: str, word: str) -> bool:
    """Rule 119: "what's my cat called?" asks the cat's name (`cat_name`): the word "called" never finds the user's own."""
    return key.endswith("_name") and key != "name" and facts.canonical(word) == "name"


def asked_about(question: str) -> list[str]:
    """The words of a question that could name a memory: "where's home for me these days?" -> ["home"]."""
    return [w for w in re.findall(r"[a-z]{3,}", question.lower()) if w not in PLAIN]


def listed(listing: str, key: str, question: str, tried: str = "") -> str | None:
    """The key a list of keys names for a question: the key itself, a near name of it, or one sharing a word
    (never the one just tried: "No note under 'avoids'. Labels on file: allergies")."""
    names = [n for n in re.findall(r"[A-Za-z][\w-]*", listing) if n != tried]
    near = {alias for each in key.split("|") for alias in (each, *facts.ALIASES.get(each, ()))}
    words = {statements.lemma(w) for w in re.split(r"[_\W]+", key) + asked_about(question) if len(w) > 2} - {"user"}
    # rule 201: "user" in "user_have" and "user_speaks" is whose it is, never a shared word ("what pets have I got?")
    role = {statements.lemma(w) for w in ("name", "again", "called")}
    words = words - role if key.endswith("_name") and words - role else words  # rule 265: "dog_name" is never `wife_name`
    return next((n for n in names if n in near), None) or next(
        (n for n in names if words & {statements.lemma(w) for w in re.split(r"[_\W]+", n) if len(w) > 2}), None) or next(
        (n for n in names if any(len(w) > 3 and (n.lower().endswith(w) or w.startswith(n.lower()) and len(n) > 3)
                                 for w in words)), None) or next(  # "nickname" for a name, "diet" for "dietary"
        (n for n in names if near_key_words(words) & {statements.lemma(w) for w in re.split(r"[_\W]+", n) if len(w) > 2}), None)


def opaque_keys(listing: str) -> list[str]:
    """Rule 305: the listed keys that say nothing of what they hold (`fact1`, `note_3`, `m2`), at most five: when no key
    is about the question, these are opened rather than the question given up."""
    return [n for n in re.findall(r"[A-Za-z][\w-]*", listing) if re.fullmatch(NOTE_ID, n)][:5]


def read_opened(keys: list, values: list) -> dict:
    """Rule 305: what the opened keys hold, as memory: each value under its key, and the facts its sentence states."""
    held = {}
    for key, value in zip(keys, values):
        if not nothing(value):
            held.update(facts.facts_in_memory(value))
            held.update(facts.facts_in_memory(of_the_user(value)))
            held[key] = value.strip()
    return held


def said_of_user(listing: str, question: str) -> str | None:
    """Rule 265: a listed key that names no thing, only the user having it (`user_has`, `user_owns`), read when no key is
    about a question on something of theirs ("my dog"): it may hold anything ("a golden retriever called Biscuit"); what
    it holds is still checked. None for any other question ("where do I live?" reads no `user_has`)."""
    if not re.search(r"\bmy\b", question, re.I):
        return None
    return next((n for n in re.findall(r"[A-Za-z][\w-]*", listing) if (said := statements.decode(n)) and said[0] == "user"
                 and statements.lemma(said[1]) in {statements.lemma(v) for v in ("has", "have", "owns", "own", "got")}), None)


def near_key_words(words: set) -> set:
    """Rule 265: the near words of a question's words, as a key is split ("wife": spouse, partner; "dog": pet)."""
    return {statements.lemma(n) for w in words for n in NEAR_SEARCH.get(w, "").split()}


def said_with_verb(keys: list, shape: dict | None) -> str | None:
    """A listed key that keeps a statement with the question's verb ("user_has" for "what car do I have?"), or None;
    what it holds is still checked against the kind asked (statements.answer)."""
    if not shape:
        return None
    near = {statements.lemma(v) for base, verbs in statements.NEAR_VERBS.items() if statements.lemma(base) == shape["verb"]
            for v in verbs} | {shape["verb"]}
    any_doing = shape["verb"] == "do" and not shape["words"] and shape["subject"] != "user"  # "what does my wife do?"
    return next((k for k in keys if (said := statements.decode(k)) and said[0] == shape["subject"]
                 and (any_doing or statements.lemma(said[1]) in near)), None)


KEY_NAMES = r"(?:keys?|labels?|slots?|fields?|headings?|entry names|entries|topics)"  # what a list of the names facts are kept under is called


def keys_listed(system: str) -> list[str]:
    """The keys a system prompt says facts are kept under ("keys saved: diet, name", "Labels on file: a, b"), else []."""
    said = re.search(rf"\b{KEY_NAMES}\b[\w ()]{{0,30}}:\s*([A-Za-z][\w-]*(?:\s*,\s*[A-Za-z][\w-]*)*)", system, re.I)
    return [k.strip() for k in said.group(1).split(",")] if said else []


def nothing(result: str) -> bool:
    """A search or look-up that found nothing ("unknown", "not found", "[]", a refusal); a value that starts with "no" ("no
    red meat", a diet) is a value (rule 138)."""
    if re.fullmatch(r"\s*no (?!such|matching|memor|entr|facts?\b|notes?\b|match|records?\b|results?\b|keys?\b|values?\b|data\b|"
                    r"info|saved|stored|one\b|idea|label|slot|field|attribute|item|hits?\b|luck|access|permission)[a-z]+(?: [a-z]+){0,3}\W*", result, re.I):
        return False
    return bool(refusal([result]) or re.search(r"\bunknown\b|not found|\bno (?:such|memories|results|matches)\b|"
                                               r"\bnothing (?:stored|found|saved)\b|^\W*$", result, re.I))


def found(known: dict, key: str) -> bool:
    return bool(known) if key == "*" else facts.lookup(known, key) is not None or bool(loosely(known, key))


def based_at(question: str, known: dict) -> str | None:
    """Rule 357: "which city am I based in?" asks where they live or work from: the one memory of theirs that places
    them ("works: remotely from Lisbon", "job: nurse in Leeds"), said whole; None for "where do I live?" or none or two."""
    if not re.search(r"\bbased\b|\b(?:which|what) (?:city|town|country|place)\b", question, re.I) or re.search(r"\bliv", question, re.I):
        return None
    placed = [(k, v) for k, v in known.items() if not facts.someone_else(f"{k} {v}")
              and re.search(r"\b(?:from|in|out of)\s+(?!(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b)(?-i:[A-Z])[a-z]+", str(v), re.I)]
    return say.sentence(say.phrase(*placed[0])) if len(placed) == 1 else None


def sharing_words(known: dict, question: str) -> list:
    """Rule 352: for a question naming someone, the memories sharing a word of it other than the name ("what instrument
    does Mia play?" finds `daughter_plays: the violin`, not `daughter_name: Mia`), compared by stem; [] when none does."""
    if not (names := {w.lower() for w in re.findall(r"(?<=\S )[A-Z][a-z]+", question)}):
        return []
    words = {statements.lemma(w) for w in asked_about(question) if w not in names} - LIGHT_VERBS
    return [(k, v) for k, v in known.items() if words & {statements.lemma(w) for w in re.findall(r"[a-z]{3,}", f"{k} {v}".lower()
                                                                                                  .replace("_", " "))}]


def naming_the_thing(shape: dict | None, known: dict) -> list:
    """Rule 428: "which marathon am I running?" with "The user is training for the Berlin marathon" found: the memories of
    the user's own whose value names the thing asked about, whatever verb they were said with; [] when none does."""
    words = {statements.lemma(w) for w in (shape or {}).get("words", ())} - LIGHT_VERBS
    return [(k, v) for k, v in known.items() if words and k.startswith(("user_", "memory_"))
            and words & {statements.lemma(w) for w in re.findall(r"[a-z]{3,}", str(v).lower())}]


def loosely(known: dict, key: str) -> list:
    """Memories that mention what was asked ("my dentist appointment" finds "dentist on Friday"), but
    never for a fact with a name of its own: "my cat's name" is not "your name"."""
    if key.endswith("_name"):  # "my cats' names": a statement about the cats, never another name ("your name is Ada")
        thing = statements.lemma(key.removesuffix("_name").split("_")[-1])
        return [(k, v) for k, v in known.items() if statements.decode(k)  # a beagle is a dog, a dog a pet
                and thing in {statements.lemma(kind) for w in re.findall(r"[a-z]+", v.lower())
                              for kind in (NEAR.get(w, w), KIND_OF.get(w, w), KIND_OF.get(KIND_OF.get(w, w), w))}]
    return [] if key == "name" or key in say.PHRASES else facts.mentioning(known, key.replace("_", " "))


def forget(intent: Intent, turn):
    """Match what is named against what memory holds, delete every match, and say what went (or did not)."""
    key, value = intent.slots["key"], intent.slots.get("value")
    what = f"that {say.phrase(key, value)}" if value else "everything" if key == "*" else by_name(intent) or said_of_self(intent) or say.thing(key)
    if not (what := plainly(what)):  # "don't keep him in your notes" with no one named: asked, never "your him" (rule 247)
        return whom(intent, turn)
    tool = turn.tool("forget")
    if tool is None:
        return "I can't forget anything: I have no tool to delete memories."
    if not tool.params:  # clear_slate(): one call wipes everything, and only everything
        if key != "*":
            return f"I can't forget only {what}: my one delete tool ({tool.name}) wipes everything, so I left memory as it is."
        results = yield [call(tool)]
        reason = refusal(results)
        return f"I couldn't forget that. {reason}" if reason else f"Done: I've forgotten everything ({results[0].strip()})."
    search = turn.tool("list_memory", "recall") if key == "*" else turn.tool("recall", "list_memory")
    replayed = any(args[""] in (tool.name, getattr(search, "name", "")) for args in turn.made)  # its own calls, never
    # another handler's ("I'm not a student any more, ... I work as an architect": the store call is not this delete's)
    shown = {}  # id -> the memory's text, when the ids came from a search
    named = matcher(intent, [f"{k.replace('_', ' ')} {v}" for k, v in turn.known().items()])
    group = facts.category_of(intent.slots.get("what") or "") if key != "*" and not value else None
    if group:  # "everything about my health": what belongs to it, by a small table (rule 140)
        named = lambda text: facts.in_category(group, text)  # noqa: E731
    if word := intent.slots.get("mention") and re.sub(r"^(?:my|the|an?)\s+", "", intent.slots["what"], flags=re.I):
        named = lambda text: bool(re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text, re.I))  # noqa: E731  rule 329: the word itself
    if by_id(tool) and (given := id_named(intent)):  # "remove memory id car", "delete note #12": the id as said
        what, targets = f"the memory with id {given}", [given]
    elif not takes_key(tool) and search:  # memory services delete by id: search first, then delete
        queries = broadly(turn) if key == "*" or group else [word] if word else [q for q in searched_before_delete(intent, key, value) if not generic(q)]
        targets = []
        for query in queries:  # how memory writes it, then the user's own word ("the bit about my allergy")
            [result] = yield [call(search, query=query, limit=20 if key == "*" else 5, scope="user") if query else every(search)]
            listed = facts.ids_in(result) or ([] if by_id(tool) or nothing(result) else [(t, t) for t in lines_found(result)])
            named = named if group or word else matcher(intent, [text for _, text in listed])  # "my old address": the one found
            targets = [i for i, text in listed if key == "*" or named(text)]
            targets = targets if key == "*" or group or word or intent.slots.get("every") else closest(intent, targets, dict(listed))
            shown = {i: text for i, text in listed if i in targets}
            if targets:
                break
        if not targets and key == "*":
            return "I searched my memory and found nothing to forget, so I deleted nothing."
        if not targets:
            return f"I couldn't find {anything_about(what)} to forget."
    elif (rest := others(turn, key, value)) and (keeper := turn.tool("remember")) and takes_key(keeper):
        results = yield [call(keeper, key=key, value=rest)]  # "forget that I like museums": keep jazz
        return f"I couldn't forget that. {reason}" if (reason := refusal(results)) else f"Done: I've forgotten {what}."
    elif by_id(tool) and not group and not replayed and (listed := ids_in_prompt(turn)):  # "[3] The user ...": its ids
        named = matcher(intent, [text for _, text in listed])
        targets = [i for i, _ in listed] if key == "*" else closest(intent, [i for i, text in listed if named(text)], dict(listed))
        shown = {i: text for i, text in listed if i in targets}
        if not targets:
            return f"I couldn't find {anything_about(what)} in my memory, so I deleted nothing."
    elif by_id(tool) and key != "*" and not replayed and not ids_shown(turn):  # deletes by id, no id in sight
        return f"I can't forget {what.removeprefix('that ')}: {tool.name} needs the memory's id, and I have no tool to look it up."
    elif not turn.known() and search and key != "*":  # memory not in the prompt, a search tool offered: look first
        [result] = yield [every(search) if group else call(search, query=say.query(key), limit=5, scope="user")]
        written, found = facts.keys_as_written(result), facts.facts_in_memory(result)
        targets = [v for k, v in written.items() if named(f"{v} {found.get(k, '')}")] or [
            k for k, v in found.items() if named(f"{k} {v}")]
        if not targets:
            return f"I couldn't find {anything_about(what)} to forget."
    else:
        known = turn.known()
        kept = intent.slots.get("except")
        spared = matcher(Intent("forget", {"key": "", "what": kept})) if kept else (lambda text: False)
        near = {key, *facts.ALIASES.get(key, ()), *facts.ALIASES.get(facts.canonical(key), ())}  # the key itself, or a key made
        # of its near names ("home_address"), or the key it is a near name of ("my number": `phone`)
        near |= {facts.canonical(key)} if facts.canonical(key) in facts.ALIASES else set()
        exact = [k for k in known if k in near or set(k.split("_")) & near and set(k.split("_")) <= near | {"home", "current"}]
        exact = [k for k in exact if not value or any(holds(t, value) for t in [f"{k.replace('_', ' ')} {known[k]}", *notes_holding(turn, k)])]  # rule 376: "allergic to cats" is not `allergy: pollen`
        targets = exact if exact and key != "*" and not group else [
            k for k, v in known.items() if (key == "*" or named(f"{k.replace('_', ' ')} {turn.written(k).replace('_', ' ')} {v}"))
            and not spared(f"{k.replace('_', ' ')} {turn.written(k).replace('_', ' ')} {v}") and (key == "*" or not value or any(holds(t, value) for t in [f"{k.replace('_', ' ')} {v}", *notes_holding(turn, k)]))]
        targets = targets or ([] if replayed or key == "*" or group else notes_named(turn, named))  # rule 283: notes it cannot read
        if key == "*" and not targets and not replayed:
            return "There is nothing in my memory to forget."
        if known and not targets and not replayed and intent.slots.get("stale"):  # "I'm not a student any more"
            return f'Nothing in my memory mentions "{plainly(intent.slots.get("what") or "") or key}", so I deleted nothing.'
        if (known or notes_named(turn, bool)) and not targets and not replayed:  # memory is in the prompt and holds nothing like it: no guessed key
            return f"I couldn't find {anything_about(what)} in my memory, so I deleted nothing."
        sent = list(dict.fromkeys(a for t in targets if group or word or not someone_elses(t, value or intent.slots.get("what"))
                                  for a in erased_by(turn, tool, t, value or intent.slots.get("what"))))  # rule 283
        if targets and not sent and not replayed:
            return f"I couldn't find {anything_about(what)} in my memory, so I deleted nothing."
        targets = sent or [key]  # not in the prompt: ask the tool for the key
    made = [next(iter(args.values()), "") for args in turn.made if args[""] == tool.name]
    held = [n for n in notes_in(turn.system or "") if n not in targets]
    if word and len(targets) > 1 and erases_every(tool) and all(named(str(t)) for t in targets) and not any(map(named, held)):
        made = made or [re.search(rf"(?<!\w){re.escape(word)}(?!\w)", str(targets[0]), re.I).group()]  # one call takes them all
    sent = made or targets  # replayed after the deletes: memory has changed, the calls made have not
    results = yield [call(tool, key=target, id=target) for target in sent]
    gone = [t for t, r in zip(sent, results) if not refusal([r])]
    gone = targets if word and len(sent) == 1 and gone and all(map(named, map(str, targets))) else gone  # what the one call took
    targets = sent
    if not gone:
        return f"I couldn't forget that. {refusal(results)}"
    kept = f" But: {refusal(results)}" if len(gone) < len(targets) else ""
    left = len([v for v in turn.known().values() if not any(v.lower() in text.lower() for text in shown.values())])
    if key == "*" and shown and left:  # the search showed fewer than memory holds: never "everything"
        return (f"I deleted the {len(gone)} {'memory' if len(gone) == 1 else 'memories'} my search found, but my notes hold "
                f"{left} more that it did not show, so those are still there.{kept}")
    if group:
        return by_category(group, intent, [shown.get(t) or (to_you(str(t)) if a_note(turn, str(t)) else say.thing(str(t)))
                                           for t in gone], turn) + kept
    if key == "*":
        return f"Done: I've forgotten everything I had ({len(gone)} {'memory' if len(gone) == 1 else 'memories'}).{kept}"
    renamed = takes_key(tool) and gone != [turn.written(key)] and gone[0] not in facts.ALIASES.get(key, ())
    if shown and all(t in shown for t in gone) and (len(gone) > 1 or not said_as(what, re.split(r"\s*[:=]\s", shown[gone[0]])[0])):
        # "your dairy" names the value of "diet: no dairy", not what it is: the memory is quoted (rule 138)
        # deleted by ids a search gave, and the user's words do not say what went: say what those memories said
        what = "; ".join(f'"{shown[t].strip()}"' for t in gone)
    elif all(re.fullmatch(r"[A-Za-z]{0,8}[_-]?\d+", str(t)) for t in gone) and len(gone) > 1:  # ids say nothing (rule 161)
        what = f"{what} ({len(gone)} memories)"
    elif all(a_note(turn, str(t)) for t in gone):  # notes went: said back to the user ("that you work as a nurse", rule 283)
        what = " and ".join(f"that {to_you(str(t))}" for t in gone)
    elif intent.slots.get("stale") or len(gone) > 1 or renamed:  # say which memories went, by their keys (notes as said to you)
        what = " and ".join(f"that {to_you(str(t))}" if a_note(turn, str(t)) else say.thing(str(t)) for t in gone)
    return f"Done: I've forgotten {what}.{kept}"


KEY_VALUE_NOTE = r"^[\"']?[A-Za-z][\w' ]{0,40}?[\"']?\s*(?::|=|->)\s*\S"  # "city: Paris": a store keyed by its names


def notes_in(system: str) -> list[str]:
    """Rule 283: memory in the system prompt as the notes it stores, each as written: its lines ("- User lives in
    Paris", bullets and numbering off) and the texts of a JSON list; a key: value line is a note too, of a keyed store."""
    lines = [re.sub(r"^\s*(?:[-*•]|\d+[.)])?\s*(?:\[\w+\]\s*)?", "", line).strip() for line in system.splitlines()]
    return [note for note in texts_listed(system) + lines if note and not re.search(r"[{\[]", note)]


def texts_listed(system: str) -> list[str]:
    """Rule 283: the texts of the JSON lists in the prompt, however deep (["User ..."], {"facts": ["User ..."]})."""
    def texts(data) -> list:
        if isinstance(data, dict):
            return [t for value in data.values() if isinstance(value, (list, dict)) for t in texts(value)]
        return [t for item in data for t in ([item] if isinstance(item, str) else texts(item))] if isinstance(data, list) else []
    return [t for data in facts.json_in(system) for t in texts(data)]


def notes_named(turn, named) -> list[str]:
    """Rule 283: the stored notes (bulleted or numbered lines, a JSON list's texts) that mention what the user named,
    for notes the model reads no fact from ("User is married to Sam")."""
    listed = texts_listed(turn.system or "")
    bulleted = [m.strip() for m in re.findall(r"(?m)^\s*(?:[-*•]|\d+[.)])\s+(.+)$", turn.system or "")]
    return [note for note in dict.fromkeys(listed + bulleted) if not re.match(KEY_VALUE_NOTE, note) and named(note)]


def a_note(turn, target: str) -> bool:
    """Rule 283: a delete's argument that is a stored sentence (it may be gone from the prompt by now), not a key."""
    return " " in target.strip() and target not in facts.keys_as_written(turn.system or "").values()


def note_holding(turn, key: str) -> str | None:
    """Rule 283: the first stored sentence that memory's fact `key` was read from ("User lives in Paris" for lives_in)."""
    return next(iter(notes_holding(turn, key)), None)


def notes_holding(turn, key: str) -> list[str]:
    """Rule 283: every stored sentence memory's fact `key` is read from ("User likes tea", "User likes hiking" for likes);
    [] when the store writes it under a key ("city: Paris"), or it is not in the prompt (said in this chat)."""
    held = []
    for note in notes_in(turn.system or ""):
        if key in facts.facts_in_memory(note):  # a line of several sentences: the one that holds it
            if re.match(KEY_VALUE_NOTE, note):
                return []
            held.append(next((part.strip() for part in re.split(r"(?<=[a-z0-9])\.\s+|;\s*", note)
                              if key in facts.facts_in_memory(part)), note))
    return list(dict.fromkeys(held))


def asks_for_key(tool) -> bool:
    """Rule 283: a delete tool that names what it deletes by a key or a memory's name (its parameter, or the words
    describing it), rather than by the note's text."""
    said = " ".join([tool.description or "", *(str(spec.get("description", "")) for spec in tool.params.values())])
    return takes_key(tool) or bool(re.search(r"\bkeys?\b|\bname of the (?:memory|fact|note|entry)\b", said, re.I))


def erased_by(turn, tool, key: str, value: str | None = None) -> list[str]:
    """Rule 283: what a delete tool is given for the memory held under `key`: the key as memory writes it for a keyed
    store or a tool that asks for a key; for a store of sentences, each note that holds it (only those that say the value
    named: "forget that I like hiking" is never "User likes tea"), or (a tool asking for a word) a word of it that no
    other note holds, so that only it goes. Never a word that is in no stored note."""
    notes = [] if asks_for_key(tool) else [key] if key in notes_in(turn.system or "") else notes_holding(turn, key)
    if not notes:
        return [turn.written(key)]
    words = lambda text: {statements.lemma(w) for w in re.findall(r"[a-z0-9]{3,}", text.lower())} - STOP  # noqa: E731
    said = words(value or "") & set.union(*map(words, notes)) - set.intersection(*map(words, notes))  # what sets one note
    # apart ("hiking", "shellfish"); a word in none of them ("my nut allergy") or in all ("my allergies") sets none apart
    held_as = words(f"{key.replace('_', ' ')} {say.query(key)} {' '.join(facts.ALIASES.get(key, ())).replace('_', ' ')}")
    unheld = words(value or "") - set.union(*map(words, notes)) - held_as  # "my nut allergy": nuts are in no note
    notes = [n for n in notes if said & words(n)] if len(notes) > 1 and (said or unheld) else notes
    return [own_word(turn, note) if wants_a_word(tool) else note for note in notes]


def someone_elses(key: str, named: str | None) -> bool:
    """Rule 283: a memory of what someone else does ("sister_lives": "User's sister lives in Paris") when the user did
    not name that person: "forget where I live" is never the sister's note; "forget where my sister lives" is."""
    whose, _, did = key.partition("_")
    return whose in PEOPLE and bool(re.fullmatch(r"[a-z]+[^s]s", did)) and whose not in re.findall(r"[a-z]+", (named or "").lower())


def own_word(turn, note: str) -> str:
    """Rule 283: a word of the note that no other stored note holds (the last: usually its value), else the note."""
    others = " ".join(n for n in notes_in(turn.system) if n != note).lower()
    own = [w for w in re.findall(r"[A-Za-z][\w'-]*", note) if w.lower() not in say.CLOSED | statements.AUXILIARIES | {"user", "user's"}
           and not re.search(rf"\b{re.escape(w.lower())}\b", others)]
    return own[-1] if own else note


def anything_about(what: str) -> str:
    """Rule 328: what a forget that found nothing looked for: "anything about your dog", "anything saying that you hate rain"."""
    return f"anything saying {what}" if what.startswith("that ") else f"anything about {what}"


def lines_found(result: str) -> list[str]:
    """Rule 329: the notes a search returned as lines of text, for a delete tool that takes a note's text: bullets and a
    "(label)" tag off ("- (dog_name) Biscuit" is the note "Biscuit"); a heading ("Found 2 notes:") is no note."""
    found = [re.sub(r"^\s*(?:[-*•]|\d+[.)])?\s*(?:\([\w ]+\)\s*)?", "", line).strip() for text in strings_in(result) for line in text.splitlines()]
    return [line for line in found if line and not line.endswith(":")]


def erases_every(tool) -> bool:
    """Rule 329: a delete tool that takes every note holding the text it is given ("Erase every note that contains ...")."""
    return bool(re.search(r"\b(?:every|all|each|any)\b[^.]*\b(?:contain|match|mention|hold|includ|with)", tool.description or "", re.I))


def wants_a_word(tool) -> bool:
    """Rule 283: a delete tool whose one parameter asks for a word (`keyword`, `term`, "a word in the note") and not the
    note's text."""
    [(param, spec)] = list(tool.params.items())[:1] or [("", {})]
    said = f"{param} {spec.get('description', '')}".lower()
    return bool(re.search(r"\b(?:key)?words?\b|\bterm\b", said)) and not re.search(r"\btext\b|\bnote\b|\bsentence\b", said)


FILLER = (r"\b(?:in|on|from|out of|off|inside) (?:your|my|the) (?:notes?|memory|memories|records?|file|list|brain|system)\b|"
          r"\bon file\b|\b(?:him|them|it)\b|\bher\b(?!\s+[a-z]{3,})")  # where a thing is kept, and a pronoun, are never the thing
# itself; "her number" is hers


def plainly(what: str) -> str:
    """Rule 247: the thing a forget reply names, without "in your notes"-type filler or a pronoun ("your him your notes"
    is never said); "" when nothing is left but filler and a pronoun."""
    words = re.sub(r"\s+", " ", re.sub(FILLER, " ", what, flags=re.I)).strip(" ,.!?")
    words = re.sub(r"\byour\s+(?=(?:his|her|their|its)\b)", "", words, flags=re.I)  # "your his birthday" is "his birthday"
    bare = re.sub(r"(?:^|\s+)(?:your|my|the) (?:notes|memory|memories|records)$", "", words, flags=re.I)  # "your parrot your notes"
    bare = re.sub(r"\b(?:your|my|the)\s+(?=(?:your|my|the)\b)|\s*\b(?:your|my|the|about)$", "", bare, flags=re.I).strip()
    if re.search(r"[A-Za-z0-9]", re.sub(r"\b(?:that|your|my|the)\b", "", bare, flags=re.I)):
        return bare
    return "" if re.search(r"\b(?:him|her|them|it)\b", what, re.I) or not bare else words


def id_named(intent: Intent) -> str | None:
    """Rule 161: the id the user named ("memory id car", "note #12", "entry 7"), as said; None when none is named."""
    what = intent.slots.get("what") or ""
    found = re.search(r"\b(?:id|key)\s*[:#=]?\s*([\w.-]+)|#\s*([\w.-]+)|\b(?:memory|memories|note|entry|item|record)"
                      r"\s+(?:number\s+|no\.?\s*)?([a-z_-]{0,12}\d[\w.-]*)\b", what, re.I)
    return next((g for g in found.groups() if g), None) if found else None


def ids_in_prompt(turn) -> list[tuple[str, str]]:
    """Rule 161: (id, text) of each memory the system prompt shows with an id ("[3] The user ...", "- m2: User drives
    a Honda", {"n1": "..."}), as a search result would show them; [] when memory has no ids of that shape."""
    return facts.ids_in(re.sub(r"(?m)^\s*[-*•]\s*", "", turn.system)) if turn.system else []


def ids_shown(turn) -> bool:
    """Rule 161: the ids a delete-by-id tool needs are in sight when memory in the prompt is written as "id: value"
    lines or JSON keys: those keys are the ids, so no search is needed to find them."""
    return bool(facts.keys_as_written(turn.system)) and bool(turn.known())


def by_category(group: str, intent: Intent, gone: list, turn) -> str:
    """What went and what was kept, for a delete of a category: "Done: I've forgotten what I had about your health: your
    allergy and your condition. I kept your pet: it is not about your health." """
    word = {"money": "finances", "music": "taste in music", "films": "taste in films", "food": "food"}.get(group, group)
    kept = [say.thing(k) for k, v in turn.known().items() if not facts.in_category(group, f"{turn.written(k)} {k} {v}")]
    went = listed_out([f'"{g.strip()}"' if ":" in g or " is " in g else g for g in gone])
    return (f"Done: I've forgotten what I had about your {word}: {went}."
            + (f" I kept {listed_out(kept[:4] + ['more'] * (len(kept) > 4))}: not about your {word}." if kept else ""))


def listed_out(things: list) -> str:
    """["a", "b", "c"] -> "a, b and c"."""
    return " and ".join([", ".join(things[:-1]), things[-1]] if len(things) > 1 else things)


def broadly(turn) -> list[str]:
    """Rule 139: the searches that find everything in a store that deletes by id, each tried when the one before found
    nothing: the empty query (most stores list all for it), "user", then the names memory keeps its facts under."""
    names = " ".join(turn.written(k).replace("_", " ") for k in turn.known())
    return list(dict.fromkeys(["", "user", names] if names else ["", "user"]))


def generic(query: str) -> bool:
    """Rule 232: a search that names nothing ("", "user", "me", "user it") finds anything: never the basis of a delete
    of one named thing, only of "everything"."""
    return not set(re.findall(r"[a-z0-9]+", query.lower())) - {"user", "users", "me", "my", "i", "it", "that", "this", "the", "them"}


def every(search) -> tuple:
    """A call of a search tool with an empty query, on purpose: "everything" is what it asks for."""
    name, args = call(search, query="everything", limit=50, scope="user")
    return name, {p: "" if v == "everything" else v for p, v in args.items()}


def said_of_self(intent: Intent) -> str | None:
    """Rule 413: a forget named by what the user said of themselves ("that I'm afraid of spiders") is said back as
    that, in the second person ("that you're afraid of spiders"), never as a key made of its first words."""
    what = re.match(r"^i(?P<am>'m| am)?\s+(?P<rest>.+)$", (intent.slots.get("what") or "").strip(), re.I)
    return what and ("that you're " if what["am"] else "that you ") + what["rest"]


def by_name(intent: Intent) -> str | None:
    """A thing the user named by its name ("Remove Leeds from your notes") is said by that name, as written: never
    "your leeds" (rule 138)."""
    what = (intent.slots.get("what") or "").strip()
    return what if re.fullmatch(r"(?-i:[A-Z])[\w'-]*(?: (?-i:[A-Z])[\w'-]*){0,2}", what) else None


def searched_before_delete(intent: Intent, key: str, value: str | None) -> list[str]:
    """What to search a store with before deleting, as a person would, each tried when the one before found nothing:
    how memory writes it ("allergic to"), the thing's own noun (the key, one of it: "allergy", "job"), its first near
    name ("city" for where they live), then the word the user named it by ("whatever you have about my allergy":
    allergy, never "whatever" or "you")."""
    what = intent.slots.get("what") or ""
    named = re.findall(r"\bmy ([a-z]+)", what, re.I) or [w for w in asked_about(what) if w not in (
        "bit", "note", "thing", "stuff", "whatever", "anything", "everything", "have", "know", "got", "you", "stored", "saved")]
    noun = [re.sub(r"ies$", "y", key)] if re.fullmatch(r"[a-z]{3,}", key) else []
    near = [n.replace("_", " ") for n in facts.ALIASES.get(key, ())][:1]  # where they live: "city"
    return list(dict.fromkeys([value or say.query(key), *noun, *near, *named[:1]]))[:3]


def correct(intent: Intent, turn):
    """A correction: the memory holding the old value (or the fact just stated) is written again with the new one."""
    new, old, known = intent.slots["new"], intent.slots["old"], turn.known()
    old_words = {statements.lemma(w) for w in re.findall(r"[a-z0-9]+", old.lower())}
    said = [k for message in turn.earlier for i in understand(message) if i.kind == "remember" for k, _ in i.slots["facts"]]
    key = next((k for k, v in known.items() if old_words and old_words & {statements.lemma(w) for w in
                                                                          re.findall(r"[a-z0-9]+", v.lower())}), None)
    tool = turn.tool("remember")
    made = [next(iter(args.values()), "") for args in turn.made if tool and args[""] == tool.name]
    eraser = turn.tool("forget")
    if tool and eraser and not takes_key(tool) and (note := replaced_note(turn, eraser, key, known, old, new)):
        return (yield from rewrite_note(tool, eraser, *note))
    if tool and eraser and not takes_key(tool) and key and old and intent.slots.get("swapped") and ids_in_prompt(turn):
        return (yield from replace(Intent("replace", {"old": old, "facts": [(key, new)]}), turn))  # notes: the new one added, the old erased
    if key is None and intent.slots.get("swapped") and not made:  # "my allergy isn't peanuts, it's tree nuts": A is what memory holds
        named = intent.slots.get("key")
        if not named or facts.lookup(known, named) is not None:
            return f"I have nothing that says {old}, so there is nothing to correct. Tell me the fact again if you like."
        key = named  # nothing kept on it yet: the fact as it is now
    key = key or (holder(known, intent.slots["key"]) if intent.slots.get("key") and (
        facts.lookup(known, intent.slots["key"]) or holder(known, intent.slots["key"]) in known) else None) or named_in(known, intent.slots.get("key")) or (said[-1] if said else None)
    key = made[0] if made and takes_key(tool) else key  # replayed after the write: memory holds the new value
    if key is None:
        return "What should I correct? Tell me the fact again, for example: my car is a Honda Accord."
    if not new.strip():  # "You have my age wrong.": what is wrong, but not what is right
        return f"What should {say.thing(key)} be? Tell me and I'll correct it."
    if tool is None:
        return f"OK: {say.phrase(key, new)}. I have no memory tool, so I'll know it only in this conversation."
    held = facts.lookup(known, key) or ""
    if old and not made and re.search(rf"\b{re.escape(old)}\b", held, re.I) and not re.match(r"(?:an?|the)\s", new, re.I):
        # "a beagle called Salt": only the name changes; "an Accord" is a whole new value
        new = in_place(held, old, new)
    if made:  # replayed after the write: say what was written ("Thursday at 3pm", not only "Thursday")
        new = next((v for args in turn.made if args[""] == tool.name for v in list(args.values())[1:2] if isinstance(v, str)), new)
    written = turn.written(key) if not made else key
    results = yield [call(tool, key=written, value=new) if takes_key(tool) else
                     call(tool, value=say.phrase(key, new, about_user=True), importance="medium", scope="user")]
    if reason := refusal(results):
        return f"I couldn't correct that. {reason}"
    return f"Corrected: {say.phrase(key, new)}."


def replace(intent: Intent, turn):
    """Rule 196: the old thing goes and the new one is kept, whatever the store's shape: a key/value store writes the new
    value over every memory that held the old thing; a store of notes adds the new note and erases those (by the ids in
    sight) with the delete tool. The reply says what each tool did. Replayed, the calls of its first turn are sent again."""
    old, (key, new) = intent.slots["old"], intent.slots["facts"][0]
    new, tool, eraser = as_it_is(new), turn.tool("remember"), turn.tool("forget")
    if tool is None:
        return f"You said {say.facts([(key, new)])}; I have no memory tool, so I'll know it only in this conversation."
    known = turn.known()
    holders = [k for k, v in known.items() if mentions(k, v, old) or mentions(k, v, say.query(topic_key(old)).removesuffix(" a"))]
    search = turn.tool("recall", "list_memory")
    if eraser and search and old and by_id(eraser) and not takes_key(tool) and not ids_in_prompt(turn):  # a store behind a search
        [result] = yield [call(search, query=old, limit=5, scope="user")]
        found = [i for i, text in facts.ids_in(result) if mentions(i, text, old)]
        holders = holders or found
        calls = [call(tool, value=say.phrase(key, new, about_user=True), importance="medium", scope="user")] + \
            [call(eraser, key=i, id=i) for i in found]
    elif turn.made:  # replayed after its own writes: memory no longer holds the old thing
        calls = [(args[""], {k: v for k, v in args.items() if k}) for args in turn.made]
    elif takes_key(tool) and intent.slots.get("apart") and eraser:  # rule 217: the new thing is a fact of its own, the old one goes
        calls = [call(tool, key=turn.written(key), value=new)] + [call(eraser, key=turn.written(k)) for k in holders]
    elif takes_key(tool):
        calls = overwritten(tool, eraser, holders, key, new, turn)
    else:
        erased = [i for i, text in ids_in_prompt(turn) if mentions(i, text, old) or set(facts.facts_in_memory(text)) & set(holders)] \
            if eraser else []  # "[n1] The user works as an accountant" holds the job
        erased = erased or (noted_holders(turn, eraser, holders) if eraser and not by_id(eraser) else [])  # rule 284
        calls = [call(tool, value=say.phrase(key, new, about_user=True), importance="medium", scope="user")] + \
                [call(eraser, key=i, id=i) for i in erased]
    results = yield calls
    if reason := refusal(results):
        return f"I couldn't finish that: {reason}"
    kept = f"Got it. I'll remember that {say.facts([(key, new)]) if key.replace('_', ' ') not in new.lower() else f'you have {new}'}."
    if eraser and any(name == eraser.name for name, _ in calls):
        return f"{kept} I erased what I had about {old}."
    if not takes_key(tool) and holders:
        return f"{kept} What I had about {old} is still there: I have no tool that erases it by id."
    return kept


def noted_holders(turn, eraser, holders: list) -> list[str]:
    """Rule 284: what a text eraser is given for each stored sentence that held the old thing (the note, or its own word)."""
    return list(dict.fromkeys(a for k in holders if note_holding(turn, k) for a in erased_by(turn, eraser, k)))


def overwritten(tool, eraser, holders: list, key: str, new: str, turn) -> list:
    """The calls of a replacement in a key/value store: the new value over each memory that held the old thing ("car"
    gets "a Tesla"); when the new fact has a key of its own that is not theirs ("I work at a bakery" after a job at
    the bank), it is written there and they are erased."""
    own = turn.written(same_subject(turn.known(), key))
    if not holders:
        return [call(tool, key=own, value=new)]
    known = turn.known()
    other_kind = [k for k in holders if statements.kinds_in(new) and not statements.kinds_in(new) & statements.kinds_in(
        f"{k.replace('_', ' ')} {known.get(k, '')}")]  # "sold my car and bought a house": a house is no car
    if (key.startswith("user_") and not other_kind) or not eraser or all(turn.written(k) == own for k in holders):
        return [call(tool, key=turn.written(k), value=new) for k in holders]
    return [call(tool, key=own, value=new)] + [call(eraser, key=turn.written(k)) for k in holders if turn.written(k) != own]


def recount(intent: Intent, turn):
    """Rule 199: a new count of something memory counts ("kids: 2" and "it's three kids now", or "another baby": one more)
    is written over the old one, in its own words ("2 kids" -> "3 kids"); in a store of notes the old note is erased
    beside the new one. With no count held, "another" is asked about, never guessed; a stated count is kept as new."""
    tool, eraser, search, shown = turn.tool("remember"), turn.tool("forget"), turn.tool("recall", "list_memory"), ids_in_prompt(turn)
    behind = tool and eraser and search and by_id(eraser) and not takes_key(tool) and not shown  # a store behind a search
    if behind:  # its count is found first, as a person would look it up
        thing = intent.slots["thing"]
        [result] = yield [call(search, query=COUNTED_AS.get(thing.removesuffix("s"), thing), limit=5, scope="user")]
        shown = facts.ids_in(result)
    if turn.made and not behind:  # replayed after the write: memory holds the new count, so what was sent is what is said
        calls = [(args[""], {k: v for k, v in args.items() if k}) for args in turn.made]
    else:
        plan = recounted(intent, turn.known() | dict(shown))
        if isinstance(plan, str):
            return plan
        key, held, value = plan
        if tool is None:
            return f"You said {counted(key, value)} now; I have no memory tool, so I'll know it only in this conversation."
        if takes_key(tool):
            calls = [call(tool, key=turn.written(key), value=value)]
        else:
            note = value if re.fullmatch(NOTE_ID, key) else say.phrase(key, value, about_user=True)
            calls = [call(tool, value=note, importance="medium", scope="user")] + \
                [call(eraser, key=i, id=i) for i, text in (shown if eraser and held else []) if text == held]
    results = yield calls
    if reason := refusal(results):
        return f"I couldn't update that: {reason}"
    sent = [v for v in calls[0][1].values() if isinstance(v, str)]
    if takes_key(tool):
        return f"Got it: {counted(sent[0], sent[1])}."
    return f"Got it. I'll remember that {to_you(sent[0])}." + (" I erased the old note." if len(calls) > 1 else "")


def to_you(note: str) -> str:
    """A note about the user said to them: "The user has 3 kids" -> "you have 3 kids", "User's dog is Rex" -> "your dog is Rex"."""
    note = re.sub(r"^\W*(?:the )?user's\b", "your", note, flags=re.I)
    verb = re.match(r"^\W*(?:the )?user (\w+)\b", note, re.I)
    if not verb:
        return note
    said = {"is": "are", "was": "were", "has": "have"}.get(verb.group(1).lower()) or re.sub(r"(?<=[^s])s$", "", verb.group(1))
    return f"you {said}{note[verb.end():]}"


def recounted(intent: Intent, known: dict) -> tuple | str:
    """(the key, the memory held, the new value) of a count said anew, or the question to ask when "another" has
    nothing to add one to."""
    thing, count = intent.slots["thing"], intent.slots["count"]
    key = next((k for k, v in known.items() if counts_it(k, v, thing) and held_count(v) is not None), None)
    held = known.get(key, "") if key else ""
    if not held and not intent.slots.get("owned"):  # "it's 5 degrees now": a count of no one's, with none held to update
        return f"I have no count of {plural(thing)} of yours to update, so I kept nothing."
    if count is None and not held:
        return f"How many {plural(thing)} do you have now? I have no count of them to add one to."
    new_count = count if count is not None else held_count(held) + 1
    value = re.sub(rf"\b(?:\d+|{'|'.join(arithmetic.UNITS)})\b", str(new_count), held, count=1, flags=re.I) if held else \
        f"{new_count} {thing}"
    return key or thing, held, value


def plural(thing: str) -> str:
    """baby -> babies, goldfish -> goldfish, box -> boxes, cats -> cats."""
    if re.search(r"(?:fish|sheep|deer|[^s]s|children|people)$", thing):
        return thing
    if irregular := re.search(r"(child|person)$", thing):
        return thing[:irregular.start()] + {"child": "children", "person": "people"}[irregular.group(1)]
    return re.sub(r"(?<=[^aeiou])y$", "ie", thing) + ("es" if re.search(r"(?:s|sh|ch|x)$", thing) else "s")


def counted(key: str, value: str) -> str:
    """"you have 3 kids" for a bare count ("kids: 3"), else the memory as it is said back."""
    return f"you have {value} {key.replace('_', ' ')}" if value.strip().isdigit() else say.phrase(key, value)


def counts_it(key: str, value: str, thing: str) -> bool:
    """Whether a memory counts the thing: its key or a word of its value is the thing, one of it or a near name
    ("kids" for "children" or a baby)."""
    near = {statements.lemma(w) for w in (thing, plural(thing), NEAR.get(thing, ""), COUNTED_AS.get(thing.removesuffix("s"), "")) if w}
    return bool(near & {statements.lemma(w) for w in re.findall(r"[a-z]+", f"{key.replace('_', ' ')} {value}".lower())})


COUNTED_AS = {"baby": "kids", "son": "kids", "daughter": "kids", "child": "kids", "kitten": "cats", "puppy": "dogs"}  # one more of them


def held_count(value: str) -> int | None:
    """The number a memory holds ("2", "two kids, Maya and Theo"), or None."""
    found = re.search(rf"\b(\d+|{'|'.join(arithmetic.UNITS)})\b", value, re.I)
    return None if not found else int(found.group(1)) if found.group(1).isdigit() else arithmetic.UNITS.index(found.group(1).lower())


def whom(intent: Intent, turn):
    """Rule 198: "Forget her." with no one named before it: whom it means is asked, and nothing is deleted."""
    return "Who should I forget? Tell me their name or what I have about them, and I'll remove it; I haven't deleted anything."


def mentions(key: str, value: str, old: str) -> bool:
    """Whether a memory is about the old thing: its value names it ("Toyota Corolla" for "Corolla"), or its key is it."""
    return bool(re.search(rf"\b{re.escape(old)}\b", value, re.I)) or key.replace("_", " ").lower() == old.lower()


def named_in(known: dict, key: str | None) -> str | None:
    """The one memory whose key holds every word of the key named ("tom_age" is `son_tom_age`), else None."""
    if not key:
        return None
    held = [k for k in known if set(key.split("_")) <= set(k.split("_"))]
    return held[0] if len(held) == 1 else None


def said_as(what: str, text: str) -> bool:
    """Whether the words of "your gym membership number" all appear in the memory that went ("User's gym membership
    number is 5521"), so saying them says what went."""
    held = {statements.lemma(w) for w in re.findall(r"[a-z0-9]+", text.lower())}
    return all(statements.lemma(w) in held for w in re.findall(r"[a-z0-9]+", what.lower()) if w not in ("your", "that", "the"))


def closest(intent: Intent, ids: list, texts: dict) -> list:
    """Of the memories a search matched, those sharing the most of the words named: "my gym membership number" is the
    number, not "User's gym is FitCo"; two entries about "my ex" both go."""
    named = intent.slots.get("value") or intent.slots.get("what") or intent.slots["key"].replace("_", " ")
    wanted = {statements.lemma(w) for w in re.findall(r"[a-z0-9]{2,}", named.lower())} - {statements.lemma(w) for w in STOP}
    score = {i: len(wanted & {statements.lemma(w) for w in re.findall(r"[a-z0-9]{2,}", texts[i].lower())}) for i in ids}
    return [i for i in ids if score[i] == max(score.values())] if score else ids


def matcher(intent: Intent, held: list = ()):
    """Whether a memory's text is about what the user named (shared words, inflections allowed). An old X is only
    an old X when memory holds one (`held`: memory's texts): "my old hamster" with one hamster held is that one."""
    named = intent.slots.get("value") or intent.slots.get("what") or intent.slots["key"].replace("_", " ")
    wanted = {statements.lemma(w) for w in re.findall(r"[a-z0-9]{2,}", named.lower())} - STOP
    wanted |= {statements.lemma(w) for w in re.findall(r"[a-z0-9]{3,}", say.query(intent.slots["key"]).lower())} - STOP
    wanted -= {"my", "me", "is", "of", "to", "in", "on", "at", "it", "an", "so", "up", *map(statements.lemma, statements.AUXILIARIES)}
    wanted |= {statements.lemma(w[:-2]) for w in re.findall(r"[a-z]{6,}", named.lower()) if w.endswith("er")}  # smoker: smoking
    wanted |= {statements.lemma(KIND_OF[w]) for w in re.findall(r"[a-z]+", named.lower()) if w in KIND_OF}  # dog: pet
    wanted = wanted - {statements.lemma(w) for w in STOP} or wanted  # "named" is "name": a cat named Tom is not the sister's name
    mentions = lambda text: bool(wanted & {statements.lemma(w) for w in re.findall(r"[a-z0-9]{2,}", text.lower())})  # noqa: E731
    old = lambda text: bool(STALE & set(re.findall(r"[a-z]+", text.lower())))  # noqa: E731
    stale = old(named) and (not held or any(mentions(text) and old(text) for text in held))
    near = {intent.slots["key"], *facts.ALIASES.get(intent.slots["key"], ())}  # "where I live" is the entry "home = Madrid"
    keyed = lambda text: bool((entry := re.match(r"^\s*(?:[\w.-]+:\s+)?(?P<k>[a-z][\w ]*?)\s*[=:]", text, re.I))  # noqa: E731
                              and entry.group("k").lower().replace(" ", "_") in near)
    return lambda text: (mentions(text) or keyed(text)) and (not stale or old(text)) and not other_object(intent.slots.get("what") or named, text)  # "my old job" keeps the current job


def other_object(named: str, held: str) -> bool:
    """Rule 413: whether a memory says the same thing of another object than the one named ("afraid of heights" is
    not "afraid of spiders", "allergic to cats" not "allergic to dust"): same word before the preposition, other words after it."""
    words = lambda text: {statements.lemma(w) for w in re.findall(r"[a-z0-9]{2,}", text.lower())} - STOP  # noqa: E731
    said = re.search(r"\b(?P<pred>[a-z]+) (?P<prep>of|to|about|with|for|from|in|at|on) (?:the |an? |my )?(?P<obj>[\w' -]+)$", named.lower())
    kept = said and re.search(rf"\b{said['pred']} {said['prep']} (?:the |an? |my )?(?P<obj>[\w' -]+)", held.lower())
    return bool(kept and words(said["obj"]) and words(kept["obj"]) and not words(said["obj"]) & words(kept["obj"]))


STALE = {"old", "former", "previous", "ex", "past", "last"}  # what was, as against what is


def holds(held: str, value: str) -> bool:
    """Rule 376: whether a memory (its key and value) holds the value a forget names (a content word of it, inflections allowed)."""
    return matcher(Intent("forget", {"key": "", "value": value}))(held)  # "runner" is in `running: runs 5k`


STOP = {"the", "user", "about", "that", "this", "what", "where", "when", "you", "your", "know", "any", "all", "name",
        "anymore", "longer", "thing", "stuff", "don", "not", "have"}


def others(turn, key: str, value: str | None) -> str:
    """A list-like fact without one of its items ("museums, jazz" without museums), or ""."""
    held = facts.lookup(turn.known(), key) if key in LISTS and value else None
    items = [item for item in re.split(r",\s*|\s+and\s+", held or "") if item and item.lower() != value.lower()]
    return ", ".join(items) if held and len(items) < len(re.split(r",\s*|\s+and\s+", held)) else ""


def pointer(intent: Intent, turn):
    """"Note the flat number" with nothing said about it in this message: ask for it rather than store the words."""
    if held := already_kept(intent.slots["what"], turn.known()):
        return f"I already have that: {say.phrase(*held)}."  # rule 162: keeping what is kept changes nothing
    if intent.slots.get("kept"):  # "Don't delete the parrot": nothing is deleted, nothing new is stored
        return "OK: I won't delete " + re.sub(r"\b(?:my|our)\b", "your", intent.slots["what"], flags=re.I) + "."
    what = re.sub(r"\b(?:my|our)\b", "your", intent.slots["what"], flags=re.I)
    offer = " Tell me and I'll remember it." if turn.tool("remember") else ""  # rule 142: no promise without a tool that keeps
    if re.match(r"(?:where|what|when|who|which|how)\b", what, re.I):  # "where I parked": asked back as said
        you = re.sub(r"\bi'm\b|\bi am\b", "you are", re.sub(r"\b(?:i|me)\b(?!')", "you", what, flags=re.I), flags=re.I)
        return f"Tell me {you} and I'll remember it." if offer else f"I have no tool to remember {you}."
    return f"What is {what}?{offer}" if what else "What should I remember? Tell me the fact itself."


def already_kept(what: str, known: dict) -> tuple | None:
    """The one memory a pointer names ("my job", "where I live"), or None when memory holds none or several."""
    intent = understand(f"forget {what}")[0] if what else None
    if intent is None or intent.kind != "forget":
        return None
    if (value := facts.lookup(known, intent.slots["key"])) is not None:  # "where I live": `lives_in`, held as "city"
        return facts.holder(known, intent.slots["key"])[0], value
    named = matcher(intent) if re.match(r"(?:my|our)\s", what, re.I) else None  # "my car": the memory that names it
    held = [(k, v) for k, v in known.items() if named and named(f"{k.replace('_', ' ')} {v}")]
    return held[0] if len(held) == 1 else None


def unkept(intent: Intent, turn):
    """"Don't remember this, but ...": nothing is stored, and the user is told so. When memory already holds what was
    said ("Actually, don't remember that I like jazz" with jazz kept), it is forgotten instead."""
    said = intent.slots.get("said")
    eraser = turn.tool("forget")
    if said and eraser and any(args[""] == eraser.name for args in turn.made):  # replayed after its delete
        return (yield from forget(([i for i in understand(said) if i.kind == "forget"] or understand(f"forget that {said}"))[0], turn))
    if said and eraser and (known := turn.known()):
        parsed = understand(said)  # "that I'm vegan any more" is already a forget
        named = [i for i in parsed if i.kind == "forget"] or understand(f"forget that {said}")
        values = [v for i in parsed if i.kind == "remember" for _, v in i.slots["facts"]] or [i.slots.get("what") or "" for i in named]
        held = [f"{k.replace('_', ' ')} {v}" for k, v in known.items()]  # the fact's own value, not only its kind ("likes")
        if len(named) == 1 and named[0].kind == "forget" and values and any(said_as(values[0], text) for text in held):
            return (yield from forget(named[0], turn))
    keys = [k for i in understand(said) if i.kind == "remember" for k, _ in i.slots["facts"]] if said else []
    if keys and not any(statements.decode(k) or k.startswith("user_") for k in keys):  # its name, never its value (a PIN)
        return f"OK: I won't remember {' or '.join(say.thing(k) for k in keys)}; nothing was saved."
    return "OK: I won't remember that."


def hypothetical(intent: Intent, turn):
    """"If I were X, would you remember it?": a what-if is never stored; the user is told how to make it a fact."""
    if intent.slots.get("about") == "schedule":  # rule 257: a what-if schedules nothing, and a tool to do it is no "can't"
        return "That's a what-if, so I haven't scheduled anything." + (
            " Only if you ask me to: say \"remind me ...\" with the time and I will." if turn.tool("schedule") else "")
    if intent.slots.get("about") == "sarcasm":  # rule 425: neither what was said nor its opposite is kept
        return "That sounds like sarcasm, so I haven't stored it as a fact about you." + (
            " If you want me to remember how you really feel, tell me plainly." if turn.tool("remember") else "")
    told = "That's a what-if, so I haven't stored anything."
    return told + (" If it is true, tell me as a fact and I'll remember it." if turn.tool("remember") else "")  # rule 142


LIKED = r"\b(?:prefer|like|love|enjoy|favou?rite|fan|always)"
UNLIKED = r"\b(?:dislike|hate|can't stand|don't|do not|never|not|avoid)"
PREFERRED_TO = r"\s+(?:over|rather than|instead of|more than|above|in preference to|before)\s+|,?\s+(?:and |but )?not\s+(?=\w)"


def choose(intent: Intent, turn):
    """Rule 252: "Aisle or window for me?" answered by the one option a memory says the user prefers ("prefers window
    seats"): both or neither named is "I don't know", never a guess; with memory behind a search, each option is searched."""
    options, known = intent.slots["options"], dict(turn.known())
    search = turn.tool("recall")
    if search and not any(held(o, known) for o in options) and not takes_key(search):
        results = yield [call(search, query=o, limit=5, scope="user") for o in options]
        for result in results:
            if not nothing(result):
                known.update(facts.facts_in_memory(result) or {f"memory_{i}": text for i, text in enumerate(facts.texts_in(result))})
    chosen = [o for o in options if held(o, known)]
    if len(chosen) != 1:
        return f"I don't know which you prefer, {options[0]} or {options[1]}: my notes don't say."
    k, v = held(chosen[0], known)
    said = to_you(v) if k.startswith(("memory_", "note")) or re.fullmatch(NOTE_ID, k) else \
        to_you(f"The user {v}") if re.match(r"(?:prefers|likes|loves|enjoys)\b", v) else say.phrase(k, v)  # "seat: prefers aisle seats"
    return f"{chosen[0][:1].upper()}{chosen[0][1:]}: {said.rstrip('.')}."


def held(option: str, known: dict) -> tuple | None:
    """The memory that says the user likes or prefers the option ("prefers: window seats", "The user loves tea"), or None."""
    for k, v in known.items():
        text = f"{k.replace('_', ' ')} {v}"
        first = re.split(PREFERRED_TO, text, maxsplit=1, flags=re.I)[0]  # rule 375: "tea over coffee" holds tea, not coffee
        if re.search(rf"\b{re.escape(option)}", first, re.I) and re.search(LIKED, text, re.I) and not re.search(UNLIKED, first, re.I):
            return k, v
    return None


HANDLERS = {"choose": choose, "hypothetical": hypothetical, "unkept": unkept, "pointer": pointer, "remember": remember, "ask": ask, "confirm": confirm,
            "forget": forget, "correct": correct, "not_so": not_so, "replace": replace, "recount": recount, "whom": whom}


NOTE_ID = r"[A-Za-z]{0,8}[_-]?\d+"


def replaced_note(turn, eraser, key, known: dict, old: str, new: str) -> tuple | None:
    """(the note's id, its corrected text) when memory is notes under ids ("n1: Son Leo is 5") and the old value is in
    one of them: "my son's not 5, he's 6" is the note rewritten as "Son Leo is 6"; replayed, what was sent."""
    sent = [[v for k, v in args.items() if k] for args in turn.made]
    erased = next((values[0] for args, values in zip(turn.made, sent) if args[""] == eraser.name and values), None)
    if erased is not None:
        return erased, next((v for args, values in zip(turn.made, sent) if args[""] != eraser.name for v in values
                             if isinstance(v, str)), new)
    if not key or not re.fullmatch(NOTE_ID, key) or not old or not re.search(rf"\b{re.escape(old)}\b", known[key], re.I):
        return None
    article = r"(?:\b(?:an?|the)\s+)?" if re.match(r"(?:an?|the)\s", new, re.I) else ""  # "a bakery" -> "a cafe", not "a a cafe"
    return turn.written(key), re.sub(rf"{article}\b{re.escape(old)}\b", new, known[key], flags=re.I)


def rewrite_note(tool, eraser, note: str, text: str):
    """The corrected note added and the old one erased, in one step (both or neither is said done)."""
    added, erased = yield [call(tool, value=text, text=text, importance="medium", scope="user"), call(eraser, key=note, id=note)]
    if reason := refusal([added, erased]):
        return f"I couldn't correct that note fully: {reason}"
    return f'Corrected: the note now says "{text}" (the old {note} is gone).'
