"""Parts of what the message itself states (rules 210-211): a share of an amount said in it ("Rent is 1800 and I cover
40% of it"), and the company counted in a story ("3 friends and 2 dogs, how many of us, me included?"). Each is read
into a plain sum; the number in a name (Route 66, Apollo 11) is never part of it."""
import re

from .arithmetic import PARTS, plain
from .grammar import KIND_OF, PEOPLE

FRACTION = rf"(?:(?P<num>a|an|one|two|three|four|five|\d+)\s+)?(?P<part>{'|'.join(PARTS)})s?"
SHARE = rf"(?:(?P<pct>\d+(?:\.\d+)?)\s*(?:%|percent|per cent)|{FRACTION})\s+of\s+"
REFERRED = r"(?:it|that|this|the (?:total|bill|amount|cost|sum|price|rent|lot|whole(?: thing)?|[a-z]+ bill))\b"
AMOUNT = r"(?<![\w.%])(\d+(?:\.\d+)?)(?![\w.]|\s*(?:%|percent|per cent))"
OTHER_QUESTION = (r"\b(?:when|where|who|why|which)\b[^.!?]*\?|"  # "... 40% of it. When is it due?": not the share
                  r"\b(?:left|remains?|remaining|rest|leaves?|left over|after|before|keep|save)\b")  # what is left is another sum
COUNTS = {"a": 1, "an": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5}


def share_of_stated(text: str) -> tuple | None:
    """"Rent is 1800 a month and I cover 40% of it. What's my share?", "I pay a third of the 90 bill", "the trip is 2400 and
    I'm paying 15% of that": the part of the one amount the message states, as (a sum, ""): ("40 * 1800 / 100", ""). None when the
    part refers to nothing stated, to one of several amounts, or another question is asked."""
    said = plain(text)
    found = re.search(SHARE + rf"(?:(?:the\s+)?(?P<n>\d+(?:\.\d+)?)\b|{REFERRED})", said) or own_share(said)
    if not found or re.search(OTHER_QUESTION, without_the_share_verb(said, found)):
        return None
    if (period := in_asked_period(said)) is not True:
        return period
    amount = found.group("n")
    if not amount:
        others = re.findall(AMOUNT, said[:found.start()] + " " + said[found.end():])
        if len(others) != 1:
            return None
        amount = others[0]
    if found.group("pct"):
        return f"{found.group('pct')} * {amount} / 100", ""
    count = found.group("num") or "1"
    count = str(COUNTS.get(count, count))
    return f"{amount} / {PARTS[found.group('part')]}" if count == "1" else f"{amount} * {count} / {PARTS[found.group('part')]}", ""


ANIMALS = {kind for kind, of in KIND_OF.items() if of in ("pet", "dog", "cat")}
HOW_MANY_OF_US = r"\bhow many (?:of us|are we|will we be|people|persons|passengers|heads)\b"  # never "how many bottles do we have"
ME_TOO = (r"\b(?:me included|myself included|including (?:me|myself)|counting (?:me|myself)|(?:and|plus|with) (?:me|myself|i)\b|"
          r"(?:me|i) and\b|of us|are we|we are)\b")
MEMBER = r"(?:^|(?<=[\s,]))(?P<n>\d+|an?|one)\s+(?:(?:more|other|little|young|small|big|old|[a-z]+'s)\s+)?(?P<who>[a-z]+)\b"


def company_counted(text: str) -> tuple | None:
    """"I'm driving down Route 66 with 3 friends and 2 dogs. How many of us are in the car, me included?": the members
    counted (people and animals the message numbers), and 1 for the user when they are in it ("me included", "of us",
    "and I"), as (the sum, ""): ("3 + 2 + 1", ""). "How many people" leaves the animals out. A number that counts no
    one ("3 bags") is (None, the words it could not read): never a partial sum, nor another rule's product. None when
    the question counts no company, or nothing is counted."""
    said = plain(text)
    if not re.search(HOW_MANY_OF_US, said):
        return None
    people_only = re.search(r"\bhow many (?:people|persons|passengers)\b", said)
    counts = []
    for member in re.finditer(MEMBER, said):
        who = member.group("who")
        single = who.rstrip("s") if who.endswith("s") and who.rstrip("s") in PEOPLE | ANIMALS else who
        single = {"children": "child", "people": "person", "puppies": "puppy"}.get(who, single)
        if single not in PEOPLE | ANIMALS | {"person", "adult", "guest", "passenger", "teammate", "classmate"}:
            if member.group("n").isdigit():
                return None, member.group()  # "2 bags", "3 hours": a number that counts no one
            continue
        if not (people_only and single in ANIMALS):
            counts.append(str(COUNTS.get(member.group("n"), member.group("n"))))
    if not counts:
        return None
    return " + ".join(counts + ["1"] * bool(re.search(ME_TOO, said))), ""


COVERER = rf"(?:(?i:my|our|the) [a-z]+(?: [a-z]+)?|[A-Z][a-z]+|{'|'.join(sorted(PEOPLE, key=len, reverse=True))}|he|she|they|someone(?: else)?)"
COVERS = (r"(?:(?:is |are )?(?:covering|paying|chipping in|contributing|putting in)|cover(?:s|ed)?|pa(?:ys?|id)(?! me\b)|chip(?:s|ped)? in|help(?:s|ed)? (?:out )?with|put(?:s)? in|contribut(?:es?|ed)|t(?:akes?|ook) care of|"
          r"pick(?:s|ed)? up|foot(?:s|ed)?|handle[sd]?)")
COVERED = (rf"(?:,\s*|;\s*|\s+)(?:and |but |while |though )?(?P<who>{COVERER}) (?:also |kindly |usually |always )?{COVERS}\s+"
           rf"(?:for )?[$€£]?(?P<part>\d+(?:\.\d+)?)(?P<pct> ?(?:%|percent|per cent))?(?!\d|\.\d)(?: (?:dollars|euros|pounds|bucks))?"
           rf"(?: of (?:it|that|this|the (?:cost|bill|rent|total|amount|price|fee)))?(?: for (?:me|us))?")
MINE_ASKED = r"\bhow much (?:do|will|would|should|am|are|did) (?:i|we)\b|\b(?:my|our) (?:share|part|bit|cost)\b|\b(?:i|we) (?:pay|owe|spend|cover)\b|\bleft for (?:me|us)\b"


def covered_by_others(text: str) -> tuple | None:
    """Rule 226: an amount someone else covers ("My rent is 1450 a month and my roommate covers 600 of it", "grandma chips
    in 250"): (the message without that clause, the amount it is taken from, the part covered, whose question it is:
    "mine", "theirs" or "", the clause; a percent covered is that part of the amount), or None when no one else covers a number of the amount before."""
    found = re.search(COVERED, text)
    if not found or re.match(r"(?:i|me|you|we|it|this|that|which)\b", found.group("who"), re.I):
        return vaguely_covered(text)
    if re.fullmatch(r"he|she|they", found.group("who"), re.I) and not re.search(r"\b(?:i|i'm|me|my|we|our|us)\b", text, re.I):
        return None  # rule 259: "Ana starts with 640. She pays 120 ...": the story's own subject pays, no one covers for the user
    before = re.findall(AMOUNT, plain(text[:found.start()]))
    if not before:
        return None
    rest = text[found.end():]
    who = re.sub(r"^(?:my|our|the) ", "", found.group("who"), flags=re.I)
    asked = "theirs" if re.search(rf"\b{re.escape(who)}\b", rest, re.I) else "mine" if re.search(MINE_ASKED, rest, re.I) else ""
    clause = re.sub(r"^\W*(?:and|but|while|though)\s+", "", found.group(0), flags=re.I).strip()
    part = f"{before[-1]} * {found.group('part')} / 100" if found.group("pct") else found.group("part")  # "covers 40% of it"
    return text[:found.start()] + rest, before[-1], part, asked, clause


def vaguely_covered(text: str) -> tuple | None:
    """Rule 226: someone else pays for a part the message gives no number for ("my mum paid for one", "my flatmate covers
    the tip"), beside a question of what the user pays: (None, None, None, "", the clause), so that it is named."""
    found = re.search(rf"(?<![\w'])(?P<who>{COVERER}) (?:also |kindly |usually |always )?{COVERS}\b[^.;?!]*", text)
    if not found or re.match(r"(?:i|me|you|we|it|this|that|which)\b", found.group("who"), re.I) \
            or not re.search(MINE_ASKED, text[found.end():], re.I):
        return None
    return None, None, None, "", found.group(0).strip()


OWN_SHARE = (r"\b(?P<verb>[a-z]+)\s+(?:away\s+|aside\s+)?(?P<pct>\d+(?:\.\d+)?)\s*(?:%|percent|per cent)"
             r"(?!\s*of\b)(?P<n>)(?P<num>)(?P<part>)")
ASKS_THE_SHARE = r"\bhow much (?:is|was|would be|will be) (?:that|it|this)\b"


def own_share(said: str):
    """Rule 243: a percentage the user does something with, of the one amount they state, with no "of" ("I make 2500 a
    month and put 8% aside. How much is that?"): read as "8% of it" when the question asks that amount ("how much is
    that?") or repeats the verb ("... save 12%. How much do I save?"). Never for a tip, a tax or a discount (other rules')."""
    found = re.search(OWN_SHARE, said)
    if not found or not re.search(r"\b(?:i|we)\b[^.?!]*$", said[:found.start()]) or re.search(r"\b(?:tip|tax|vat|discount|off|interest|raise|rise)\b", said):
        return None
    after = said[found.end():]
    verb = re.escape(found.group("verb")[:4])
    return found if re.search(ASKS_THE_SHARE, after) or re.search(rf"\bhow (?:much|many)\b[^.?!]*\b{verb}", after) else None


def without_the_share_verb(said: str, found) -> str:
    """The message without the question's repeat of the share's own verb: "save 12% of it. How much do I save?" asks the
    share, not what is left (the verb "save" counts against a share only when the share is another verb's)."""
    verb = re.search(r"([a-z]{3,})\s+(?:away\s+|aside\s+)?$", said[:found.start("pct") if found.group("pct") else found.start()])
    return said if not verb else re.sub(rf"\b{re.escape(verb.group(1)[:4])}[a-z]*", " ", said)


def in_asked_period(said: str):
    """True when the share is asked over the period its amount is said in, or none; a sum of the part over another period
    is left out: (None, the words) so that no share of a month is given as a year's (rule 243)."""
    rate = re.search(r"\b(?:a|an|per|each|every) (minute|hour|day|week|month|year)\b|\b(daily|weekly|monthly|yearly|annually)\b", said)
    asked = re.search(r"\b(?:a|an|per|each|every|in a|in one|over a) (minute|hour|day|week|month|year)\b|\b(daily|weekly|monthly|yearly|annually)\b",
                      said[rate.end():]) if rate else None
    if not asked:
        return True
    said_in = rate.group(1) or {"daily": "day", "weekly": "week", "monthly": "month"}.get(rate.group(2), "year")
    asked_in = asked.group(1) or {"daily": "day", "weekly": "week", "monthly": "month"}.get(asked.group(2), "year")
    return True if said_in == asked_in else (None, asked.group(0))
