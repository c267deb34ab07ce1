"""Statements and questions by their closed-class words: "I drive a blue Volvo", "What car do I drive?".

The grammar's FACTS know the common facts by shape (name, likes, where you live). Everything else a
user says about themselves is read here by its structure, not its vocabulary: the subject ("I", or
"my <thing>"), the verb (any word that is not a closed-class word), the rest copied as said. It is
kept under the key "user_<verb>s" (or "<thing>_<verb>s") and said back as "The user drives a blue
Volvo" / "You drive a blue Volvo". A question is matched to a statement by its verb's lemma and the
words they share, never by a list of nouns.
"""
import re

from .grammar import KIND_OF, PEOPLE

# closed-class words: they carry the structure, so they can be listed completely
MODALS = set("can can't cannot could couldn't will won't would wouldn't shall should shouldn't may might must "
             "need needn't ought".split())
AUXILIARIES = set("am is are was were be been being do does did don't doesn't didn't have has had "
                  "haven't hasn't hadn't 'm 're 's 've 'd 'll".split())
NOT_FACT_VERBS = set("""think thought guess suppose mean wonder wish hope want wanna gotta feel felt know knew
    said say says told tell asked ask heard hear bet believe doubt reckon forgot forget remember remind
    agree disagree promise swear understand see saw get got go went come came let try tried""".split())
PRONOUNS = set("it this that them these those you him her me us one some any all everything something nothing "
               "anything everyone someone".split())
ADVERBS = set("""also still now just always never often usually sometimes mostly currently even already really
    actually honestly basically normally generally mainly typically occasionally rarely seldom totally
    definitely probably certainly kind sort pretty so very too""".split())
HEDGES = r"\b(?:if|would|could|might|maybe|perhaps|wish|hope|imagine|suppose|pretend|someday|one day|planning|plan to|going to|gonna|want to|wanna|about to|thinking (?:about|of))\b"
NEGATIONS = r"\b(?:not|never|no longer|don't|doesn't|didn't|do not|does not|did not|no|nothing|nobody|n't)\b"
FILLERS = (r"in case (?:that|it) matters(?: later)?|just so you know|for the record|for future reference|btw|by the way|fyi|lol|haha|from now on|"
           r"these days|now|last (?:week|month|year|spring|summer|autumn|fall|winter)|recently|lately")
OPENERS = r"(?:(?:so|well|oh|also|and|but|btw|fyi|hey|hi|hello|ok|okay|yes|yeah|actually|anyway|by the way|now|these days|" \
          r"just so you know|for the record|fun fact|note that|remember that|please note|(?:just )?(?:for|as a) future reference|" \
          r"(?:just )?a heads[- ]up|heads[- ]up|for your information)\W+)*"  # rule 355
IRREGULAR = {"has": "have", "had": "have", "got": "have", "'ve": "have", "does": "do", "did": "do", "goes": "go",
             "went": "go", "drove": "drive", "spoke": "speak", "wrote": "write", "ran": "run", "bought": "buy",
             "taught": "teach", "made": "make", "is": "be", "are": "be", "am": "be", "was": "be", "were": "be",
             "grew": "grow"}
# the past tense is an event ("I went to the shop"), except for the verbs of a life story: kept as said
LIFE = {"grew", "studied", "graduated", "trained", "served", "lived", "worked", "qualified", "emigrated"}


def lemma(word: str) -> str:
    """drives, driving, drove -> driv; speaks -> speak; studies -> stud: a stem to compare, not to show."""
    word = IRREGULAR.get(word.lower(), word.lower())
    word = word[:-3] + "y" if word.endswith("ied") else word  # studied -> study
    for _ in range(2):  # plays -> play -> pla, as play -> pla: every form of a word ends on the same stem
        suffix = next((x for x in ("ies", "ing", "es", "ed", "s", "e", "y") if word.endswith(x) and len(word) - len(x) >= 3), "")
        word = word[: len(word) - len(suffix)]
    return word


def third_person(verb: str) -> str:
    """drive -> drives, have -> has, study -> studies, watch -> watches."""
    if verb == "have":
        return "has"
    if re.search(r"[^aeiou]y$", verb):
        return verb[:-1] + "ies"
    return verb + ("es" if re.search(r"(?:s|sh|ch|x|z|o)$", verb) else "s")


def base_form(verb3: str) -> str:
    """drives -> drive, has -> have, studies -> study, watches -> watch (the inverse of third_person)."""
    if verb3 == "has":
        return "have"
    if verb3.endswith("ies"):
        return verb3[:-3] + "y"
    if re.search(r"(?:ss|sh|ch|x|z|o)es$", verb3):
        return verb3[:-2]
    return verb3[:-1] if verb3.endswith("s") else verb3


def statement(clause: str) -> tuple[str, str] | None:
    """A durable first-person statement as (key, what follows the verb), or None.

    "I drive a blue Volvo" -> ("user_drives", "a blue Volvo"); "I've got two cats" -> ("user_has", ...);
    "I'm learning Welsh" -> ("user_learning", "Welsh"); "my train leaves at 7:45" -> ("train_leaves", "at 7:45").
    Questions, hedges, negations and other people's words are not the user's facts."""
    text = clause.strip().rstrip(".!")
    if text.endswith("?") or re.search(HEDGES, text, re.I) or re.search(NEGATIONS, text.split(",")[0], re.I) \
            or re.search(r"[\"“”{}\[\]]|:\s", text):  # quoted speech, or a heading over data, is not a statement
        return None
    owned = re.match(rf"^\W*{OPENERS}(?:i|we)(?:'ve got|'ve| have got| have| got)\s+(?P<rest>(?:an?|\d+|two|three|four|five|"
                     rf"some|several|many|lots of|a few)\b.+)$", text, re.I)
    if owned:  # "I have 3 kids and 2 dogs", "we've got two cats": what they have, as said
        return owned_key(owned.group("rest")), owned.group("rest").strip(" ,")
    found = re.match(rf"^\W*{OPENERS}(?:(?P<i>i)|my (?:[a-z]+ (?=[a-z]+ (?-i:[A-Z])))?(?P<thing>[a-z]+)(?: (?P<name>(?-i:[A-Z][a-z]+)))?)(?P<aux>'ve got|'ve| have got| have|'m| am)?"
                     rf"\s+(?P<verb>[a-z']+)\b\s*(?P<rest>.*)$", text, re.I)
    if not found:
        return None
    verb, aux, rest = found.group("verb").lower(), (found.group("aux") or "").strip().lower(), found.group("rest")
    if found.group("name") and verb in ("is", "'s") and re.match(r"(?:an?|the|\d+)\b", rest, re.I):
        return f"{found.group('thing').lower()}_is", rest.strip(" ,")  # "my wife Priya is an airline pilot"
    rest = re.sub(rf"(?:,?\s+(?:{FILLERS}))+$", "", rest.strip(" ,"), flags=re.I).strip(" ,")
    while verb in ADVERBS and rest:  # "I also speak French": the verb comes after the adverbs
        verb, _, rest = rest.partition(" ")
        verb = verb.lower()
    if aux in ("'m", "am"):  # "I'm learning Welsh" is kept as said; "I'm happy" is not a statement we can keep
        if not re.fullmatch(r"[a-z]{3,}ing", verb) or verb in NOT_FACT_VERBS or not re.search(r"\w", rest):
            return None
        return ("user_" + verb, rest) if found.group("i") else None
    subject = "user" if found.group("i") else found.group("thing").lower()
    if aux:  # "I've got two cats", "I have a bike": the verb is "have"
        if verb in ("got", "been", "to"):
            return None
        return (f"{subject}_has", f"{verb} {rest}".strip()) if subject == "user" else None
    if verb in MODALS | AUXILIARIES | NOT_FACT_VERBS or not re.fullmatch(r"[a-z]+", verb) or len(verb) < 2:
        return None
    if verb in LIFE and subject == "user":  # "I grew up in Nairobi": part of who they are
        return f"user_{verb}", rest
    if verb.endswith("ed") and verb not in ("need", "feed", "breed", "speed"):
        return None  # the past is an event, not a durable fact
    if rest.lower() in PRONOUNS or not re.search(r"[A-Za-z0-9]{3,}|\d", rest) or re.match(r"^(?:to|that|it|you|so|if|when|because)\b", rest, re.I):
        return None
    if subject != "user":  # "my train leaves at 7:45": the verb is already in the third person
        return (f"{subject}_{verb}", rest) if verb.endswith("s") else None
    if verb == "own" and (kind := owned_key(rest)) != "user_has":  # "I own a tabby cat named Mochi": cat
        return kind, rest
    return f"user_{third_person(verb)}", rest


def owned_key(thing: str) -> str:
    """The key for what the user has, from its one noun of a known kind (the kinds table, people): "a labrador called
    Nala" -> "dog" (a breed is its kind), "a tabby cat named Mochi" -> "cat", "two daughters, Ava and Zoe" -> "daughters";
    "user_has" when it names no kind ("a 2019 Toyota Yaris") or more than one ("3 kids and 2 dogs"), or the kind is
    only in what follows the thing ("a meeting with my boss")."""
    head = re.split(r",|\b(?:called|named|who|which|that|with|at|in|on|for|from|to|of|by|about)\b", thing, maxsplit=1)[0]
    kinds = {w for w in re.findall(r"[a-z]+", head) if w in KIND_OF or w in PEOPLE or w[:-1] in KIND_OF or w[:-1] in PEOPLE}
    if len(kinds) != 1:
        return "user_has"
    kind = kinds.pop()
    return KIND_OF[kind] if KIND_OF.get(kind) in ("dog", "cat") else kind


def kinds_in(text: str) -> set:
    """The kinds a text names, each with what it is a kind of: "a labrador" -> {labrador, dog, pet}, "two cats" -> {cat,
    pet}, "my car" -> {car, vehicle}; people too ("kids" -> {kid})."""
    found = set()
    for word in re.findall(r"[a-z]+", text.lower()):
        word = word if word in KIND_OF or word in PEOPLE or word[:-1] not in KIND_OF | dict.fromkeys(PEOPLE) else word[:-1]
        while word in KIND_OF or word in PEOPLE or word in KIND_OF.values():
            if word in found:
                break
            found.add(word)
            word = KIND_OF.get(word, "")
    return {lemma(w) for w in found}


def of_the_kind_asked(ask: dict, value: str) -> bool:
    """Whether a statement can answer a question that names a kind: "what car do I have?" is never "two cats", and
    "do I have any pets?" is yes only for a value that names a pet ("a Honda Civic" names none)."""
    asked = kinds_in(" ".join(ask["words"]))
    if not asked:
        return True
    held = kinds_in(value)
    return bool(asked & held) if held or ask["yes_no"] else True


def decode(key: str) -> tuple[str, str] | None:
    """A statement's key -> (subject, verb in the third person): "user_drives" -> ("user", "drives")."""
    found = re.fullmatch(r"([a-z]+)_([a-z]+(?:s|ing)|" + "|".join(LIFE) + ")", key)
    if not found or found.group(2).endswith(("ss", "us")) or found.group(2).endswith("is") and found.group(2) != "is" \
            or found.group(1) in ("favourite", "favorite"):  # "marital_status" is a thing, not "marital" doing "status"
        return None  # "favourite_films" is a thing, not a thing doing something
    return found.group(1), found.group(2)


def said(key: str, value: str, about_user: bool) -> str | None:
    """("user_drives", "a blue Volvo") -> "The user drives a blue Volvo" / "you drive a blue Volvo"."""
    parts = decode(key)
    if not parts:
        return None
    subject, verb = parts
    if verb.endswith("ing"):  # "learning Welsh": said as it was, in the present progressive
        verb, plain = f"is {verb}", f"are {verb}"
    elif verb in LIFE:  # "grew up in Nairobi": the past, as said
        plain = verb
    else:
        plain = {"is": "are"}.get(verb) or base_form(verb)  # "The user is not married": "you are not married"
    value = re.sub(r"\bmy\b" if about_user else r"\b(?:my|their)\b(?= \w+ \w)", "their" if about_user else "your", value)
    if subject == "user":
        return f"The user {verb} {value}" if about_user else f"you {plain} {value}"
    return f"The user's {subject} {verb} {value}" if about_user else f"your {subject} {verb} {value}"


def question(clause: str) -> dict | None:
    """A question about the user by its structure: "What car do I drive?" -> {"subject": "user", "verb": "driv",
    "words": {"car"}, "yes_no": False}; None if the question is not about the user or their things."""
    text = clause.strip().lower().rstrip("?!. ")
    found = re.match(r"^\W*(?:(?P<wh>what|which|where|when|who|whom|how(?: many| much| long| old| often)?)(?P<what>(?: [a-z']+){0,3}?) )?"
                     r"(?P<aux>do|does|did|am|have|has|can)\s+(?:(?P<i>i)|my (?:[a-z]+ (?=(?:" + "|".join(PEOPLE) + r")\b))?(?P<thing>[a-z]+))\s+"
                     r"(?P<verb>[a-z]+)\b\s*(?P<rest>.*)$", text)
    being = re.match(r"^\W*(?P<wh>what|who|how (?:old|tall))(?P<what>) (?:is|'s) my (?P<thing>[a-z]+)$", text)
    if being:  # "how old is my son?": what he is, said with "is"
        return {"subject": being.group("thing"), "verb": "be", "said": "is", "yes_no": False,
                "words": {lemma(w) for w in re.findall(r"[a-z]{3,}", being.group("wh"))} - {"what", "who", "how"}}
    if not found or (found.group("i") and found.group("verb") in MODALS | AUXILIARIES
                     and not (found.group("aux") in ("do", "did") and found.group("verb") in ("have", "do"))):
        return None  # "do I have any pets?" has a main verb; "can I be ...?" does not
    verb = "have" if found.group("verb") == "got" else found.group("verb")
    words = set(re.findall(r"[a-z]{3,}", f"{found.group('what') or ''} {found.group('rest')}"))
    return {"subject": "user" if found.group("i") else found.group("thing"), "verb": lemma(verb), "said": verb,
            "words": {lemma(w) for w in words if w not in ("any", "the", "kind", "sort", "type", "time")},
            "yes_no": not found.group("wh")}


NOUNS = {"driv": {"car", "vehicle", "bike"}, "speak": {"language", "languages"}, "know": {"language", "languages"},
         "eat": {"diet"}, "follow": {"diet"}, "play": {"instrument", "sport"}, "liv": {"city", "home", "address"},
         "work": {"job", "employer", "workplace"}, "lov": {"band", "food", "colour"}}  # what a verb is usually asked about
NEAR_VERBS = {"have": {"own", "drive", "ride", "keep"}, "own": {"have", "drive", "ride"}, "know": {"speak", "read"},
              "speak": {"know"}, "do": {"work", "be"}, "work": {"do", "be"}, "like": {"take", "have", "drink", "prefer", "love"},
              "take": {"like", "have", "drink", "prefer"}, "spend": {"grow", "live"}, "drive": {"have", "own"},
              "ride": {"have", "own"}}  # a small table of near-synonyms ("where did I spend my childhood?": grew up)


PAST = {base: past for past, base in IRREGULAR.items() if past in LIFE or past.endswith(("ew", "ught", "oke", "ote"))}


def searched(ask: dict) -> list[str]:
    """Words to search memory with for a question, beyond its own verb: the near verbs as memory writes them
    ("spend my childhood": "grew", "grows"), and for "what do I do on weekends?" the words after the verb."""
    named = sorted({"driv": "drive", "liv": "live", "lov": "love"}.get(verb, verb) for verb, nouns in NOUNS.items()
                   if ask["words"] & {lemma(n) for n in nouns} and verb != ask["verb"])
    near = sorted(v for base, verbs in NEAR_VERBS.items() if lemma(base) == ask["verb"] for v in verbs if v != "be" and v not in named)
    forms = [third_person(v) for v in named] + [form for v in near for form in (PAST.get(v), third_person(v)) if form]
    # rule 201: what the question's noun is done with comes first, as a note says it ("which languages ...?": speaks)
    return sorted(ask["words"]) + forms if ask["verb"] == "do" else forms  # the words after "do" say what it is


def answer(ask: dict, known: dict) -> str | None:
    """The stored statement that answers a question, said back to the user, or None: the same subject, the
    same verb (or a near one: "what car do I have?" finds "I drive a Volvo"), then the most shared words."""
    near = {lemma(v) for base, verbs in NEAR_VERBS.items() if lemma(base) == ask["verb"] for v in verbs}
    named = {lemma(verb) for verb, nouns in NOUNS.items() if ask["words"] & {lemma(n) for n in nouns}}  # "which language ...?": speak
    near |= named
    best, score = None, -1
    for key, value in known.items():
        parts = decode(key)
        shared = len(ask["words"] & {lemma(w) for w in re.findall(r"[a-z]{3,}", value.lower())}) if parts else 0
        pro_verb = ask["verb"] == "do" and (shared > 0 or not ask["words"] and ask["subject"] != "user")
        # "what do I do on weekends?": any doing that shares "weekends"; "what does my wife do?": any doing of hers
        if not parts or parts[0] != ask["subject"] or lemma(parts[1]) not in {ask["verb"]} | near and not pro_verb:
            continue
        if not of_the_kind_asked(ask, value):  # "what car do I have?" is never "two cats"
            continue
        shared += 2 * (lemma(parts[1]) == ask["verb"]) + (lemma(parts[1]) in named)  # the same verb, then the noun's (rule 201)
        if shared > score:
            best, score = (key, value), shared
    if best is None:
        return None
    reply = said(*best, about_user=False)
    return ("Yes: " if ask["yes_no"] else "") + reply[:1].upper() + reply[1:] + "."
