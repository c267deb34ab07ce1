"""Arithmetic for the teaching model: a sentence -> a Python expression, and its step-by-step value.

"twelve times seven" -> "12 * 7"; "17% of 230" -> "17 * 230 / 100"; "the sum of 1, 2, 3 and 4" ->
"(1 + 2 + 3 + 4)"; "3 boxes with 12 apples each" -> "3 * 12". Dates (2024-5-1, 1/2/2024), times
(3:30), phone numbers (555-1234) and versions (3.11.2) are never sums. `steps()` walks the expression
and hands each operation that has a tool to the caller (one tool call per loop turn), doing the rest
"in its head"; it uses whatever number a tool returned, so a buggy tool gives a wrong final answer.
"""
import ast
import hashlib
import math
import operator
import re
from functools import lru_cache

OPERATIONS = {ast.Add: ("add", operator.add), ast.Sub: ("subtract", operator.sub),
              ast.Mult: ("multiply", operator.mul), ast.Div: ("divide", operator.truediv),
              ast.Pow: ("power", operator.pow), ast.Mod: ("modulo", operator.mod)}
KINDS = [kind for kind, _ in OPERATIONS.values()]  # the tool kinds arithmetic can use
UNITS = ("zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
         "sixteen seventeen eighteen nineteen").split()
TENS = {w: 10 * i for i, w in enumerate("_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()) if i > 1}
SCALES = {"hundred": 100, "thousand": 1000, "million": 10 ** 6}
NUMBER_WORD = "|".join(UNITS + list(TENS) + list(SCALES) + ["a dozen", "dozen"])
N = r"(-?\d+(?:\.\d+)?|R)"       # an operand: a number, or R, the previous step's result
LIST = rf"{N}((?:\s*,\s*{N})*,?\s+and\s+{N}|(?:\s*,\s*{N})+)"  # "1, 2, 3 and 4", "2, 4, 6, 8"
PARTS = {"half": 2, "halve": 2, "third": 3, "quarter": 4, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
         "ninth": 9, "tenth": 10}
WEEKDAY = r"(?:mon|tues|wednes|thurs|fri|satur|sun)day"
NOT_SUMS = [r"\b\d+(?:-\d+){2,}\b", r"\b(?:1[89]|20)\d\d-(?:1[89]|20)?\d\d\b", r"\b\d{1,2}/\d{1,2}/\d{2,4}\b", r"\b\d{1,2}:\d\d\b",
            r"\b\d+\.\d+\.\d+\b", r"\bin (?:binary|hex|hexadecimal|octal|roman numerals|base \d+|words)\b", r"(?<![\d\s])\d{3}-\d{4}\b", r"\+\d[\d ]{7,}", r"\(\d{3}\)\s*\d",
            r"(?<!difference )\bbetween -?\d+(?:\.\d+)? and -?\d",
            r"\b(?:on|until|till|since|dated?|days?|due|deadline|born|expir\w*|appointment|birthday|b-?day|meeting|anniversary|wedding|"
            r"exam|party|flight|interview)\b[^.?!\d]{0,25}(?<![\d/.])\d{1,2}/\d{1,2}(?![\d/]|\.\d)",  # "my appointment is on 12/5": a date (rule 291)
            r"\b\d{1,2}(?::\d\d)?\s*[-–]\s*\d{1,2}(?::\d\d)?\s*(?:am|pm)\b",
            rf"^(?=.*\b(?:remind|wake|alarm|schedul\w*|calendar|tomorrow|tonight|today|{WEEKDAY})\b).*\bat \d{{1,2}}\b"
            r"(?!\s*(?:each|apiece|a piece|per|for|every|an?|the)\b|\s*[%.])"]  # "a table for 4 on Friday at 8": a clock (rule 203)  # "10-11am" is a time, not a sum  # "a number between 1 and 10" is a range
WORDS = [  # spoken arithmetic -> symbols, applied in order; R stands for "the result"
    (rf"{N}\s*(?:\^|\*\*)\s*{N}", r"(\1 ** \2)"),
    (rf"{N}\s*(?:%|percent|per cent) of {N}", r"(\1 * \2 / 100)"),
    (rf"{N} (?:out of|of|in) {N},? (?:as|in|expressed as|written as|to) (?:a )?(?:percent(?:age)?|per cent|%)", r"(\1 / \2 * 100)"),
    (rf"\bwhat (?:percent(?:age)?|per cent|%) (?:is|of) {N} (?:is )?(?:out )?of {N}", r"(\1 / \2 * 100)"),  # rule 258
    (rf"{N} is what (?:percent(?:age)?|per cent|%) of {N}", r"(\1 / \2 * 100)"),
    (rf"\bwhat (?:percent(?:age)?|per cent|%) of {N} is {N}", r"(\2 / \1 * 100)"),
    (rf"{N} out of {N}\b(?=.*\b(?:percent(?:age)?|per cent)\b|.*%)", r"(\1 / \2 * 100)"),  # "45 out of 60, what is that in percent?"
    (rf"{N} (?:squared|to the power of 2)\b", r"(\1 ** 2)"), (rf"{N} cubed\b", r"(\1 ** 3)"),
    (rf"{N} (?:to the power(?: of)?|raised to(?: the power(?: of)?)?|to the) {N}(?:th|st|nd|rd)?(?: power)?", r"(\1 ** \2)"),
    (rf"(?:the )?remainder (?:of|when) {N} (?:is )?divided by {N}", r"(\1 % \2)"), (rf"{N} (?:mod|modulo) {N}", r"(\1 % \2)"),
    (rf"\bincrease {N} by {N}\s*(?:%|percent)", r"(\1 * (100 + \2) / 100)"),
    (rf"\bdecrease {N} by {N}\s*(?:%|percent)", r"(\1 * (100 - \2) / 100)"),
    (rf"(?:the )?square of {N}", r"(\1 ** 2)"), (rf"(?:the )?cube of {N}", r"(\1 ** 3)"),
    (rf"\b(?:take|knock) {N} off {N}", r"(\2 - \1)"),
    (rf"^\W*(?:take|start with|begin with|start at) {N},?\s*(?:and )?(?:then )?(?:halve|half) it\b", r"(\1 / 2)"),
    (rf"^\W*(?:take|start with|begin with|start at) {N},?\s*(?:and )?(?:then )?double it\b", r"(\1 * 2)"),
    (rf"^\W*(?:take|start with|begin with|start at) {N},?\s*(?:and )?(?:then )?triple it\b", r"(\1 * 3)"),
    (rf"^\W*(?:take|start with|begin with|start at) {N},?\s*(?:and )?(?:then )?(?:subtract|knock off|take off|take away|"
     rf"deduct|remove|minus) {N}", r"(\1 - \2)"),
    (rf"\b(?:cut|split|divide|chop) {N} in (?:half|two)\b", r"(\1 / 2)"),
    (rf"\b(?:split|share|divide) {N} (?:into |between |among |by )?{N}(?: ways| people| parts| equal parts| pieces)?",
     r"(\1 / \2)"),  # "then split what's left five ways"
    (rf"^\W*(?:take|start with|begin with|start at) {N},?\s*(?:and )?(?:then )?add {N}", r"(\1 + \2)"),
    (rf"^\W*(?:take|start with|begin with|start at) {N},?\s*(?:and )?(?:then )?(?:multiply|times)(?: it)? by {N}", r"(\1 * \2)"),
    (rf"^\W*(?:take|start with|begin with|start at) {N},?\s*(?:and )?(?:then )?divide(?: it)? by {N}", r"(\1 / \2)"),
    (rf"{N} more than {N}", r"(\2 + \1)"), (rf"{N} less than {N}", r"(\2 - \1)"), (rf"{N} take away {N}", r"(\1 - \2)"),
    (rf"{N} more [a-z]+ than (?:the |my )?{N}", r"(\2 + \1)"), (rf"{N} (?:fewer|less) [a-z]+ than (?:the |my )?{N}", r"(\2 - \1)"),
    (rf"(?:the )?square root of {N}", r"(\1 ** 0.5)"), (rf"\bsquare {N}", r"(\1 ** 2)"), (rf"\bcube {N}", r"(\1 ** 3)"),
    (rf"{N}\s*/\s*{N} of {N}", r"(\1 / \2 * \3)"),
    (rf"(?:\ba|{N}) ({'|'.join(PARTS)})s? of {N}", lambda m: f"({m.group(3)} * {m.group(1) or 1} / {PARTS[m.group(2)]})"),
    (rf"{N} add {N}", r"(\1 + \2)"),
    (rf"(?:the )?(?:sum|total) of {LIST}", "SUM"), (rf"\b(?:add|sum|total)(?: up)? {LIST}", "SUM"),
    (rf"(?:the )?product of {LIST}", "PRODUCT"), (rf"\bmultiply {LIST}", "PRODUCT"),
    (rf"(?:the )?(?:average|mean) of {LIST}", "MEAN"),
    (rf"(?:the )?difference between {N} and {N}", r"(\1 - \2)"),
    (rf"\badd {N} (?:and|to) {N}", r"(\1 + \2)"),
    (rf"\bsubtract {N} from {N}", r"(\2 - \1)"), (rf"\btake(?: away)? {N} (?:away )?from {N}", r"(\2 - \1)"),
    (rf"\bmultiply {N} (?:by|and|with) {N}", r"(\1 * \2)"),
    (rf"\bdivide {N} (?:by|into) {N}", r"(\1 / \2)"),
    (rf"\b(?:half of|halve) {N}", r"(\1 / 2)"), (rf"\b(?:double|twice) {N}", r"(\1 * 2)"),
    (rf"\btriple {N}", r"(\1 * 3)"), (rf"\bquadruple {N}", r"(\1 * 4)"),
    (r"\bplus\b|\band\b(?=\s*-?\d)", "+"), (r"\bminus\b", "-"),
    (r"\b(?:times|multiplied by|x)\b|×|(?<=\d)x(?=\s*\d)", "*"), (r"\b(?:divided by|over)\b|÷", "/"),
]
SPEED = r"(?:km/h|kph|kmh|mph|(?:[a-z]+ )?(?:per|an|a) (?:hour|hr|minute|min|second|sec)\b)"  # a rate in time: never a price
WORD_PROBLEMS = [  # "3 boxes with 12 apples each", "4 packs of 6 eggs", "5 tickets at $8 each"
    (rf"{N} (?!out of\b)[a-z]+(?: [a-z]+)? (?:with|of|containing|holding|that (?:each )?(?:hold|have|contain)s?|"
     rf"each (?:with|has|have|holding|containing)) {N} [a-z]+", r"(\1 * \2)"),
    (rf"{N} ?[a-z]*\b[^.?!]*?\bat (?:a speed of |an average of |about |around )?{N} ?{SPEED}(?=.*\bhow (?:long|many "
     rf"(?:hours|hrs|minutes|mins|seconds|days)\b))", r"(\1 / \2)"),  # "150 km at 60 km/h, how long?": a distance over a speed (rule 372)
    (rf"{N} (?!(?:minute|min|hour|hr|day|week|month|year)s?\b)[a-z]+(?: [a-z]+)? (?:at|for) \$?{N}\b(?! ?{SPEED})"
     rf"(?: each| apiece)?", r"(\1 * \2)"),
    (rf"{N} (?!(?:minute|min|hour|hr|day|week|month|year)s?\b)[a-z]+(?: [a-z]+)? (?:costs?|costing) \$?{N}\b (?:each|apiece)",
     r"(\1 * \2)"),
    (rf"{N} (?!(?:minute|min|hour|hr|day|week|month|year)s?\b)[a-z]+ \$?{N} (?:each|apiece|a head|per head)\b", r"(\1 * \2)"),  # "owe 3 people 14.25 each" (rule 342)
    (rf"\b{N} [a-z]+(?: [a-z]+)? (?:costs?|costing|are|is|for) \$?{N}\b.*?\bhow much (?:do|would|will|does|for) {N}\b",
     r"(\2 / \1 * \3)"),  # "if 3 apples cost $1.20, how much do 10 cost?": the price of one, times 10
    (rf"\b(?:have|has|had|there are|there were|got) {N} [a-z]+.*?\b(?:eats?|ate|gives? away|gave away|loses?|lost|"
     rf"sells?|sold|uses?|used|takes? away|took away|spends?|spent|breaks?|broke) {N}\b", r"(\1 - \2)"),
    (rf"\b(?:have|has|had|there are|there were|got) {N} [a-z]+.*?\b(?:buys?|bought|gets?|got|finds?|found|adds?|added|"
     rf"receives?|received|gives? me|gave me|hands? me|handed me) {N}\b", r"(\1 + \2)"),
    (rf"\b(?:have|has|had|there are|there were|got) {N} [a-z]+.*?\b(?:gives?|gave|hands?|handed|sends?|sent|sells?|sold) "
     rf"{N}\b(?: [a-z]+)? (?:to|away)\b", r"(\1 - \2)"),  # "She gives 5 to Tom" (but "Tom gives me 2" is not)
    (rf"{N} [a-z]+ (?:in|per) (?:a|an|one|each) [a-z]+.*?\bin {N} [a-z]+", r"(\1 * \2)"),
    (rf"\b(?:a|one|each|every) [a-z]+ (?:has|holds|contains|fits) {N} [a-z]+.*?\bin {N} [a-z]+", r"(\1 * \2)"),
    (rf"\b(?:a|one|each|every) ([a-z]+?) (?:has|holds|contains|fits|takes|carries) {N} [a-z]+.*?\b{N} (?:[a-z]+ )?\1(?:e?s)?\b"
     rf"(?:,? and {N} (?:loose|extra|spare|single|more|odd|left ?over|separate) [a-z]+)", r"(\2 * \3 + \4)"),
    (rf"\b(?:a|one|each|every) ([a-z]+?) (?:has|holds|contains|fits|takes|carries) {N} [a-z]+.*?\b{N} (?:[a-z]+ )?\1(?:e?s)?\b",
     r"(\2 * \3)"),
    (rf"\b(?:the|that|this|a|an|one|each|every|our|my|his|her|their)(?: [a-z]+)? ([a-z]+?) (?:had|held|contained|carried|took|has|holds|contains|carries) "
     rf"{N} [a-z]+.*?\b{N} (?:such |of those |of these |similar |more )?\1(?:e?s)?\b", r"(\2 * \3)"),  # "The Apollo 11 crew had 3 ... 4 such crews"
    (rf"\b{N} [a-z]+\b.*?\beach(?: 1| of them)? (?:is |are |gets? |was )?(?:cut|split|divided|sliced) into {N} [a-z]+", r"(\1 * \2)"),  # "a crate holds 24 cans and I've got 17 crates": the count is of the container
    (rf"\b(?:share|split|divide|shared|split)s? {N} [a-z]+.*?\b(?:among|between|by) {N}\b", r"(\1 / \2)"),
]
CUES = (r"\bwhat(?:'s| is| are|s)?\b|\bhow (?:much|many)\b|\bcalculat|\bcompute|\bwork out|\bevaluate|\bsolve|"
        r"=|\?|\bfigure out|\btell me\b|\btotal\b|\baltogether\b|\bin all\b|\bcan you\b|^\W*$")


OPERATOR_WORDS = (r"[-+*/^×÷%]|\b(?:add|plus|minus|times|multipl|divide|subtract|sum|product|square|cube|power|"
                  r"percent|double|triple|quadruple|half|halve|take|split|share|knock|cut)")


class ToolFailed(Exception):
    """A tool's result was not a number (an error message, for instance)."""


def numbers_in_words(text: str) -> str:
    """'twelve times seven' -> '12 times 7'; 'one hundred and five' -> '105'; '3 dozen' -> '36' (rule 238);
    '1 hundred and twenty' -> '120', '2 thousand' -> '2000' (rule 245)."""
    text = re.sub(r"(?<![\w.])(\d+) dozen\b", lambda m: str(int(m.group(1)) * 12), text)
    text = re.sub(r"(?<![\w.,])(\d+(?:\.\d+)?)[\s-]+(hundred|thousand|million)\b", digits_scaled, text, flags=re.I)
    phrase = (rf"\b(?:{NUMBER_WORD})(?:(?:(?<=hundred)\s+and\s+|(?<=thousand)\s+and\s+|[\s-]+)"
              rf"(?:{NUMBER_WORD}))*\b")
    return re.sub(phrase, lambda m: _spoken(m.group()), text)


def digits_scaled(found) -> str:
    """Rule 245: digits before a scale word: a small whole number becomes its word, so that what follows joins it as
    words do ("1 hundred and twenty" is "one hundred and twenty", 120); any other number is multiplied ("2.5 million")."""
    number, scale = found.group(1), found.group(2).lower()
    if number.isdigit() and int(number) < 20:
        return f"{UNITS[int(number)]} {scale}"
    if number.isdigit() and int(number) in TENS.values():
        return f"{next(w for w, v in TENS.items() if v == int(number))} {scale}"
    value = float(number) * SCALES[scale]
    return str(int(value)) if value == int(value) else str(value)


def _spoken(phrase: str) -> str:
    total, current = 0, 0
    for word in re.findall(r"[a-z]+", phrase.replace("a dozen", "dozen")):
        if word in UNITS:
            current += UNITS.index(word)
        elif word in TENS:
            current += TENS[word]
        elif word == "dozen":
            current = (current or 1) * 12
        elif word == "hundred":
            current = (current or 1) * 100
        elif word in SCALES:
            total, current = total + (current or 1) * SCALES[word], 0
    return str(total + current)


def expression(text: str, previous: str | None = None) -> str | None:
    """The arithmetic a clause asks for, as a Python expression, or None.
    `previous` is the expression of the clause before ("..., then multiply the result by 5")."""
    text = numbers_in_words(named(text).lower())
    if any(re.search(pattern, text) for pattern in NOT_SUMS):
        return None
    text = re.sub(r"^\W*(?:don't|do not)\s+(?:add|subtract|multiply|divide|sum)\s+(?:them|those|these|it)\b\W*", "", text)
    text = re.sub(r"\bi (?=(?:don't|do not) )|\b(?:want to|wanna)\s+(?=add|subtract|multiply|divide|sum)|\bi want to\s+", "", text)
    text = re.sub(r"\s+-\s+(?=(?:add|subtract|multiply|divide|sum)\b)", ", ", text)  # "don't add 5 and 3 - multiply them"
    negated = re.search(r"\b(?:don't|do not|not)\s+(?:add|subtract|multiply|divide|sum|plus|minus|times)\b([^,;:]*)[,;:]?", text)
    if negated:  # "don't add 5 and 3, multiply them": the numbers stay, the operation goes
        said = re.findall(r"-?\d+(?:\.\d+)?", negated.group(1))
        text = text.replace(negated.group(0), " ")
        text = re.sub(r"\b(?:them|those|both|these)\b", " and ".join(said), text) if said else text
    text = re.sub(r"\b(add|subtract|multiply|divide|sum)\s*:\s*", r"\1 ", text)  # "multiply: 6 and 9"
    text = re.sub(r"\b(\d+(?:\.\d+)?)e([-+]?\d{1,3})\b", lambda m: f"{float(m.group()):.15g}", text)  # 1e3 is 1000
    text = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text).replace("$", "").replace("€", "").replace("£", "")
    text = re.sub(r"\bnegative\s+(?=\d)", "-", text)
    text = re.sub(r"\b(?:another|an extra|extra|an additional|additional)\s+(?=\d)", "", text)  # "plus another 4 loose eggs"
    if previous is not None and not re.search(OPERATOR_WORDS, text):
        return None  # "..., and translate it": "it" is the result, but nothing is computed
    if previous is not None:
        text = re.sub(r"\b(?:whatever (?:you get|that is|it is|is left)|what you get|what's left|what is left|the rest|"
                      r"the remainder|the result|the answer|the total|that number|that|it|this)\b", "R", text)
        if "R" not in text:  # "then multiply by 5", "then add 2": the result is implied
            text = re.sub(r"^\W*(?:then\s+|and\s+)*(multiply|divide|square|cube)\b", r"\1 R", text)
            text = re.sub(r"^\W*(?:then\s+|and\s+)*(add|subtract) (-?\d+(?:\.\d+)?)\b(?! (?:and|to|from))",
                          lambda m: f"add R and {m.group(2)}" if m.group(1) == "add" else f"subtract {m.group(2)} from R", text)
            text = re.sub(r"^\W*(?:then\s+|and\s+)*(?=(?:plus|minus|times|divided by|multiplied by|squared|cubed)\b)", "R ", text)
            text = re.sub(r"^\W*(?:then\s+|and\s+)*(?:take away|take off|knock off|minus|less) (-?\d+(?:\.\d+)?)\b",
                          r"subtract \1 from R", text)
    for pattern, symbol in WORDS + WORD_PROBLEMS:
        text = re.sub(pattern, _joined(symbol) if symbol in JOINS else symbol, text)
    if "R" in text:
        if previous is None:
            return None
        text = text.replace("R", wrap(previous))
    text = re.sub(r"(\d[\d\s.+\-*/()]*?\d\)?)\s*,\s*(?=[-+*/]\s*\(?\s*-?\d)", r"(\1) ", text)  # "5 + 3, multiplied by 2"
    runs = re.findall(r"[\d.\s+\-*/()%]+", text)
    for run in sorted(runs, key=len, reverse=True):
        run = run.strip().rstrip(".")
        while run.count("(") > run.count(")") and run.startswith("("):
            run = run[1:].strip()
        if re.search(r"\d\s*\)*\s*(?:[-+*/%]|\*\*)\s*\(*\s*-?\d", run) and parse(run) is not None:
            if re.search(rf"\d\s*,\s*{re.escape(run)}", text):
                return None  # "82, 91 + 77": a sum of the last two of a list drops the first, so none is given
            explicit = re.search(r"\(|\d \*{0,2}[-+*/] -?\d", run) and not re.search(r"[-+*/]\s*$", run)
            return run if explicit or re.search(CUES, text) or text.strip(" .!?") == run else None
    return None


SYMBOLS = {"plus": "+", "minus": "-", "times": "*", "multiplied by": "*", "divided by": "/", "over": "/"}


def swap(expression: str, old: str | None, new: str) -> str:
    """"10 - 3" with "not minus, I meant plus" -> "10 + 3": the operation named (or the only one) replaced."""
    mark = SYMBOLS[new.lower()]
    if old:
        return expression.replace(f" {SYMBOLS[old.lower()]} ", f" {mark} ", 1)
    return re.sub(r"(?<=\S) [-+*/] (?=\S)", f" {mark} ", expression, count=1)


def wrap(expression: str) -> str:
    """The expression in brackets, unless it already is: "(3 + 4)" stays, "3 + 4" -> "(3 + 4)"."""
    return expression if re.fullmatch(r"\((?:[^()]|\([^()]*\))*\)", expression) else f"({expression})"


def word_problem(text: str) -> str | None:
    """The sum in a short story that asks "how many" ("I have 12 pens and buy 8 more, how many now?")."""
    text = numbers_in_words(named(text).lower()).replace("$", "")
    if not re.search(r"\bhow (?:many|much|long)\b|\bleft\b|\bin (?:total|all)\b|\baltogether\b", text):
        return None
    for pattern, symbol in WORD_PROBLEMS:
        found = re.search(pattern, text)
        if found and "R" not in found.group(0):
            whole = expression(text[:found.start()] + found.expand(symbol) + text[found.end():])
            return whole if whole and found.expand(symbol) in whole else found.expand(symbol)  # "... plus another 4"
    return None


CONVERSIONS = {("hour", "minute"): 60, ("minute", "second"): 60, ("hour", "second"): 3600, ("day", "hour"): 24,
               ("week", "day"): 7, ("mile", "km"): 1.609344, ("mile", "kilometre"): 1.609344, ("kg", "pound"): 2.20462,
               ("kilogram", "pound"): 2.20462, ("foot", "inch"): 12, ("metre", "cm"): 100, ("meter", "cm"): 100,
               ("km", "metre"): 1000, ("km", "meter"): 1000, ("litre", "ml"): 1000, ("year", "month"): 12}
ASKED = (r"\bhow (?:much|many|long|far|old)\b|\bwhat(?:'s| is| are| will| would|s)\b|\btotal\b|\?|\bcalculate\b|\bwork out\b|"
         r"\bconvert\b|\bsplit\b|\bshare\b")
PER = {("week", "year"): 52, ("month", "year"): 12, ("day", "week"): 7, ("day", "year"): 365, ("hour", "day"): 24,
       ("minute", "hour"): 60}


def named(text: str) -> str:
    """A number that is part of a name is no operand: "a Boeing 747", "for Maroon 5", "Blink-182", flight "LH400" -> the name alone."""
    text = glued_labels(models_unnumbered(text))
    text = re.sub(r"\b([A-Za-z]+)\d+[A-Za-z]*\b", r"\1", text)  # letters and digits glued (BA117, ICE574, Q3) name something
    text = re.sub(r"\b((?i:a|an|the|my|his|her|our|their)\s+[a-z]*[A-Z][a-zA-Z]*)\s+\d+\b", r"\1", text)
    text = labels_unnumbered(text)
    text = re.sub(r"(?<=[a-z,] )([A-Z][a-zA-Z]+(?:['’-][A-Za-z]+)*)(?:\s+|-)\d+(s?)\b(?!\s*(?:am|pm|%|percent|:))", r"\1\2", text)
    return re.sub(r"\b([A-Z][a-zA-Z]*)-\d+\b", r"\1", text)  # "Blink-182", "the I-90" (rule 409)


MAKE = r"(?:[A-Z][a-zA-Z]*|[a-z]+[A-Z][a-zA-Z]*)(?: (?:[A-Z][a-zA-Z]*|[A-Z]*\d+[A-Za-z]*))*"  # "PlayStation 5s", "Galaxy S24s"


def models_unnumbered(text: str) -> str:
    """Rule 391: a count before a make and a model number ("3 PlayStation 5s", "2 iPhone 15s", "4 Galaxy S24s") counts
    the things; the model's number is no operand: dropped, its plural kept."""
    return re.sub(rf"(?<![\w.$€£])(\d+\s+(?:[A-Z][a-zA-Z]*|[a-z]+[A-Z][a-zA-Z]*)(?: [A-Z][a-zA-Z]+)*) [A-Z]*\d+[A-Za-z]*?(s?)\b",
                  r"\1\2", text)


def glued_labels(text: str) -> str:
    """A number with a capital glued after it names something ("Apartment 42B", "Flat 3A", "Seat 12C"), and so does the
    same word's plain number elsewhere ("... and Apartment 17 has 2"): the word is kept, the numbers dropped (rule 191)."""
    words = set(re.findall(r"\b([A-Z][a-zA-Z]+) \d+[A-Z]\b", text))
    for word in words:
        text = re.sub(rf"\b{word} \d+[A-Z]?\b", word, text)
    return text


OPERAND_WORDS = (r"(?:and|plus|minus|times|x|by|from|to|of|into|over|off|with|or|more|less|each|every|per|percent|divided|multiplied|"
                 r"among|between|across|in|at|for|on|than|out|up|down|ways|people|persons)")  # what joins numbers, not what names them


def labels_unnumbered(text: str) -> str:
    """A capitalised word and a number that name something are no operand: a label used twice ("Team 2 ... Team 5",
    "Room 101 ... Room 102"), a word with a capital inside ("iPhone 15"), or a label that does something to a number
    ("Lane 3 has 12 swimmers", "Apollo 11 carried 3"); "Add 7 and 12", "Take 5 from 20" keep theirs."""
    labels = re.findall(r"\b([A-Z][a-zA-Z]+) \d+\b", text)
    text = re.sub(r"\b([A-Z][a-zA-Z]+) \d+\b", lambda m: m.group(1) if labels.count(m.group(1)) > 1 else m.group(), text)
    acting = [m.group(1).lower() for m in re.finditer(rf"\b([a-z]+) \d+ (?!{OPERAND_WORDS}\b)[a-z]+ (?:(?!{OPERAND_WORDS}\b)[a-z]+ )?\d",
                                                      text, re.I)]  # "team 2 won 3", "level 3 took me 12"
    labels = [w.lower() for w in re.findall(r"\b([a-z]+) \d+\b", text, re.I)]
    text = re.sub(r"\b([a-z]+) \d+\b", lambda m: m.group(1) if m.group(1).lower() in acting and labels.count(m.group(1).lower()) > 1
                  and not re.fullmatch(OPERAND_WORDS, m.group(1), re.I) else m.group(), text, flags=re.I)
    text = re.sub(r"\b([a-z]+[A-Z][a-zA-Z]*) \d+(s?)\b", r"\1\2", text)  # "2 iPhone 15s": two iPhones (rule 391)
    return re.sub(rf"(?:^|(?<=[.!?;]\s))([A-Z][a-zA-Z]+) \d+(?= (?!{OPERAND_WORDS}\b)[a-z]+ \d)", r"\1", text)


def plain(text: str) -> str:
    """Lower case, numbers in digits, no currency signs or thousands commas; numbers in names kept apart."""
    text = numbers_in_words(named(text).lower()).replace("$", "").replace("€", "").replace("£", "")
    text = re.sub(r"\br\b", "are", text)  # "how many minutes r in 3.5 hours"
    text = re.sub(r"\b(each|every) 1\b(?! (?:second|minute|hour|day|week|month|year)s?\b)", r"\1 one", text)  # "each one" is no amount
    return re.sub(r"(?<=\d),(?=\d{3}\b)", "", text)


ITEM_COUNT = (r"\b(\d+) of (?:them|those|these|each|it)\b|\b(?:ordered|bought|got|had|took|booked|grabbed|picked up) (\d+)\b"
              r"(?!\.\d| (?:dollars?|euros?|pounds?|bucks|quid|cents?|usd|eur|gbp)\b)")


def counts_of_items(text: str) -> set:
    """The numbers a story says are how many things were bought ("3 of them", "we ordered 3"): counts, not amounts to add."""
    return {n for found in re.finditer(ITEM_COUNT, text, re.I) for n in found.groups() if n}


def story(text: str) -> str | None:
    """The sum in an everyday question: a tip, a discount, tax kept, a bill split, a price per item, a unit
    conversion (by a stated rate, or a small table). None unless it asks for a number."""
    makes = re.findall(rf"(?<![\w.$€£])\d+\s+({MAKE})", text)  # "2 iPhone 15s and 3 Galaxy S24s": counts of named things
    named_things = len(makes) > 1 and any(re.search(r"\d", m) for m in makes)
    text = plain(text)
    if not re.search(ASKED, text) or any(re.search(p, text) for p in NOT_SUMS[:6]):
        return None
    if named_things and (total := counted(text, re.findall(r"(?<![\w.])\d+(?!\d|\.\d)", text), named_things)):
        return total
    if re.search(FRACTION, text):
        return fraction_left(text)
    numbers = re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?!\d|\.\d)(?![\w.]*%)(?!\s*(?:%|percent))", text)
    percent = re.search(r"(\d+(?:\.\d+)?)\s*(?:%|percent)", text)
    if percent and len(numbers) == 1:
        p, base = percent.group(1), numbers[0]
        if re.search(r"\boff\b|\bdiscount|\bsale\b|\bkeep\b|\bleft\b(?!\s+(?:a|an|the|my|our|\d)\b)|\bleaves? (?:me|us|you|him|her|them)\b|\bafter (?:tax|the discount)|\bgoes to\b|\btake[- ]?home\b|\bnet\b", text):
            return f"{base} * (100 - {p}) / 100"
        if re.search(r"\b(?:in total|total|altogether|with the tip|including|all in|overall)\b", text):
            return f"{base} * (100 + {p}) / 100"
        if re.search(r"\b(?:tip|tax|vat|service|interest|raise|markup|commission|deposit)\b", text):
            return f"{base} * {p} / 100"
    if percent and re.search(r"\btip|\btax|\bservice", text) and (ways := re.search(
            r"\b(?:split|divided|shared?)\b.*?\b(?:between|among|by|into) (\d+)|\bthere(?:'s| is| are) (\d+) of us|"
            r"\b(\d+) (?:ways|people|of us)\b", text)) \
            and len(numbers) == 2:
        count = next(g for g in ways.groups() if g)
        base = next(n for n in numbers if n != count or numbers.count(n) > 1)
        return f"{base} * (100 + {percent.group(1)}) / 100 / {count}"
    if company := re.search(r"\bme and (\d+) (?:friends|others|people|mates|colleagues|coworkers|of them)\b", text):
        text = text.replace(company.group(0), f"{int(company.group(1)) + 1} people")  # "me and 3 friends" are 4
        numbers = [n for n in numbers if n != company.group(1)] + [str(int(company.group(1)) + 1)]
    if each_adds := split_then_each_adds(text, numbers):  # "90 for the taxi, split 3 ways, and each of us adds a 10 tip"
        return each_adds
    split = re.search(r"\b(?:there(?:'s| is| are) (\d+) of us|(\d+) of us|(?:split|divided|shared?)\b.*?\b(\d+) ways|"
                      rf"(?:between|among|by) (\d+)(?: people| friends| of us| persons?)?\b|(\d+) (?:people|friends|persons|{SHARERS}(?=[^.?!]*\b(?:shar\w*|split\w*|divid\w*)\b))|"
                      rf"\b{GROUP} of (\d+))\b", text)
    if (split or re.search(rf"\b\d+ {SHARERS}\b", text)) and len(numbers) == 2 and (each := re.search(EACH_OF_GROUP, text)) and not re.search(r"\bsplit|\bshar|\bdivid|\bevenly\b", text):
        return f"{numbers[1 - numbers.index(each['m'])]} * {each['m']}"  # "4 of us, each brings 3 friends": 4 * 3 (rule 395)
    if split and len(numbers) == 2 and not re.search(r"\d (?:each|apiece)\b", text) and re.search(r"\beach\b|\bper (?:person|head)\b|\bsplit|\bshare|\bdivide|\beveryone\b|"
                                                 r"\bevery one\b|\bowe\b|\ba head\b|\bapiece\b", text):
        ways = next(g for g in split.groups() if g)
        total = next(n for n in numbers if n != ways or numbers.count(n) > 1)
        return f"{total} / {ways}"
    if split and len(numbers) > 2 and not re.search(REST_SHARED, text) and re.search(r"\beach\b|\bper (?:person|head)\b|\bsplit|\bevenly\b|\bapiece\b", text) \
            and re.search(r"\d\s+(?:[a-z]+\s+){0,3}(?:plus|\+|and|with)\s+(?:[a-z]+\s+){0,2}\d", text) and not re.search(r"\b(?:at|for) \d+(?:\.\d+)? (?:each|apiece)\b", text):  # "3 of us, 27.90 plus 4.50 delivery, each?": the sum, split
        ways = next(g for g in split.groups() if g)
        amounts = list(numbers)
        amounts.remove(ways)
        if counts_of_items(text) & set(amounts):
            return None  # "a pizza costs 18. We ordered 3 of them plus a drink": 3 is how many, never 3 more to pay (rule 317)
        return f"({' + '.join(amounts)}) / {ways}"
    per = re.search(r"\b(\d+)[- ](?:pack|pk|box|bag|set|bundle)\b|\bfor (\d+)\b|\b(\d+) for\b", text)
    if per and len(numbers) == 2 and re.search(r"\bper (?!person)\w+|\beach\b|\ba piece\b|\bapiece\b", text) and not rate(text):
        count = next(g for g in per.groups() if g)
        price = next(n for n in numbers if n != count or numbers.count(n) > 1)
        return f"{price} / {count}"
    return had(text) or totalled(text, numbers) or remaining(text, numbers) or counted(text, numbers) or conversion(text, numbers) or rate(text) or bill(text) or saving(text, numbers) or change(text) or ratio(text) \
        or relative(text) or difference(text, numbers)


FRACTION = r"(?<![\w./])(\d+)/(\d+)(?![\w/]|\.\d)"


def fraction_left(text: str) -> str | None:
    """Rule 292: a fraction is one number, never two operands ("I ate 3/4 of the pizza, how much is left?" is 1 - 3 / 4,
    never 4 - 3): with no other number and what is left asked, the whole less the part; otherwise None."""
    found = re.search(FRACTION, text)
    others = re.findall(r"(?<![\w./])\d+(?:\.\d+)?(?![\w/]|\.\d)", text[:found.start()] + " " + text[found.end():])
    if others or not re.search(r"\b(?:left|remain\w*|rest)\b", text) or int(found[2]) == 0 or int(found[1]) > int(found[2]):
        return None
    return f"1 - {found[1]} / {found[2]}"


EACH_GETS_ASKED = (r"\bhow (?:many|much)\b[^.?!]*?\b(?:does|do|will|would|should|can|could|did|is) (?:each|every ?one|everybody|every)"
               r"(?: (?P<who>[a-z]+))?(?: of (?:us|them|you|those|these|the [a-z]+))? (?:get|receive|have|end up with|take)\b")


TIME_UNIT = r"(?:second|minute|hour|day|week|month|year)"


def time_at_rate(text: str) -> tuple | None:
    """Rule 401: "15 pages per minute, how long for 90 pages?" is 90 / 15, said in minutes: a rate of things per unit of
    time and a number of those things, with the time asked; never the rate over the number. None otherwise."""
    text = plain(text)
    rated = re.search(rf"(?<![\w.])(?P<r>\d+(?:\.\d+)?) (?:(?P<t>[a-z]+?)(?:e?s)?(?: of [a-z]+)? )?(?:per|a|an|every|each) (?P<u>{TIME_UNIT})\b", text)
    if not rated or not re.search(rf"\bhow long\b|\bhow many (?:more )?{rated['u']}s\b|\bhow much time\b", text):
        return None
    others = re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?!\d|\.\d)", text)
    amount = [n for n in re.findall(rf"(?<![\w.])(\d+(?:\.\d+)?) (?:more )?{re.escape(rated['t'])}(?:e?s)?\b", text) if n != rated["r"]] \
        if rated["t"] else [n for n in others if n != rated["r"]]  # "at 500 a day": the other number is the amount (rule 409)
    return (f"{amount[0]} / {rated['r']}", f" {rated['u']}s") if len(amount) == 1 and len(others) == 2 else None


def each_gets(text: str) -> str | None:
    """Rule 400: with a share asked ("how many does each kid get?"), two numbers and no count said per one ("12 melons
    each"), the count of the ones "each" names, or else of people, is the group the other count is shared by:
    "6 nephews with 42 marbles, how many does each get?" is 42 / 6. None otherwise."""
    text = plain(text)
    numbers = re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?!\d|\.\d)", text)
    asked = re.search(EACH_GETS_ASKED, text)
    if not asked or len(numbers) != 2 or numbers[0] == numbers[1] or re.search(r"\d+ (?:[a-z]+ )?(?:each|apiece)\b", text):
        return None
    who = asked["who"] if asked["who"] and asked["who"] not in ("one", "person") else None
    noun = rf"{re.escape(who.rstrip('s'))}s?\b" if who else PEOPLE
    groups = [n for n in numbers if re.search(rf"(?<![\w.]){re.escape(n)} (?:[a-z]+ )?{noun}", text)]
    return f"{numbers[1 - numbers.index(groups[0])]} / {groups[0]}" if len(groups) == 1 else None


EACH_ADDS = (r"\b(?:each(?: of us| of them| person| one)?|every(?:one| person| one of us)|we each|they each)\s+(?:also\s+)?"
             r"(?:adds?|tips?|puts? in|chips? in|throws? in|gives?|pays?(?: an?)? extra|leaves?)\s+(?:an? |another |an extra |extra )?"
             r"(?P<m>\d+(?:\.\d+)?)\b|\bplus (?P<p>\d+(?:\.\d+)?) (?:each|per person|a head|apiece)\b")


EACH_OF_GROUP = (r"\b(?:(?:each|every)(?: one)?|everyone|everybody)(?: of (?:us|them|you|those|these|the [a-z]+)| [a-z]+)? (?:also |will |would )?"
            r"(?!is\b|are\b|of\b|and\b|pays? (?:for|back)\b)[a-z]+ (?:an? extra |another |about |around )?(?P<m>\d+(?:\.\d+)?)\b")  # "each of us brings 3"


SHARERS = (r"(?:tenants|roommates|room-mates|flatmates|housemates|colleagues|coworkers|co-workers|guests|"
           r"kids|children|students|players|members|siblings|cousins|mates|neighbou?rs|adults|grandkids)")  # rule 311: who shares, with a share said


GROUP = (r"(?:team|group|family|class|party|crew|band|club|household|squad|choir|troop|gang|staff|committee|"
         r"cast|unit|department|office|lab)")  # rule 338: "our team of 6 raised 1,530": 6 people share it


def formula_filled(text: str) -> str | None:
    """Rule 371: a formula the user gives, with the value of its one variable said: "it's 68 F outside, what's that in
    celsius? the formula is (F-32)*5/9" is (68-32)*5/9; "2x + 1" with "x is 4" is 2*4 + 1. None otherwise."""
    given = re.search(r"\b(?:formula|equation|rule)\s*(?:is|:|=|would be|goes)?\s*(?:[a-z]\w*\s*=\s*)?(?P<f>[-+*/×÷^().\d\sa-z]+?)\s*(?:[.?!,;]|$)",
                      text, re.I) or re.search(  # "(C = (F - 32) * 5/9)", "F = C * 9/5 + 32": an equation for a letter (rule 407)
        r"(?<![\w.])[a-z]\s*=\s*(?P<f>[-+*/×÷^().\d\sa-z]*[a-z][-+*/×÷^().\d\sa-z]*?)\s*(?:[?!,;]|\.(?!\d)|$)", text, re.I)
    if not given or not re.search(r"[-+*/×÷^]", given["f"]):
        return None
    names = set(re.findall(r"[a-z]+", given["f"], re.I))
    if len(names) != 1:
        return None
    name = names.pop()
    said = rf"\s+{name}[a-z]*" if len(name) == 1 else r"(?!)"  # "72 fahrenheit" is F = 72 (rule 407)
    value = re.search(rf"(?<![\w.])(-?\d+(?:\.\d+)?)\s*°?\s*{name}\b|(?<![\w.])(-?\d+(?:\.\d+)?){said}\b|\b{name}\s*(?:=|is|of)\s*(-?\d+(?:\.\d+)?)",
                      text[:given.start()] + " " + text[given.end():], re.I)
    if not value:
        return None
    number = value[1] or value[2] or value[3]
    formula = given["f"].strip()
    formula = formula[:-1] if formula.count(")") > formula.count("(") else formula  # "(C = (F - 32) * 5/9)": its bracket closed
    formula = re.sub(rf"(\d|\))\s*{name}\b", rf"\1*{name}", formula)  # "2x" is 2 times x
    return re.sub(rf"\b{name}\b", f"({number})" if number.startswith("-") else number, formula).replace("×", "*").replace("÷", "/").replace("^", "**")


def contents_shared(text: str) -> str | None:
    """Rule 370: containers times what each holds, shared among people: "5 friends share 2 pizzas with 8 slices each,
    how many slices does each get?" is 2 * 8 / 5; with no share asked, None."""
    said = plain(text)
    people = re.search(r"\b(\d+) [a-z]+ (?:share|split|divide)s?\b|\b(?:shared|split|divided) (?:equally |evenly )?(?:by|among|amongst|between) (\d+)\b", said)
    packs = re.search(r"\b(\d+) [a-z]+ (?:with|of|holding|containing) (\d+) [a-z]+(?: each| in each| apiece)?\b", said)
    if not people or not packs or not re.search(r"\beach\b|\bper (?:person|head)\b|\bapiece\b", said[packs.end():]) \
            or len(re.findall(r"\d+(?:\.\d+)?", said)) != 3:
        return None
    return f"{packs[1]} * {packs[2]} / {people[1] or people[2]}"


def split_then_each_adds(text: str, numbers: list) -> str | None:
    """A total split some ways, then an amount each person adds ("90 for the taxi, split 3 ways, and each of us adds a 10
    tip"): the share plus the amount. Only with exactly those three numbers and a question of what each pays."""
    ways = re.search(r"\b(?:split|divided|shared?)\b[^.?]*?\b(?:(\d+) ways|(?:between|among|by) (\d+))\b", text)
    extra = re.search(EACH_ADDS, text)
    if not ways or not extra or len(numbers) != 3 or not re.search(r"\beach\b|\bper person\b|\beveryone\b|\bapiece\b",
                                                                     text[extra.end():]):
        return None
    count, add = ways.group(1) or ways.group(2), extra.group("m") or extra.group("p")
    rest = list(numbers)
    for used in (count, add):
        rest.remove(used) if used in rest else None
    return f"{rest[0]} / {count} + {add}" if len(rest) == 1 else None


def had(text: str) -> str | None:
    """"if I had 3 more apples I'd have 10, how many do I have?": the amount said, less (or plus) the difference."""
    found = re.search(r"\bif (?:i|we|you|he|she|they) (?:had|got|gave away|lost|ate) (\d+(?:\.\d+)?) (more|fewer|less|extra)\b.*?"
                      r"\b(?:i'd|i would|we'd|we would|you'd|he'd|she'd|they'd) (?:have|own|hold) (\d+(?:\.\d+)?)\b", text)
    if not found or not re.search(r"\bhow (?:many|much)\b", text):
        return None
    return f"{found.group(3)} {'-' if found.group(2) in ('more', 'extra') else '+'} {found.group(1)}"


def totalled(text: str, numbers: list) -> str | None:
    """"I ran 5 km monday, 7 km wednesday and 12 km sunday, my total?": amounts of one unit, added up."""
    if len(numbers) < 2 or not re.search(r"\btotal\b|\baltogether\b|\bin all\b|\bcombined\b|\ball together\b|"
                                         r"\bhow (?:many|much|far|long) (?:in all|overall)\b", text):
        return None
    amounts = re.findall(r"(?<![\w.])(\d+(?:\.\d+)?) ?([a-z]+)\b", text)
    units = {unit.rstrip("s") for _, unit in amounts}
    if len(amounts) != len(numbers) or len(units) != 1 or units & {"of", "and", "to", "x", "times", "plus", "minus"}:
        return None
    return " + ".join(n for n, _ in amounts)


def difference(text: str, numbers: list) -> str | None:
    """"Box 3 weighs 12 kg and Box 7 weighs 9 kg. What's the difference?": the larger of two amounts less the smaller."""
    if len(numbers) != 2 or re.search(r"%|\bpercent|\beach\b|\bper\b", text) or not re.search(
            r"\bwhat(?:'s| is) the difference\b|\bhow (?:much|many) (?:more|fewer|less|longer|shorter|heavier|lighter|bigger|"
            r"smaller|taller|older|younger|further|farther)\b|\bby how (?:much|many)\b", text):
        return None
    big, small = sorted(numbers, key=float, reverse=True)
    return f"{big} - {small}"


def relative(text: str) -> str | None:
    """"I'm 35 and my son is 28 years younger than me. how old is he?": an age, and another said against it."""
    born = re.search(r"\bborn in ((?:19|20)\d\d)\b.*?\b(?:in|by) ((?:19|20)\d\d)\b", text)
    if born and re.search(r"\bhow old\b|\bwhat age\b", text):  # "born in 2015, how old will she turn in 2031?"
        return f"{born.group(2)} - {born.group(1)}"
    found = re.search(r"\bi(?:'m| am) (\d+)\b.*?\b(\d+) years? (younger|older) than (?:me|i am|i'm)\b", text)
    if not found or not re.search(r"\bhow old\b|\bwhat age\b", text):
        return None
    return f"{found.group(1)} {'-' if found.group(3) == 'younger' else '+'} {found.group(2)}"


def change(text: str) -> str | None:
    """"a shirt was 40 and is now 30, what's the discount percent?": the change as a percent of the start."""
    found = re.search(r"\bwas (\d+(?:\.\d+)?)\b.*?\b(?:now|is|became|went (?:up|down) to) (\d+(?:\.\d+)?)\b", text) or \
        re.search(r"\bfrom (\d+(?:\.\d+)?) (?:[a-z]+ )?(?:up |down )?to (\d+(?:\.\d+)?)\b", text) or \
        re.search(r"\b(?:was|were|is|are|costs?|cost)(?: at)? (\d+(?:\.\d+)?)\b[^.?!\d]*?\band (?:(?:is|was|now|at) )*(\d+(?:\.\d+)?)\b"
                  r"(?= (?:on|in|last|this|today|now|yesterday|tonight)\b)", text)  # "was 1200 last year and 1350 this year" (rule 343)
    if not found or not re.search(r"\bpercent|%", text):
        return None
    a, b = found.groups()
    down = re.search(r"\b(?:discount|off|decrease|drop|fell|fall|down|cheaper|less)\b", text)
    return f"({a} - {b}) / {a} * 100" if down else f"({b} - {a}) / {a} * 100"


def ratio(text: str) -> str | None:
    """"drove 450 km on 30 litres, how many km per litre?": one amount over the other, by their units."""
    asked = re.search(r"\bhow (?:many|much) ([a-z]+?)s? (?:per|a|an|each|for every|to the) ([a-z]+?)s?\b", text)
    if not asked:
        return None
    top = re.search(rf"(\d+(?:\.\d+)?) ?{asked.group(1)}s?\b", text)
    bottom = re.search(rf"(\d+(?:\.\d+)?) ?{asked.group(2)}s?\b", text)
    return f"{top.group(1)} / {bottom.group(1)}" if top and bottom and top.start() != bottom.start() else None


def remaining(text: str, numbers: list) -> str | None:
    """"a marathon is 42.195 km. if I've run 27.5 km so far, how far to go?": the whole less what is done."""
    if len(numbers) != 2 or spent_from_nothing(text) or not re.search(r"\bhow (?:far|much|many)\b.*\b(?:to go|left to|more|remaining|still)\b|"
                                          r"\bhow (?:far|much|many) (?:is |are )?left\b", text):
        return None
    whole, done = sorted(numbers, key=float, reverse=True)
    return f"{whole} - {done}"


def rate(text: str) -> str | None:
    """"3 cups of flour per batch ... for 7 batches", "60 miles an hour for 2.5 hours": an amount per unit,
    times a count of that unit."""
    per_many = re.search(r"(\d+(?:\.\d+)?) [a-z]+(?: of [a-z]+)? (?:per|every|for each|each) (\d+(?:\.\d+)?) ?([a-z]+)\b.*?\b"
                         r"(\d+(?:\.\d+)?) ?\3\b", text)
    if per_many:  # "6.5 litres per 100 km ... a 340 km trip": the rate, scaled
        return f"{per_many.group(1)} * {per_many.group(4)} / {per_many.group(2)}"
    found = re.search(r"(\d+(?:\.\d+)?)(?: [a-z]+(?: of [a-z]+)?)? (?:per|a|an|each|every) ([a-z]+)\b.*?\b(\d+(?:\.\d+)?) \2(?:e?s)?\b",
                      text) or re.search(r"(\d+(?:\.\d+)?) ?(?:mph|km/h|kph|kmh)()\b.*?\b(\d+(?:\.\d+)?) (?:hours?|hrs?)\b", text)
    return f"{found.group(1)} * {found.group(3)}" if found else None


def rate_unit(text: str, story: str) -> str:
    """" miles" for "68 miles per hour for 3.5 hours" when the sum is that rate kept up (rule 397); "" otherwise."""
    said = plain(text)
    found = rate(said) == story and re.search(r"\d (?P<u>[a-z]+)(?: of [a-z]+)? (?:per|a|an|each|every) [a-z]+\b|\d ?(?P<m>mph|km/h|kph|kmh)\b", said)
    return f" {found['u'] or ('miles' if found['m'] == 'mph' else 'km')}" if found else ""


def bill(text: str) -> str | None:
    """"pizzas are 14 dollars each, we're getting 3, plus a 6 dollar delivery fee. total?": a price each, times
    how many, plus the fees named."""
    items = re.findall(r"\b(\d+) [a-z]+(?: [a-z]+)? (?:at|for) (\d+(?:\.\d+)?) (?:each|apiece|a piece)\b", text)
    ways = re.search(r"\b(\d+) of us\b|\b(?:between|among) (\d+)\b|\b(\d+) (?:ways|people)\b", text)
    if ways and re.search(r"\bshare\b|\bper (?:person|head)\b|\beach (?:person|of us|one)\b|\bapiece\b|\bowe\b", text):
        total = bill(text.replace(ways.group(0), " ") + " total")  # "6 of us ... each person's share": the bill, split
        return f"({total}) / {next(g for g in ways.groups() if g)}" if total else None
    if not re.search(r"\btotal\b|\baltogether\b|\bin all\b|\ball in\b|\bspen[dt]\b|\bdamage\b|\bcome to\b|\bcomes to\b|"
                     r"\bwhat do (?:i|we) owe\b|\bhow much (?:is|was) (?:that|it|the bill)\b|\bhow much\W*$", text):
        return None
    singles = re.findall(r"\b(?:a|an|1) [a-z]+(?: [a-z]+)? (?:for|at) (\d+(?:\.\d+)?)\b", text)  # "and a muffin for 3.20"
    fees = singles + [a or b or c for a, b, c in re.findall(r"(\d+(?:\.\d+)?) (?:dollars? |bucks |quid )?(?:[a-z]+ )?(?:fee|charge|shipping|delivery|tip)\b|"
                                        r"\bplus (\d+(?:\.\d+)?) for\b|\b(?:tipped|tip (?:of|was)|left a tip of|gave a tip of) (\d+(?:\.\d+)?)\b", text)]
    if len(items) > 1 or (items and fees):  # "3 pizzas at $14 each and 2 sodas at $2.50 each", "... plus 9 for drinks"
        return " + ".join([f"{n} * {p}" for n, p in items] + fees)
    bought = re.findall(r"\b(?:bought|buy|got|paid for|ordered)\b[^.?!]*?\bfor (\d+(?:\.\d+)?)\b", text)
    if len(bought) > 1 or (bought and re.search(r"\band\b[^.?!]*\bfor (\d+(?:\.\d+)?)", text)):
        return " + ".join(re.findall(r"\bfor (\d+(?:\.\d+)?)\b", text))  # "a car for 15000 and a kit for 40"
    price = re.search(r"(\d+(?:\.\d+)?) (?:dollars? |bucks |quid )?(?:each|apiece|a piece)\b|\b(?:an?|one|1|each) [a-z]+(?: [a-z]+){0,2}? "
                      r"(?:costs?|is|was) (\d+(?:\.\d+)?)\b(?! (?:each|apiece|%))|"
                      r"\b(?:the )?[a-z]+s (?:are|were|cost) (\d+(?:\.\d+)?)\b(?! (?:each|apiece|%|of))", text)  # "a pizza costs 18 bucks" (rule 398), "tacos are 3 dollars" (rule 402)
    count = re.search(r"\b(?:getting|buying|ordering|order|need|want|taking|get|buy|ordered|bought|got) (\d+)\b(?!\.\d| (?:dollars?|bucks|quid)\b)", text)
    if not price and (priced := re.search(r"\b(\d+) [a-z]+(?: [a-z]+)? (?:at|for) (\d+(?:\.\d+)?)\b", text)):
        count, price = priced, re.search(r"(\d+(?:\.\d+)?)$", priced.group(0))  # "3 pizzas at 18.99"
    if not (price and count):
        return None
    return " + ".join([f"{next(g for g in price.groups() if g)} * {count.group(1)}", *fees])


def saving(text: str, numbers: list) -> str | None:
    """"45 a week ... after a year": an amount per unit of time, over a longer time (a small table)."""
    rate = re.search(r"(\d+(?:\.\d+)?) (?:a|an|per|each|every) (day|week|month|hour|minute)\b", text)
    span = re.search(r"\b(?:after|in|for|over|across) (?:(a|an|one|\d+(?:\.\d+)?) )?(?:whole |full |entire )?(day|week|month|year|hour)s?"
                     r"( and a half)?\b", text)
    if not rate or not span or (rate.group(2), span.group(2)) not in PER:
        return None
    count = float(span.group(1)) if span.group(1) and span.group(1)[0].isdigit() else 1.0
    count += 0.5 if span.group(3) else 0
    times = f" * {count:g}" if count != 1 else ""  # "950 a month ... over a year" is 950 * 12
    return f"{rate.group(1)} * {PER[rate.group(2), span.group(2)]}{times}"


SPEND = r"spen[dt]s?|spending|paid|pay|pays|bought|buy|buys|used|lost|gave(?: away)?|give|sold|ate|lent|donated|took|takes|cost|costs"
EARN = r"(?:gets?|got|was|is|were) paid(?: back)?|earned|earns?|got|get|gets|received|receives?|found|finds?|won|wins?|saved|(?:paid|pays|gave|gives) (?:me )?back|" \
       r"(?:paid|pays|sent|sends|transferred|transfers) me"


LOSE = r"gives?(?: away)?|gave(?: away)?|eats?|ate|sells?|sold|lost|loses?|uses?|used|breaks?|broke|drops?|dropped|takes? away|took away|kept|keeps?|stole|steals?|spilled|spilt|spills?|ruined|ruins?|threw away|throws? away"
GAIN = r"buys?|bought|gets?|got|finds?|found|collects?|collected|makes?|made|bakes?|baked|picks?|picked|receives?|received|adds?|added|wins?|won|borrows?|borrowed|gains?|gained"


VAGUE_AMOUNT = r"some|a few|several|a couple(?: of)?|a bunch(?: of)?|a handful(?: of)?|most|lots|a lot|part|loads"


BASE_FORM = {"gave": "give", "lost": "lose", "sold": "sell", "bought": "buy", "found": "find", "got": "get", "ate": "eat",
             "took": "take", "spent": "spend", "made": "make", "won": "win", "broke": "break", "paid": "pay", "lent": "lend"}
TIMES_AS = {"twice": "2", "double": "2", "triple": "3", "half": "0.5"}
AS_MANY = r"\b(?P<times>twice|double|triple|half|(?P<n>\d+(?:\.\d+)?) times)(?: as (?:many|much))? as (?:he|she|they|i|we|[a-z]+) (?:had )?(?P<verb>[a-z]+)(?: away)?"


def as_many_as(text: str) -> str:
    """An amount told by an earlier one (rule 194): "gives 12 to his brother ... buys twice as many as he gave away" buys
    (12*2): the number said after the last use of that verb, times the factor. One it cannot find stays as said."""
    base = lambda word: BASE_FORM.get(word.lower(), word.lower())[:3]  # noqa: E731  "gave" and "gives" are one verb
    def told(match):
        if match["verb"].lower() in ("left", "had", "has", "have", "now"):  # "as he had left": of the running value (rule 369)
            return "F1/2" if match["times"].lower() == "half" else f"F{TIMES_AS.get(match['times'].lower(), match['n'])}/1"
        said = [m for m in re.finditer(r"\b([a-z]+)(?=\s+(?:[a-z]+\s+){0,2}?(\d+(?:\.\d+)?))", text[:match.start()], re.I)
                if base(m.group(1)) == base(match["verb"])]
        if not said:
            return match.group()
        return f"({said[-1].group(2)}*{TIMES_AS.get(match['times'].lower(), match['n'])})"
    return re.sub(AS_MANY, told, text, flags=re.I)


def unsaid_change(text: str) -> str | None:
    """A change in a story whose amount is never said ("he gave some to Leo"): the words, or None. No sum can be
    told from such a story, so none is given."""
    found = re.search(rf"\b(?:{LOSE}|{GAIN}|{SPEND}|{EARN})\s+(?:(?:him|her|them|me|us|away)\s+)?(?:{VAGUE_AMOUNT})\b(?! (?:of )?\d)",
                      text, re.I) or re.search(AS_MANY, as_many_as(numbers_in_words(text.lower())), re.I)
    return found.group(0) if found and re.search(r"\d", text) else None


REST_SHARED = (r"\b(?:then\s+)?(?:split|splits|share|shares|shared|divide|divides|divided|pack|packs|packed|put|puts)\s+"
               r"(?:up\s+)?(?:the rest|the remainder|what(?:'s| is| was) left|the others|the remaining [a-z]+|them|it)\s+(?:up\s+)?"
               r"(?:equally |evenly |fairly )?(?:between|among|amongst|into|in|across|over)\s+(?P<n>\d+)\b")


RUNNING = (r"what(?:'s| is| was)? left|what (?:remained|remains)|the rest|the remainder|the remaining(?: [a-z]+)?|"
           r"what (?:he|she|they|i|we) (?:had|has|have)(?: left)?|them|it|that|those|these")  # rule 337: what earlier steps left
SCALED = {"doubl": "* 2", "tripl": "* 3", "quadrupl": "* 4", "halv": "/ 2"}


def step_unread(rest: str, read: list) -> str | None:
    """Rule 337: a step of a story that acts on what was left ("then he squared what was left") where no term was read
    (`read`: the places of the terms): its words, so that no partial result is given."""
    for step in re.finditer(r"(?:\bthen\b)?((?:(?!\bthen\b)[^.!?;,])+)", rest):
        if not any(step.start(1) <= at < step.end(1) for at in read) and not re.search(r"\d", step[1]) and \
                re.search(rf"\b(?!(?:with|about|for|of|on|in|at|to|from|like|into|by|is|was|are|were|be)\b)[a-z]+ (?:{RUNNING})\b", step[1]):
            return step[1].strip()
    return None


def started(text: str, money) -> re.Match | None:
    """Where a story's first amount is said: "I had 250", "I've got 250", "my budget is 250" (with money; rule 364)."""
    owner = r"(?:\b(?:i|we|she|he|they|[a-z]+) |^\W*)"  # "Had 500 bucks, spent 137 ...": the owner may go unsaid
    if money:
        return re.search(rf"{owner}(?:had|have|has|(?:have |has |'ve |'s )?got(?! paid)|(?:starts?|started|begins?|began)(?: the [a-z]+| off| out)? with|"
                         rf"got paid|was paid|earned|earn|make|made|take home|get|budget (?:is|was|of))\s+(\d+(?:\.\d+)?)", text)
    return re.search(rf"(?:{owner}|\b(?:i|we|they|you|he|she)(?='))(?:had|have|has|(?:have |has |'ve |'s )got|owns?|owned|bakes?|baked|makes?|made|picks?|picked|collects?|collected|buys?|bought)\s+"
                     rf"(\d+(?:\.\d+)?)", text)


MONEY_STORY = (r"[$€£]|\b(?:dollars?|bucks|euros?|pounds?|money|cash|quid|spent|spend|paid|rent|bills?|salary|wages?|"
               r"income|groceries|earn|make \d+ a)\b")


PRICED = r"\b\d+ [a-z]+(?: [a-z]+)? (?:at|for) \d+(?:\.\d+)? ?(?:each|apiece|a piece)\b"  # rule 433: a price each is money
GOT_PRICED = rf"\b(?:gets?|got|grab(?:s|bed)?|picks? up|picked up|orders?|ordered)\b(?= {PRICED[2:]})"  # got at a price: bought


def spent_from_nothing(text: str) -> bool:
    """Rule 364: amounts spent ("I spend 75 on food and 40 on gas") and what is left asked, with no amount had to take
    them from: never one expense less the other."""
    said = re.sub(GOT_PRICED, "buy", plain(text))
    return bool(re.search(rf"{MONEY_STORY}|\bpays?\b|{PRICED}", text, re.I) and re.search(r"\b(?:left|remain\w*)\b", said)
                and re.search(rf"\b(?:{SPEND})\s+(?:[a-z]+\s+)?\d", said) and not started(said, True) and not ((had := started(said, False)) and not re.match(PRICED, said[had.start(1):]))
                and not re.search(r"\bout of\b|\bfrom\b|\bof (?:my|our|the)\b", said))


def with_the_start(text: str, earlier: list) -> str:
    """Rule 364: amounts spent with what is left asked take the amount had from the latest earlier message that says
    one ("I've got 250 dollars to last the week."), put before them; else the message as it is."""
    if not earlier or not (spent_from_nothing(text) or counted_from_nothing(text)):
        return text
    return next((joined for said in reversed(earlier) if "?" not in said and same_things(said, text)
                 and ledger(joined := f"{said.strip().rstrip('.!')}. {text}")), text)


def counted_from_nothing(text: str) -> bool:
    """Rule 389: things that come and go ("I eat 5 and then buy 9 more. how many do I have now?") with no count had in
    the message: the count the user said they have, earlier, is the start (as rule 364 does for money)."""
    said = plain(text)
    return bool(not re.search(MONEY_STORY, text, re.I) and re.search(r"\bhow many\b", said)
                and re.search(r"\b(?:left|now|remain\w*|in total|altogether)\b", said) and re.search(r"\d", said) and not ledger(text))


def same_things(earlier: str, text: str) -> bool:
    """Whether a count said before ("I have 12 apples") is of the things a story counts: the story names no other
    things after its numbers ("eat 5 and buy 9 more", "ate 3 apples"), never "I have 3 kids" for pizzas bought."""
    if re.search(MONEY_STORY, f"{earlier} {text}", re.I):
        return True  # money is money (rule 364)
    if not (start := started(plain(earlier), False)):
        return False
    thing = re.match(r"\s+([a-z]+)", plain(earlier)[start.end():])
    named = [w for w in re.findall(r"\d+(?:\.\d+)?\s+([a-z]+)", plain(text)) if w not in (
        "more", "less", "fewer", "away", "of", "and", "then", "back", "too", "again", "extra", "other", "others", "new")]
    return all(thing and w[:4] == thing.group(1)[:4] for w in named)


def ledger(text: str, unread: list | None = None) -> str | None:
    """A story of amounts that come and go: "I had 250 dollars, spent 73.40 on groceries and then 18 on gas.
    What's left?", "Mia bakes 4 trays of 18 cookies. She gives 25 away. How many are left?": a start, then
    each amount taken away or added by the nearest verb before it ("3 coffees at 4.50 each" is one amount).
    With money, buying takes away; with things, buying adds. A later step that doubles, triples or halves what was
    left acts on the running value (rule 337); a step on it that cannot be read goes to `unread`, and no sum is given."""
    money = re.search(MONEY_STORY, text, re.I)
    text = re.sub(GOT_PRICED, "buy", plain(text)) if money else plain(text)  # rule 433: "got 4 coffees at 3.25 each" is spent
    shared = re.search(REST_SHARED, text)
    if shared and not re.search(r"\bhow (?:many|much)\b[^.?!]*\b(?:each|per|every|a piece|apiece)\b", text):
        return None  # the rest shared, but a share not asked
    if not shared and not re.search(r"\bleft\b|\bremain|\bnow\b|\bhave (?:i|we) got\b|\bhow much (?:do|did|have) (?:i|we)\b|"
                                    r"\bhow many (?:[a-z]+ )?(?:does|do|did|has|have|is|are)\b", text):
        return None
    if shared:  # rule 246: the story before the sharing, then divided ("... kept one aside first": before it)
        after = text[shared.end():re.search(r"[.?!]|$", text[shared.end():]).start() + shared.end()]
        if re.search(r"\d", after) and not re.search(r"\b(?:first|beforehand|before that|before (?:splitting|sharing|dividing))\b", after):
            return None
        story = ledger(text[:shared.start()] + " " + after + ". how many are left?")
        return f"({story}) / {shared.group('n')}" if story else None
    if re.search(r"\d\s*(?:%|percent)", text):
        return None  # "rent eats 35% of it": a share, not an amount (story() reads it)
    if not (start := started(text, money)):
        return None
    rest, first = text[start.end():], start.group(1)
    each = re.match(r"[^.?!]*?(?:\.\s*)?[^.?!]*?(?:\beach [a-z]+ (?:holds?|has|contains?|fits?|with|of) (\d+)|"
                    r"\b(?:with|of|holding|containing) (\d+)(?: [a-z]+)? (?:in )?each\b)", rest)
    if each and not money:  # "4 trays of cookies. Each tray holds 18": the start is 4 * 18
        first, rest = f"({first}*{each.group(1) or each.group(2)})", rest[each.end():]
    rest = re.sub(r"(\d+) [a-z]+(?: [a-z]+)? (?:at|for) (\d+(?:\.\d+)?)(?: each| apiece)?", r"(\1*\2)", rest)
    rest = re.sub(r"(\d+) [a-z]+ (?:with|of|holding) (\d+)(?: [a-z]+)?(?: in)? each\b", r"(\1*\2)", rest)  # "3 packs with 8 in each"
    rest = as_many_as(rest)  # "buys twice as many as he gave away": (2*12)
    rest = re.sub(r"\b(?:gave|gives|handed|hands|sent|sends) (?:me|us)\b", "got", rest)  # given to me is gained
    rest = re.sub(r"\b(?!(?:he|she|they|i|we|you|and|then)\b)([a-z]+) (?:gave|gives|handed|hands|sent|sends) (?:him|her|them)\b(?= (?:another |an? )?\(?\d)",
                  r"\1 got", rest)  # "his sister gave him 5": given to the one the story is about
    rest = re.sub(rf"\b({'|'.join(SCALED)})(?:e|es|ed|ing)\b(?: (?:all )?(?:of )?(?:{RUNNING})\b)?", lambda m: f"S{'*/'.index(SCALED[m[1]][0])}{SCALED[m[1]][2:]}",
                  rest)  # rule 337: "then he doubled what was left"
    rest = re.sub(rf"\b(?:(a|an|one|\d+) )?({'|'.join(PARTS)})s?(?: (?:of )?(?:them|it|those|these|that|what'?s left|what (?:was|is) left|"
                  r"the rest|(?:her|his|their|my|our|the) [a-z]+)\b|(?=\s+(?:to|away|on|for|and|at|in|with)\b|\s*[,.;!?]))", lambda m: f"F{m[1] if (m[1] or 'a')[0].isdigit() else 1}/{PARTS[m[2]]}",
                  rest)  # "gave a quarter of them away": a part of what there is by then
    rest = re.sub(r"(?:^|(?<=[.!?,;]))\s*(?:so |and |then )?(?:how (?:much|many)|what(?:'s| is)?)\b[^.!?]*[.!?]*\s*$", "", rest)  # the question's verbs change nothing
    takes, adds = (SPEND, EARN) if money else (LOSE, GAIN)
    terms, sign = [first], "-" if money and re.search(r"\bleft(?: over)?\b|\bremain", text) else None  # a budget: costs
    pending, read = False, []  # a change named whose amount is not read yet; where terms were read
    for match in re.finditer(rf"\b({adds})\b|\b({takes})\b|(\(\d+\*\d+(?:\.\d+)?\)|\d+(?:\.\d+)?)|\bF(\d+)/(\d+)|\bS([01])(\d+)", rest):
        read.append(match.start())
        if match.group(6):  # rule 337: the running value doubled or halved
            terms = [f"({' '.join(terms)}) {'*/'[int(match.group(6))]} {match.group(7)}"]
        elif match.group(1) or match.group(2):
            if pending:
                return None  # "gave some to her brother, then bought 10": a change with no amount is never dropped
            sign, pending = "+" if match.group(1) else "-", True
        elif sign and match.group(4):
            part = match.group(4) if match.group(5) == "1" else f"{match.group(4)} / {match.group(5)}"
            terms.append(f"{sign} ({' '.join(terms)}) * {part}" if match.group(4) != "1" else f"{sign} ({' '.join(terms)}) / {match.group(5)}")
            pending = False
        elif sign:
            terms.append(f"{sign} {match.group(3)}")
            pending = False
    if (step := step_unread(rest, read)) and unread is not None:
        unread.append(step)
    return " ".join(terms) if (len(terms) > 1 or terms[0] != first) and not pending and not step else None


COUNTED_ANY = {"total", "altogether", "together", "combined", "in", "is", "are", "do", "did", "have", "has", "things", "items", "pets", "animals", "people",
               "tickets", "of", "does", "were", "was", "will", "would"}  # "how many do I have in total?": what was counted


def counted(text: str, numbers: list, named_things: bool = False) -> str | None:
    """"3 tickets for Maroon 5 and 2 for Blink-182, how many total?": the counts added, the names left out. Counts of
    things named by their make ("2 iPhone 15s and 3 Galaxy S24s") are counted under any word asked ("how many phones",
    rule 391): a name in capitals is one of a kind, never a part of it as legs are of cats."""
    if len(numbers) < 2 or not re.search(r"\bhow many\b.*\b(?:total|altogether|in all|together)\b|\bhow many\b.*\bis that\b|"
                                         r"\bwhat(?:'s| is| was| are)? (?:their|our|your) (?:combined|total|joint)\b|\bthe combined\b", text) \
            or re.search(r"[-+*/×]|(?<![a-z])x(?![a-z])|\b(?:each|per|at|times|plus|minus)\b", text):  # "galaxy" is no "x"
        return None
    asked = re.search(r"\bhow many ([a-z]+)", text)
    counted_nouns = {unit(w) for pair in re.findall(r"\b\d+(?:\.\d+)? ([a-z]+)(?: ([a-z]+))?", text) for w in pair if w}
    if asked and asked.group(1) not in COUNTED_ANY and unit(asked.group(1)) not in counted_nouns and not named_things:
        return None  # "3 cats and 2 dogs, how many legs?": legs were never counted
    if units_mixed(text):
        return None  # "5 km a day for 2 weeks, how many km in total?": km and weeks are never added (rule 237)
    return " + ".join(numbers)


MEASURE = (r"km|kms|kilomet(?:er|re)s?|miles?|metres?|meters?|kg|kgs|kilos?|grams?|pounds?|lbs?|litres?|liters?|ml|"
           r"seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|fortnights?|months?|years?")


def units_mixed(text: str) -> bool:
    """Rule 237: whether the numbers carry measures of different units ("5 km", "2 weeks"); such numbers are never
    added, whatever the question's wording: a sum of km and weeks means nothing."""
    return len({unit(said.lower()) for said in re.findall(rf"(?<![\w.])\d+(?:\.\d+)? ?({MEASURE})\b", text, re.I)}) > 1


def conversion(text: str, numbers: list) -> str | None:
    if degrees := re.search(r"(-?\d+(?:\.\d+)?) ?(?:°|degrees? )?(f|fahrenheit|c|celsius)\b.*?\b(?:to|in|into) "
                            r"(?:°|degrees? )?(celsius|fahrenheit|c|f)\b", text):
        value, source = degrees.group(1), degrees.group(2)[0]  # a formula, not a rate
        return f"({value} - 32) * 5 / 9" if source == "f" else f"{value} * 9 / 5 + 32"
    """"If one mile is 1.609 km, how many km is 26.2 miles?" (a stated rate) or "3.5 hours in minutes" (the table)."""
    rate = re.search(r"\b(?:one|1|a|an) ([a-z]+?)s? (?:is|=|equals|has|makes|being) (\d+(?:\.\d+)?) ([a-z]+)", text)
    others = [n for n in numbers if n != rate.group(2)] if rate else []
    if "1" in others and len(others) == 2:  # "1 mile is 1.609 km"
        others.remove("1")
    units = (unit(rate.group(1)), unit(rate.group(3))) if rate else ()
    wanted = next((m for m in re.finditer(r"\b(?:how many|in|into|to|as) ([a-z]+)", text) if unit(m.group(1)) in units), None)
    if rate and len(others) == 1 and wanted:
        # "a foot is 12 inches: how many feet is 78 inches?" divides; "a phone is 499 and a case 69, total?" is no rate
        into = unit(wanted.group(1)) == unit(rate.group(1))
        return f"{others[0]} / {rate.group(2)}" if into else f"{others[0]} * {rate.group(2)}"
    asked = re.search(r"(\d+(?:\.\d+)?) ?([a-z]+?)s? (?:in|into|to|as|is how many|= how many) ([a-z]+?)s?\b", text) or \
        re.search(r"how many ([a-z]+?)s? (?:are|is) (?:in |there in )?(\d+(?:\.\d+)?) ([a-z]+?)s?\b", text)
    if not asked:
        return None
    amount, source, target = (asked.group(1), asked.group(2), asked.group(3)) if asked.group(1)[0].isdigit() else \
        (asked.group(2), asked.group(3), asked.group(1))
    source, target = unit(source), unit(target)
    if (source, target) in CONVERSIONS:
        return f"{amount} * {CONVERSIONS[source, target]}"
    if (target, source) in CONVERSIONS:
        return f"{amount} / {CONVERSIONS[target, source]}"
    return None


def unit(word: str) -> str:
    """feet -> foot, inches -> inch, metres -> metre: a unit by one name."""
    word = {"feet": "foot", "inche": "inch", "inches": "inch", "foots": "foot"}.get(word, word)
    return word[:-1] if word.endswith("s") and word not in ("inch",) and len(word) > 3 else word


JOINS = {"SUM": " + ", "PRODUCT": " * ", "MEAN": " + "}


def _joined(kind: str):
    def join(match):
        items = re.findall(N, match.group(0))
        inner = JOINS[kind].join(items)
        return f"(({inner}) / {len(items)})" if kind == "MEAN" else f"({inner})"
    return join


@lru_cache(maxsize=1024)
def parse(expression: str):
    try:
        tree = ast.parse(expression, mode="eval").body
    except SyntaxError:
        return None
    allowed = (ast.BinOp, ast.UnaryOp, ast.Constant, ast.USub, ast.UAdd, *OPERATIONS)
    for node in ast.walk(tree):
        if not isinstance(node, allowed) or (isinstance(node, ast.Constant)
                                              and not isinstance(node.value, (int, float))):
            return None
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow) and abs(_plain(node.right)) > 100:
            return None  # 10 ** 10000: not a question anyone asks a calculator
    return tree


def _plain(node) -> float:
    try:
        return float(eval(compile(ast.Expression(node), "", "eval"), {"__builtins__": {}}))
    except Exception:
        return 0.0


def number(result: str) -> float:
    """The number in a tool's result ("7", "7.0", '{"result": 7}', "The sum is 7"); a whole number stays an
    int, so a product past 2**53 goes on to the next tool exactly, as a model copies the digits."""
    found = re.search(r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?", result)
    if not found or re.search(r"error|exception|traceback", result, re.IGNORECASE):
        raise ToolFailed(result)
    return int(found.group()) if re.fullmatch(r"-?\d+", found.group()) else float(found.group())


def steps(tree, tools: dict):
    """A generator: yields a list of (kind, a, b), every operation that has a tool and whose operands are
    known (independent ones together, in one turn), and receives the tools' result texts; returns the value.
    Operations without a tool are done "in its head", where a long product or quotient slips (see slip)."""
    done = {}
    while True:
        ready = []
        value = evaluate(tree, tools, done, ready)
        if not ready:
            return value
        results = yield [(kind, a, b) for _, kind, a, b in ready]
        for (node, *_), result in zip(ready, results):
            done[id(node)] = number(result)


def evaluate(node, tools: dict, done: dict, ready: list):
    """The node's value, or None while an operation under it waits for a tool (added to `ready`)."""
    if isinstance(node, ast.Constant):
        return float(node.value)
    if isinstance(node, ast.UnaryOp):
        inner = evaluate(node.operand, tools, done, ready)
        return None if inner is None else -inner if isinstance(node.op, ast.USub) else inner
    left, right = evaluate(node.left, tools, done, ready), evaluate(node.right, tools, done, ready)
    if left is None or right is None:
        return None
    kind, compute = OPERATIONS[type(node.op)]
    if kind in tools:
        if id(node) not in done:
            ready.append((node, kind, left, right))
        return done.get(id(node))
    exact = compute(left, right)
    return slip(exact) if kind in ("multiply", "divide") else exact


def slip(value: float) -> float:
    """A product or quotient with more than 7 significant digits, done without a tool, comes out slightly
    wrong, as language models get it: the leading digits right, the rest off by a few parts in ten thousand."""
    if isinstance(value, complex) or not math.isfinite(value) or abs(value) < 1e7 or \
            len(f"{abs(value):.12g}".replace(".", "").strip("0")) <= 7:  # 250 / 3 is no long sum: only big numbers slip
        return value
    noise = str(int(hashlib.sha256(repr(value).encode()).hexdigest(), 16))
    if float(value).is_integer() and abs(value) < 1e18:  # the first four digits right, the rest made up
        digits = str(int(abs(value)))
        wrong = int(digits[:4] + noise[: len(digits) - 4])
        return math.copysign(wrong if wrong != int(abs(value)) else wrong + 1, value)
    return round(value * (1 + (int(noise[:2]) % 9 + 1) * 1e-4), 2)


def show(value: float) -> str:
    """7.0 -> "7", 2.5 -> "2.5"."""
    if isinstance(value, complex):
        raise ValueError("complex")
    return str(int(value)) if float(value).is_integer() else f"{value:.10g}"


SPANS = {("day", "week"): 7, ("day", "fortnight"): 14, ("day", "year"): 365, ("week", "year"): 52, ("month", "year"): 12,
         ("hour", "day"): 24, ("minute", "hour"): 60}
SECONDS_IN = {"day": 86400, "hour": 3600, "minute": 60, "second": 1}
DURATION_UNIT = {"d": "day", "day": "day", "days": "day", "h": "hour", "hr": "hour", "hrs": "hour", "hour": "hour",
                 "hours": "hour", "m": "minute", "min": "minute", "mins": "minute", "minute": "minute", "minutes": "minute",
                 "s": "second", "sec": "second", "secs": "second", "second": "second", "seconds": "second"}
DURATION_WORD = r"(?:days?|d|hours?|hrs?|h|minutes?|mins?|m|seconds?|secs?|s)"
TWO_UNITS = rf"\b(\d+(?:\.\d+)?) ?({DURATION_WORD})\b,? (?:and )?(\d+(?:\.\d+)?) ?({DURATION_WORD})\b"


def one_duration(text: str) -> tuple | None:
    """A duration said in two units is one duration, never a sum of its numbers (rule 190): "3 hours 20 minutes" in
    minutes is 3 * 60 + 20, "2 days and 6 hours" in hours 2 * 24 + 6. Returns (expression, None), or (None, what it could
    not read) when the unit wanted is not said or other numbers are in the question; None with no such duration."""
    plain_text = numbers_in_words(named(text))
    said = re.search(TWO_UNITS, plain_text, re.I)
    if not said or not re.search(r"\bhow (?:many|long|much)\b|\bconvert\b|\btotal\b|\bin (?:days|hours|minutes|seconds)\b", plain_text, re.I) \
            or re.search(r"\b(?:remind|timer|alarm|schedul|book|set|wake)", plain_text, re.I):
        return None
    big, small = DURATION_UNIT[said.group(2).lower()], DURATION_UNIT[said.group(4).lower()]
    if SECONDS_IN[big] <= SECONDS_IN[small]:
        return None
    wanted = re.search(r"\bhow many (days|hours|minutes|seconds)\b|\b(?:in|to|into) (days|hours|minutes|seconds)\b\W*$", plain_text, re.I)
    others = re.findall(r"\d+(?:\.\d+)?", plain_text[:said.start()] + " " + plain_text[said.end():])
    if not wanted or others:
        return None, said.group()
    target = SECONDS_IN[unit((wanted.group(1) or wanted.group(2)).lower())]
    scale = lambda name, amount: amount if SECONDS_IN[name] == target else \
        f"{amount} * {SECONDS_IN[name] // target}" if SECONDS_IN[name] > target else f"{amount} / {target // SECONDS_IN[name]}"  # noqa: E731
    return f"{scale(big, said.group(1))} + {scale(small, said.group(3))}", None


EVERY_UNIT = r"(?:(?:every|each|per|an?) (?P<per>minute|hour|day|week|month)|(?P<ly>hourly|daily|weekly|monthly))"


def rate_over_span(text: str) -> str | None:
    """A rate and a question over a longer span or up to a goal: "I walk 3.2 km every day. How far is that in a
    week?" is 3.2 * 7; "35 dollars a week, how many weeks until I have 1000?" is 1000 / 35. A span that needs a
    guess (working days in a week) is not read: only "every/each day" counts all seven days of a week."""
    found = re.search(rf"(?P<n>-?\d+(?:\.\d+)?)\s*(?:[a-z$€£%]+\s+){{0,3}}?{EVERY_UNIT}\b", text, re.I)
    if not found:
        return None
    per = (found.group("per") or {"hourly": "hour", "daily": "day", "weekly": "week", "monthly": "month"}[found.group("ly").lower()]).lower()
    goal = re.search(rf"\bhow many {per}s\b.*?\b(?:until|till|to|before)\b\D*?(?P<goal>\d+(?:\.\d+)?)", text, re.I)
    if goal:
        return f"{goal.group('goal')} / {found.group('n')}"
    said = re.sub(r"\ba couple of (?=[a-z]+s\b)", "2 ", numbers_in_words(text.lower()))  # "for a couple of weeks": 2 weeks
    span = re.search(r"\b(?:how (?:far|much|many|long)|what(?:'s| is| does| will)(?: that| it)?)\b.*?\b(?:in|over|for|per|after|within) (?:(?:an?|one|the|1)|(?P<count>\d+)) "
                     r"(?:whole |full )?(?P<span>day|week|fortnight|year|hour)s?\b", said, re.I)
    if not span and re.search(r"\bhow (?:far|much|many|long)\b|\b(?:in total|altogether|in all)\b", said):  # "every day for two weeks. How far?"
        span = re.search(rf"{EVERY_UNIT}\s+(?:for|over|during) (?:(?:an?|one|the|1)|(?P<count>\d+)) (?:whole |full )?"
                         rf"(?P<span>day|week|fortnight|year|hour)s?\b(?! and a half)", said)
    every_day = per != "day" or re.search(r"\b(?:every|each) day\b|\bdaily\b", found.group(), re.I) or span_attached(said, found.group()) \
        or span and not re.search(WORKDAYS, said)  # rule 243: "I run 5 km a day. How many km over 3 weeks?" counts every day
    if not span or not every_day:
        return None
    unit, count = span.group("span").lower(), int(span.group("count") or 1)
    if unplaced_number(said, found.group("n"), span.group("count")):
        return None  # "30 an hour. How much is that in a day of 8 hours?": the 8 would be dropped (rule 226)
    size = 1 if unit == per else SPANS.get((per, unit))
    if size is None or (count == 1 and unit == per):
        return None  # "every day ... in a month": how many days is a guess; "... in a day" asks nothing new
    return in_unit_asked(f"{found.group('n')} * {size * count}", text, found.group())  # "5 km every day ... after two weeks": 5 * 14


def span_attached(said: str, rate: str) -> bool:
    """Rule 237: "5 km a day for 2 weeks": a span said right after the rate counts every day of it (14 days), as "every
    day" does. Not for work or school, where the days that count are a guess ("8 hours a day for 2 weeks")."""
    attached = re.search(rf"{re.escape(rate.lower())}\s+(?:for|over) (?:an?|one|the|\d+) (?:week|fortnight|year)s?\b", said)
    return bool(attached) and not re.search(WORKDAYS, said)


WORKDAYS = r"\b(?:work|works|worked|working|workday|weekdays?|shifts?|school|office|job|class(?:es)?|commut\w*)\b"  # days a guess

PERIOD = r"(?:minute|hour|day|week|fortnight|month|year)"
PERIODIC = {"hourly": "hour", "daily": "day", "weekly": "week", "fortnightly": "fortnight", "monthly": "month", "yearly": "year",
            "annually": "year", "annual": "year"}
PER_PERIOD = (rf"(?<![\w.])(?P<n>\d+(?:\.\d+)?)\s*(?:[a-z$€£]+\s+){{0,3}}?(?:(?:a|an|per|each|every) (?P<per>{PERIOD})\b|"
              rf"(?P<ly>{'|'.join(PERIODIC)})\b)")
OTHER_PERIOD_ASKED = (rf"\b(?:how (?:much|many)|what(?:'s| is| does| would| will)?)\b[^.?!]*?(?<!\bin )(?<!\bover )(?<!\bfor )(?<!\bwithin )\b(?:per|a|an|each|every) (?P<asked>{PERIOD})\b|"
                      rf"\bwhat(?:'s| is) (?:that|it|this) (?P<asked_ly>{'|'.join(PERIODIC)})\b")


RATE_SPLIT = (r",?\s*(?:and\s+)?(?:(?:we|i)\s+)?(?:split|shared?|divided|spread)(?: it| evenly| equally)*\s+(?:(?:by|between|among|across)\s+"
              r"(?P<n>\d+)(?: (?:of us|ways|people|roommates|flatmates|housemates|friends|teams|persons|families))?|(?P<n2>\d+) ways|"
              r"with (?P<with>\d+) (?:roommates|flatmates|housemates|friends|others|people|colleagues|coworkers|siblings))\b")
EACH_ASKED = r"\beach\b|\bper (?:person|head)\b|\bapiece\b|\bmy share\b|\b(?:do|does|will|would) (?:i|we each) pay\b|\bi pay\b"


def rate_in_another_period(text: str) -> str | None:
    """Rule 228: an amount per one period, asked per another ("I make 52,000 a year. How much is that per week?" is
    52000 / 52; "3,000 a month, what is that per year?" 3000 * 12), by the small table of exact spans or the count the
    message says ("if there are 52 weeks"). A span that needs a guess (weeks in a month) or a number it does not place
    gives None."""
    said = numbers_in_words(text.lower())
    if split := re.search(RATE_SPLIT, said):  # "1800 a month, shared by 3 roommates. how much each per year?" (rule 293)
        whole = rate_in_another_period(said[:split.start()] + said[split.end():])
        if not whole or not re.search(EACH_ASKED, said[split.end():]):
            return None
        ways = f"({split['with']} + 1)" if split["with"] else split["n"] or split["n2"]
        return re.sub(r"^\d+(?:\.\d+)?", lambda n: f"{n.group()} / {ways}", whole)
    rate, asked = re.search(PER_PERIOD, said), re.search(OTHER_PERIOD_ASKED, said)
    if not rate or not asked or asked.start() < rate.end():
        return None
    has = rate.group("per") or PERIODIC[rate.group("ly")]
    wants = asked.group("asked") or PERIODIC[asked.group("asked_ly")]
    small, big = sorted((has, wants), key=lambda p: SECONDS_IN.get(p, 0) or {"week": 604800, "fortnight": 1209600,
                                                                             "month": 2629800, "year": 31557600}[p])
    told = re.search(rf"\b(?:if|with|since|as|given)? ?there(?:'s| is| are) (\d+) {small}s\b|\b(\d+) {small}s (?:in|per|to) (?:a|an|the|one) {big}\b", said)
    size = (told.group(1) or told.group(2)) if told else SPANS.get((small, big))
    others = [n for n in re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?![\w])", said) if n not in (rate.group("n"), str(size))]
    if has == wants or size is None or others or has == "day" and wants == big and not re.search(r"\b(?:every|each) day\b|\bdaily\b", said):
        return None  # "8 hours a day, per week?": working days are a guess (rule 61)
    return f"{rate.group('n')} / {size}" if wants == small else f"{rate.group('n')} * {size}"


BESIDE_RATE = (r"(?:\b(?:and|but|while|though|although|except)\b,?|[;,.:]|\s-)\s*(?P<clause>(?:(?:and|but|so)\s+)?"
               r"(?:(?i:i|we|he|she|they|it|(?:my|our|the|his|her|their) [a-z]+)|[A-Z][a-z]+)\b[^.;?!]*)")


def clause_beside_rate(text: str, expression: str) -> str | None:
    """Rule 226: a clause said between a rate and its question ("1200 a month and I split it with my roommate", "... my
    brother covers half") whose numbers the sum does not use (or that has none): the sum without it would drop it, so
    it is named instead. None when the rate stands alone ("I pay 1450 a month for rent. How much is that over a year?")
    or the clause only gives the count ("I parked for 4 hours")."""
    rate = re.search(PER_PERIOD, text, re.I) or re.search(EVERY_UNIT, text, re.I)
    if not rate:
        return None
    asked = re.search(r"\b(?:how|what|what's|which)\b", text[rate.end():], re.I)
    between = text[rate.end():rate.end() + asked.start()] if asked else text[rate.end():]
    beside = re.search(BESIDE_RATE, between)
    numbers = re.findall(r"\d+(?:\.\d+)?", plain(beside.group("clause"))) if beside else []
    used = re.findall(r"\d+(?:\.\d+)?", expression)
    return beside.group("clause").strip() if beside and (not numbers or not set(numbers) <= set(used)) else None


def period_dropped(text: str, expression: str) -> str | None:
    """Rule 226: a story with an amount per one period and a question per or over another ("2,500 a month ... how much is
    left per year?") whose sum never turns one period into the other: the words of the period asked, named, never a
    monthly figure given as a yearly one."""
    said = plain(text)
    rate = re.search(PER_PERIOD, said)
    asked = re.search(rf"\b(?:per|a|an|each|every|in a|over a|for a|in one|over one|in the|over the) (?:whole |full )?({PERIOD})\b",
                      said[rate.end():]) if rate else None
    has = rate and (rate.group("per") or PERIODIC[rate.group("ly")])
    if not asked or asked.group(1) == has:
        return None
    factors = {str(SPANS.get((has, asked.group(1)), "")), str(SPANS.get((asked.group(1), has), ""))} - {""}
    factors |= set(re.findall(rf"(\d+(?:\.\d+)?) {has}s?\b", said[rate.end():]))  # "a day of 8 hours": the count said
    return None if factors & set(re.findall(r"\d+(?:\.\d+)?", expression)) else asked.group(0)


def unplaced_number(said: str, *used: str | None) -> bool:
    """Whether the message states a number the sum does not use (rule 226: every amount a story states is used)."""
    return any(n not in used for n in re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?![\w])", said))


def in_unit_asked(expression: str, text: str, rate: str) -> str | None:
    """The amount in the unit the question asks for: "30 minutes every day. How many hours in a week?" is 30 * 7 / 60.
    A unit asked that the rate's unit does not convert to (by the small table) gives None, never the wrong unit."""
    has = re.match(r"-?\d+(?:\.\d+)?\s*([a-z]+)", rate, re.I)
    asked = re.search(r"\bhow many ([a-z]+)\b", text, re.I)
    if not has or not asked:
        return expression
    have, want = unit(has.group(1).lower()), unit(asked.group(1).lower())
    if have == want or not {have, want} <= {u for pair in CONVERSIONS for u in pair}:
        return expression  # "how many pages": the pages counted; "how many km": no unit change
    if (want, have) in CONVERSIONS:
        return f"{expression} / {CONVERSIONS[(want, have)]:g}"
    if (have, want) in CONVERSIONS:
        return f"{expression} * {CONVERSIONS[(have, want)]:g}"
    return None


TOTAL_ASKED = (r"\bhow much (?:did|do|does|will|would|have|has|is|was) (?:[a-z]+ ){1,3}?(?:spend|spent|pay|paid|cost|owe)\b|"
               r"\b(?:altogether|in total|all together|the total|in all|all in|total cost|come to|comes to|came to)\b|\bhow much (?:[a-z]+ ){0,3}?together\b|"
               r"\bhow much (?:is it |are they |would it be |will it be )?for (?:both|all|everything|the lot|all of (?:it|them))\b")
SHOP_PRICE = (r"(?<!\bthere )(?<!\bthere's )\b(?:is|was|are|were|(?:fee|charge|cost|price|tip) of)\s+[$€£]?(\d+(?:\.\d+)?)\b(?! (?:of us|people|ways|minutes|hours|days|years))|"  # "a juice is 2.25", "the fee was 4"
              r"(?<![\w.])[$€£]?(\d+(?:\.\d+)?) (?:dollars? |euros? |bucks |pounds? |quid )?(?:for|on) (?:an? |the |some |my |our )?[a-z]")
NAMED_PRICE = r"(?:[:,;]|\band)\s*(?:an? |the |some )?[a-z]+(?: [a-z]+)?\s+[$€£]?(\d+(?:\.\d+)?)(?=\s*(?:,|;|\.(?!\d)|\?|!|\band\b|[-–—]\s|$))"
PER_UNIT = (r"\d\s*(?:[a-z]+ )?(?:an?|per|each|every) (?:hour|night|day|week|month|year|litre|liter|gallon|kg|kilo|pound|km|mile|"
            r"minute|person|head)s?\b|\bfor \d+(?:\.\d+)? (?:hour|night|day|week|month|year|minute|litre|liter|km|mile)s?\b")
PRICE = r"[$€£]?(\d+(?:\.\d+)?)"
MONEY = (r"[$€£]|\b(?:dollars?|euros?|bucks|pounds?|quid|cents?|spen[dt]|pay|paid|pays|cost\w*|price\w*|bill|fees?|charge|buy|"
         r"buys|bought|order\w*|each|apiece)\b|\d\.\d\d\b")  # a story about money, not eggs in packs
NOUN = r"(?!(?:and|or|then|plus|for|at|on|with|but)\b)[a-z]+"  # a word of a thing's name, not a joint
PRICED = rf"(?<![\w.])(\d+) ({NOUN}(?: {NOUN}){{0,2}}?) (at|for|costing|@|costs?|are|were|sell for|go for) {PRICE}(?: (each|apiece|a piece|per [a-z]+))?"
PRICED_LATER = rf"(?<![\w.])(\d+) ([a-z]+?)(?:e?s)?\b[^.?!]{{0,30}}[.?!,;]?\s+(?:each|every|one|a|per|the) \2 (?:costs?|is|was|sells for|goes for|comes to)\s+{PRICE}"
PRICED_EARLIER = (rf"\b(?:a|an|one|1|each|every|the|per)(?: [a-z]+){{0,2}}? ([a-z]+?)(?:e?s)? (?:costs?|is|was|sells for|goes for)\s+{PRICE}\b"
                  rf"(?: (?:dollars?|euros?|bucks|pounds?|quid))?[^?!]{{0,60}}?\b(?:(?P<bought>ordered|bought|got|grabbed|took|picked up) )?"
                  r"(?<![\w.])(?P<n>\d+)(?(bought)\b(?!\.\d| (?:dollars?|euros?|bucks|pounds?|quid|cents?)\b)| (?:[a-z]+ )?\1(?:e?s)?\b)")  # "we ordered 3" (rule 398)
LONE_PRICE = (rf"(?:\b(?:for|at|costing|costs?|cost|paid|spent|spend|priced at|tipped|tip of)\s+(?:another |an extra |just |only )?{PRICE}|[$€£](\d+(?:\.\d+)?)|"
              r"\b(?:an?|one|another|plus)\s+(\d+(?:\.\d+)?)[- ](?:dollars?|euros?|bucks?|quid)\b)")  # "a 7 dollar bag" (rule 242)


def thousands_joined(text: str) -> str:
    """"1,200" and "50,000,000" are one number each; "82, 91 and 77" (a list, spaced) stays a list."""
    return re.sub(r"(?<=\d),(?=\d{3}(?!\d))", "", text)


def money_words(text: str) -> str:
    """Lower case, numbers in digits, thousands commas gone, currency signs kept (they mark a price)."""
    return re.sub(r"(?<=\d),(?=\d{3}\b)", "", numbers_in_words(named(text).lower()))


BARE_TOTAL = r"(?:^|[.!?,;:]\s*|\band\s+)(?:so\s+)?(?:the\s+)?(?:total|sum|grand total)\W*$|=\s*\?\s*$"  # "... a $6 drink. Total?"


PAID_WITH = (r"\b(?:paid|pays?|paying|hand(?:s|ed)?(?: over)?|gave|gives?|tender(?:s|ed)?|used?|uses)\b[^.!?;,\d]*?[$€£]\s*"
             r"(\d+(?:\.\d+)?)(?:\s*(?:bill|note|banknote))?[^.!?;,\d]*[.!?;,]?")
CHANGE_ASKED = r"\bchange\b|\b(?:get|gets|getting|got|receive|be given) back\b|\bowed? (?:him|her|them|me|us|you)\b"


def change_due(text: str) -> tuple | None:
    """Rule 392: a purchase story paid with a note ("He paid with a $20 bill. How much change?"): the note less every
    priced item (rule 242's shopping, "also got a pen for $1.80" among them), as (expression, None); (None, words) when an
    item cannot be read; None when no note is paid or no change asked."""
    paid = re.search(PAID_WITH, text, re.I)
    if not paid or not re.search(CHANGE_ASKED, text[paid.end():] or text, re.I):
        return None
    start = max([m.end() for m in re.finditer(r"[.!?;,]|\band\b", text[:paid.start()], re.I)] or [0])  # the clause paying
    after = text[paid.end():]
    question = re.search(r"[^.!?]*\?\s*$|[^.!?]*\b(?:how much|what)\b[^.!?]*[.!?]?\s*$", after, re.I)
    bought = f"{text[:start]} {after[:question.start()] if question else after}".strip(" ,;")
    bought = re.sub(r"\s*\band\s*$", "", bought)
    spent = shopping(bought + ". How much altogether?") or (
        (expression(bought), None) if len(re.findall(r"\d+(?:\.\d+)?", bought)) == 2 and re.search(r"\d\s*(?:each|apiece)\b", bought) else None)
    if not spent or not spent[0]:  # one item at a price each ("3 notebooks at $4.25 each") is its count times it
        return spent
    return f"{paid.group(1)} - ({spent[0]})", None


def shopping(text: str) -> tuple | None:
    """Every priced item of a story over several sentences, added up: "He bought 3 notebooks at 4.75 each. He also
    grabbed a pen for 2.10. How much altogether?" is ("3 * 4.75 + 2.10", None). A number it cannot read as a price or a
    count with its price ("6 eggs and milk for 1.20", "2 shirts for 30": each or both?) is (None, its words): no total is
    given without it. None when it is no such story (a budget, a split, a percent are other rules'). A total asked in
    one word ("Total?", "= ?") is read the same, and left to the other rules when an item is not read here (rule 242)."""
    if re.search(BARE_TOTAL, text, re.I) and not re.search(TOTAL_ASKED, money_words(text)):
        spent = shopping(re.sub(BARE_TOTAL, ". What's the total?", text, flags=re.I))
        return spent if spent and spent[0] else None
    text = money_words(text)
    if not re.search(MONEY, text) or not re.search(TOTAL_ASKED, text) or re.search(PER_UNIT, text) or re.search(r"%|\bpercent|\b(?:left|remain\w*|budget|(?:had|have|has) [$€£]?\d|started with|split|"
                                                    r"share (?:it|the)|between|among|per (?:person|head)|each of us|of us)\b", text):
        return None
    terms, used = [], []
    for item in re.finditer(PRICED_LATER, text):  # "3 pens. Each pen costs 1.25": the count, then its price
        terms.append(f"{item.group(1)} * {item.group(3)}")
        used += [item.span(1), item.span(3)]
    for item in re.finditer(PRICED_EARLIER, text):  # "A ticket costs $9.50. We bought 4 tickets": the price, then the count
        if not any(a <= item.start("n") < b for a, b in used):
            terms.append(f"{item['n']} * {item.group(2)}")
            used += [item.span(2), item.span("n"), (item.start(), item.start(1))]  # "1 ticket is 12": its "1" is no count
    for item in re.finditer(PRICED, text):
        if any(a <= item.start(1) < b for a, b in used):
            continue
        count, price, each = item.group(1), item.group(4), item.group(5)
        if item.group(3) != "at" and not each and count != "1":
            return None, item.group(0)  # "2 shirts for 30": each or both? not read
        terms.append(price if count == "1" else f"{count} * {price}")
        used.append(item.span())
    listed = re.compile(NAMED_PRICE).finditer(text, text.find(":")) if ":" in text else [  # "groceries: milk 1.20, bread 2.50"
        m for m in re.finditer(NAMED_PRICE, text) if re.match(r"\W*and\s+(?:an?|the|some|my|our)\s", m.group())  # "costs 799 and the case 49" (rule 294)
        and re.search(rf"{LONE_PRICE}|{SHOP_PRICE}", text[:m.start()])]
    for lone in sorted([*re.finditer(LONE_PRICE, text), *re.finditer(SHOP_PRICE, text), *listed], key=lambda m: m.start()):
        group = next(i for i in range(1, len(lone.groups()) + 1) if lone.group(i))
        if not any(a <= lone.start(group) < b for a, b in used):
            terms.append(lone.group(group))
            used.append(lone.span(group))
    if not terms or len(terms) < 2 and not re.search(r"[.!?]\s+\S", text.strip()):
        return None  # one price in one sentence: the other rules read it
    for number in re.finditer(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.]*\d)(?: [a-z]+)?", text):
        if not any(a <= number.start() < b for a, b in used):
            return None, number.group(0)  # "6 eggs" with no price: a total without them would be wrong
    return (" + ".join(terms), None) if len(terms) > 1 else None


UNIT_PRICE = (r"\b(?:(?P<one>a|an|one|each|every|per|single) )?(?:[a-z]+ )?(?P<thing>[a-z]{3,}?)(?:e?s)? (?:costs?|is|are|was|were|"
              r"sells? for|goes for|go for|comes? to) [$€£]?(?P<price>\d+(?:\.\d+)?)(?: ?(?:dollars?|euros?|bucks|pounds?|quid))?"
              r"(?P<each> (?:each|apiece|a piece|per (?:one|item|piece|ticket|head)))?\b")
COUNT_ASKED = r"\b(?:how much (?:[a-z]+ ){0,3}?for|what (?:do|does|would|will)) (\d+(?:\.\d+)?)\b(?!\.\d| ?%| percent)"
HOW_MANY_PER = r"(?P<n>\d+(?:\.\d+)?) (?:(?P<thing>[a-z]+) )?(?P<per>(?:every|each|a|per) (?:day|week|month|hour)\b)"


def times_in_span(text: str) -> str | None:
    """Rule 239: something that happens every so often, counted over a span, is arithmetic, never a schedule: "a bus
    every 12 minutes: how many in 2 hours?" is 2 * 3600 / (12 * 60). Only when the span divides evenly and every number
    said is used (a number that names something, "bus number 73", is a name)."""
    said = re.sub(r"\b(?:number|no\.?|route|line|platform|gate|bus|#) ?\d+\b", " ", numbers_in_words(text.lower()))
    often = re.search(r"\bevery (\d+) (second|minute|hour|day)s?\b", said)
    span = re.search(r"\bhow many\b[^.?!]*?\b(?:in|over|during|within) (?:(?:an?|one|the)|(?P<count>\d+)) (?P<unit>second|minute|hour|day|week)s?\b", said)
    if not often or not span or unplaced_number(said, often.group(1), span.group("count")):
        return None
    interval = int(often.group(1)) * SECONDS_IN[often.group(2)]
    whole = int(span.group("count") or 1) * (SECONDS_IN.get(span.group("unit")) or 604800)
    if not interval or whole % interval or whole <= interval:
        return None
    return f"{whole // SECONDS_IN[often.group(2)]} / {often.group(1)}"


RISE = r"went up|goes up|go up|gone up|rose|rises|risen|increased|increases|grew|grows|raised"
FALL = r"went down|goes down|go down|gone down|fell|falls|dropped|drops|decreased|decreases|shrank|shrinks|was cut|were cut"


def percent_rise(text: str) -> str | None:
    """Rule 240: an amount that goes up or down by a percentage, asked as the new amount ("Suppose my salary were 50,000
    and it went up 10%: what would it be?" is 50000 * 110 / 100). Only with one amount, one percentage and a question."""
    said = re.sub(r"(?<=\d),(?=\d{3}\b)", "", text.lower())
    moved = re.search(rf"\b(?P<way>{RISE}|{FALL})(?: by)? (?P<p>\d+(?:\.\d+)?) ?(?:%|percent)", said)
    amounts = re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?![\d.]*\s*(?:%|percent))\b", said)
    asked = re.search(r"\bwhat (?:would|will|is|'s|does)\b|\bhow much\b|\bnew (?:amount|total|figure|salary|price|rent)\b", said)
    if not moved or not asked or len(amounts) != 1 or len(re.findall(r"%|percent", said)) != 1:
        return None
    sign = "+" if re.fullmatch(RISE, moved.group("way")) else "-"
    return f"{amounts[0]} * (100 {sign} {moved.group('p')}) / 100"


def dozens_counted(text: str) -> str | None:
    """Rule 238: "Nine dozen rolls: how many rolls?" is 9 * 12, a dozen being 12; only with no other number said."""
    said = re.sub(r"(?<![\w.])(\d+) dozen\b", r"\1 x12", text.lower())
    said = re.sub(rf"\b((?:{NUMBER_WORD})(?:[\s-]+(?:{NUMBER_WORD}))*) dozen\b", lambda m: f"{_spoken(m.group(1))} x12", said)
    found = re.findall(r"(?<![\w.])(\d+) x12\b", said)
    if len(found) != 1 or not re.search(r"\bhow many\b", said) or len(re.findall(r"(?<![\w.])\d+(?:\.\d+)?\b", said)) != 1:
        return None
    return f"{found[0]} * 12"


def unit_priced(text: str) -> str | None:
    """A price for one thing, then a count of that thing asked about: "Tickets cost 12 each. How much for 5 tickets?"
    is 5 * 12; "A coffee is 3 dollars. I buy one every day. How much in a week?" is 3 * 7 (the count per day priced,
    then the rate over the span). A price without "each" or "a/one" ("3 apples cost 1.20") is another rule's."""
    said = money_words(text)
    price = next((p for p in re.finditer(UNIT_PRICE, said) if p.group("one") or p.group("each")), None)
    if price and shopping(text):
        return None  # several priced items: the story's total is shopping()'s
    if not price or not re.search(MONEY, said) and not price.group("each"):
        return None
    same, rest = rf"{price.group('thing')}(?:e?s)?\b", said[price.end():]
    wanted = re.search(rf"(?<![\w.])(\d+(?:\.\d+)?) (?:more |extra )?(?:[a-z]+ )?{same}", rest) or \
        (price.group("each") and re.search(COUNT_ASKED, rest))  # "0.25 each. How much for three dozen?": 36 of them
    if wanted and re.search(r"\bhow much\b|\bwhat(?:'s| is| do| does| would| will)\b|\btotal\b|\bcost\b|\?", rest):
        return f"{wanted.group(1)} * {price.group('price')}"
    often = re.search(HOW_MANY_PER, rest)  # "I buy one every day": the price, every day
    if not often or often.group("thing") and not re.fullmatch(same, often.group("thing")):
        return None
    over = rate_over_span(f"{rest[:often.start()]}{price.group('price')} {often.group('per')}{rest[often.end():]}")
    return over if not over or often.group("n") == "1" else f"{often.group('n')} * {over}"


def price_left_out(text: str, expression: str) -> str | None:
    """The words of a price the story names that a sum read from it leaves out ("a pen for 2.10" beside 3 * 4.75), or
    None: a total that silently drops an item is never given."""
    kept = {float(n) for n in re.findall(r"\d+(?:\.\d+)?", expression)}
    said = money_words(text)
    for lone in re.finditer(LONE_PRICE, said):
        if float(next(g for g in lone.groups() if g)) not in kept:
            before = re.split(r"[.!?,;]\s", said[:lone.start()])[-1].split()[-4:]
            return " ".join(before + [said[lone.start():lone.end()].strip()])
    return None


LONE_NUMBER = r"(?<![\w.])\d+(?:\.\d+)?(?![\w]|\.\d)"  # "BA117", "ICE574" and "v2" are names, not numbers
CUT = r"(?:discount|off|reduction|markdown|saving|rebate|coupon|voucher)"
CUT_BY = rf"(?:an? |the )?(?P<d>\d+(?:\.\d+)?)\s*(?P<pct>%|percent|per cent)?\s*(?:dollars?|euros?|pounds?|bucks?|quid)?\s*{CUT}"
PAID_AFTER = (rf"(?P<a>\d+(?:\.\d+)?)\s*(?:dollars?|euros?|pounds?|bucks?|quid)?\s+(?:after|with|once|following|including)\s+{CUT_BY}",
              rf"\b(?:after|with|once|following)\s+{CUT_BY}\b[^.?!]*?\b(?:costs?|cost me|is|was|were|paid|pay|came to|comes to|for)\s+"
              rf"(?P<a>\d+(?:\.\d+)?)")  # "80 after a 20% discount", "after a 25% discount the shoes cost 90"
BEFORE_ASKED = (r"\b(?:before|original(?:ly)?|full price|regular|normal|usual|list price|undiscounted|pre-discount|without (?:the |a |any )?"
                r"(?:discount|reduction|coupon|voucher))\b")


def before_the_cut(text: str) -> str | None:
    """The price before a discount, asked from the price after it: "80 after a 20 dollar discount" was 80 + 20; "72 after
    a 10% discount" was 72 * 100 / (100 - 10), never the discount taken off again. Only a message with those two numbers."""
    said = plain(text)
    paid = re.search(PAID_AFTER[0], said) or re.search(PAID_AFTER[1], said)
    if not paid or not re.search(BEFORE_ASKED, said[paid.end():] + said[:paid.start()]) or len(re.findall(LONE_NUMBER, said)) != 2:
        return None
    amount, cut = paid.group("a"), paid.group("d")
    return f"{amount} * 100 / (100 - {cut})" if paid.group("pct") else f"{amount} + {cut}"


EACH_HAS = (r"(?<![\w.])(?P<n>\d+)\s+(?P<things>[a-z]+)\b(?:,|\s+and|\s+with|\s+that)?\s+(?:each(?: one| 1)?|every (?:one|1))(?: of them)?\s+"
            r"(?:weighs?|weighing|holds?|holding|has|having|contains?|containing|measures?|measuring|lasts?|lasting|takes?|taking|"
            r"carries|carrying|seats?|seating|fits?|is)\s+(?:about |around |roughly )?(?P<m>\d+(?:\.\d+)?)(?![\w.]*\d)")


def count_of_each(text: str) -> str | None:
    """A count of things, each with the same amount of something, and the total asked: "3 suitcases, each weighs 18 kg.
    Total weight?" is 3 * 18, "4 boxes, each holds 12 bottles" 4 * 12; a number inside a name (flight BA117) is no operand,
    nor a time of day ("leaves at 9"), and a message with any other number is not read so."""
    said = plain(text)
    found = re.search(EACH_HAS, said)
    others = re.sub(r"\b(?:each|every) 1\b|\bat \d{1,2}(?::\d\d)?\b|\b\d{1,2}(?::\d\d)?\s*(?:am|pm)\b|\b\d{1,2}:\d\d\b", "", said)
    if not found or len(re.findall(LONE_NUMBER, others)) != 2 or not re.search(
            r"\bhow (?:many|much|heavy|long|far)\b|\btotal\b|\baltogether\b|\bin all\b|\bcombined\b", said[found.end():]):
        return None
    return f"{found.group('n')} * {found.group('m')}"


# Rule 171: every clause of a story counts.
COMPANY = (r"\b(?P<n>\d+) (?:friends|others|people|mates|colleagues|coworkers|guests|kids)\s*(?:,\s*)?(?:plus|and|with|\+)\s+"
           r"(?:me|myself|i)\b(?:\s+(?:included|too|as well))?|\b(?:me|myself) (?:and|plus|\+) (?P<m>\d+) (?:friends|others|"
           r"mates|colleagues|coworkers|guests|kids)\b")
CLAIM = (r"(?:[.?!;,]\s*|\s+(?:but|and|though)\s+)(?:(?i:my|his|her|their|our|a|the) [a-z]+|[A-Z][a-z]+|(?i:someone|everyone|they|he|she))"
         r" (?:says|said|thinks|thought|reckons|claims|claimed|swears|insists|told me)(?: (?:that )?(?:it's|it is|it was|the answer is))?"
         r" [$€£]?-?\d+(?:\.\d+)?\b[^.?!]*[.?!]?")


SPLIT_ASKED = r"\bsplit|\bshar(?:e|ing)\b|\bowes?\b|\beach (?:person|of us|one|pays?|owes?)\b|\bper (?:person|head)\b|\bdivid|\bbetween\b"


def said_plainly(text: str) -> str:
    """A story's company counted and a claim beside a sum left out: "three friends plus me" is "4 people", and
    "what is 9 + 10? my friend says 21" asks only 9 + 10 (the claim is someone's guess, never an operand)."""
    plain_text = numbers_in_words(text)
    if re.search(COMPANY, plain_text, re.I) and re.search(SPLIT_ASKED, plain_text, re.I):
        text = re.sub(COMPANY, lambda m: f"{int(m['n'] or m['m']) + 1} of us", plain_text, flags=re.I)
    claim = re.search(CLAIM, text)
    if not claim:
        return text
    rest = text[:claim.start()] + ("?" if "?" in claim.group() else ". " if claim.group().endswith(".") else " ") + text[claim.end():]
    asks_a_sum = len(re.findall(r"\d+(?:\.\d+)?", rest)) >= 2 and re.search(OPERATOR_WORDS, re.sub(r"[.?!]", " ", rest), re.I)
    return rest.strip() if asks_a_sum else text


CONTAINER = (r"\b(?:an?|one|each|every|the|per) (?P<box>[a-z]+) (?:holds?|contains?|has|fits?|takes?|carries|comes with|of)\s+"
             r"(?P<size>\d+(?:\.\d+)?) (?P<things>[a-z]+)")


BOXES_OF = r"(?<![\w.])(?P<count>\d+) (?P<box>[a-z]+) (?:of|with|holding|containing) (?P<size>\d+(?:\.\d+)?) (?P<things>[a-z]+)"
LOST_AFTER = (r"(?<![\w.])(\d+(?:\.\d+)?) (?:of them |[a-z]+ )?(?:went bad|broke|were broken|got broken|cracked|got lost|were lost|"
              r"spoiled|spoilt|rotted|were rotten|went off|died|were eaten|got eaten|smashed|were stolen|got stolen)\b")


def opens_the_story(together: re.Match, text: str) -> bool:
    """Rule 276: "I bought 3 cartons of 24 eggs and broke 7. How many are still whole?": the containers are the story's
    first number, the question names no other thing ("9 out of 10 dentists" and "3 packs with 8 in each" are no such)."""
    return together["box"] != "out" and together["things"] not in ("in", "each", "apiece", "inside") \
        and together.start() == re.search(r"(?<![\w.])\d", text).start() \
        and bool(re.search(r"\bhow many\s+(?:are|is|were|do|does|did|have|has|remain|stay|still|left)\b", text))


def containers_filled(text: str) -> tuple | None:
    """"A box holds 24 eggs. I have 9 boxes and break 13 eggs. How many good eggs?": a count of containers times their
    size, then the things lost or gained after: (9 * 24 - 13, ""). A number it cannot place gives ("", the part with
    it), never a sum of some of the numbers; None when the message tells no such story."""
    text = plain(text)
    size = re.search(CONTAINER, text)
    together = re.search(BOXES_OF, text) if not size else None  # "5 crates of 20 apples and 7 went bad. How many apples?"
    if together and (re.search(rf"\bhow many\b[^?.!]*\b{re.escape(together['things'].rstrip('s'))}", text) or opens_the_story(together, text)):
        size, count, after = together, together, text[together.end():]
    elif size:
        rest = text[size.end():]
        box = size["box"]
        plurals = "|".join(map(re.escape, {box, f"{box}s", f"{box}es", f"{box[:-1]}ves", f"{box[:-2]}ves"}))  # shelf, shelves
        count = re.search(rf"(?<![\w.])(?P<count>\d+) (?:{plurals})\b", rest)
        after = rest[count.end():] if count else ""
    if not size or not count or not re.search(ASKED, text):
        return None
    expression = f"{count['count']} * {size['size']}"
    for lost in re.findall(LOST_AFTER, after):  # "7 went bad", "5 broke": taken away
        expression += f" - {lost}"
    for more in re.findall(r"(?:\bplus|\+|\band another|\band an extra)\s+(?:another |an? extra |extra )?(\d+(?:\.\d+)?)\b", after):
        expression += f" + {more}"  # "plus another 5 loose pens"
    thing = size["things"].rstrip("s")
    for verb, amount, what in re.findall(rf"\b({LOSE}|{GAIN})\s+(?:another |an? extra )?(\d+(?:\.\d+)?)\b(?: ([a-z]+))?", after):
        if not what or what.rstrip("s") == thing or what in ("of", "and", "then", "so", "on", "in", "at", "along", "during", "while",
                                                            "before", "after", "when", "today", "yesterday", "by", "from", "but"):  # "12 people got off" are no seats
            expression += f" {'-' if re.fullmatch(LOSE, verb) else '+'} {amount}"
    used = re.findall(r"\d+(?:\.\d+)?", expression)
    for number in re.finditer(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.]*%)", text):
        if number.group() not in used:
            return "", re.split(r"[,.;!?]|\band\b", text[number.start():])[0].strip()  # "3 bags": no place in the story
        used.remove(number.group())
    return expression, ""


LABELLED = r"(?<![\w.])(\d+(?:\.\d+)?) (?:for )?(?:the )?[a-z]+ (plus|minus|\+|-) (?:another )?(\d+(?:\.\d+)?) (?:for )?(?:the )?[a-z]+\b"


def labelled_amounts(text: str) -> str | None:
    """"How much would 1200 rent plus 250 bills come to?": two amounts, each with its label, added (or taken away)."""
    text = plain(text)
    found = re.search(LABELLED, text)
    if not found or not re.search(r"\bhow much\b|\btotal\b|\bcome to\b|\bcomes to\b|\baltogether\b|\bin all\b", text) or \
            len(re.findall(r"(?<![\w.])\d+(?:\.\d+)?", text)) != 2:
        return None
    return f"{found[1]} {'-' if found[2] in ('minus', '-') else '+'} {found[3]}"


MORE_THAN = (r"(?<![\w.])(\d+(?:\.\d+)?) (?:[a-z]+ )?(more|less|fewer|further|longer|shorter|older|younger|taller|heavier|"
             r"lighter|bigger|smaller|higher|lower|later|earlier) than\b")
SMALLER = ("less", "fewer", "shorter", "younger", "lighter", "smaller", "lower", "earlier")


def more_than_before(text: str) -> str | None:
    """"340 km on Monday. On Tuesday 95 km more than Monday. Both days together?": the second amount is the first
    plus (or less) the difference, and the total asked is the two added: 340 + (340 + 95)."""
    text = plain(text)
    numbers = re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.]*%)", text)
    relative = re.search(MORE_THAN, text)
    if len(numbers) != 2 or not relative or numbers[1] != relative[1] or not re.search(
            r"\b(?:together|altogether|in total|total|in all|both|combined)\b", text):
        return None
    sign = "-" if relative[2] in SMALLER else "+"
    return f"{numbers[0]} + ({numbers[0]} {sign} {relative[1]})"


TOTAL_WORDS = (r"\b(?:total|totals|sum|altogether|all together|in all|all in|all told|combined|overall)\b(?! of\b)|=\s*\?|"
               r"\badd(?:ing)? (?:up|together|them|these|those|all|the)\b")


def amount_left_out(text: str, expression: str) -> str | None:
    """Rule 242: a request for a total (total, sum, altogether, in all, combined, "= ?", in any form) uses every amount it
    states; the words of one that the sum read from it leaves out ("a $6 drink" beside 3 * 14), else None. A total that
    silently drops an amount is never given."""
    said = plain(said_plainly(thousands_joined(text)))
    if not re.search(TOTAL_WORDS, said):
        return operand_dropped(said, expression) or stated_amount_unused(said, expression) or negative_count(said, expression)
    if unused := first_unused(said, expression):
        return unused
    told = re.split(r"[.!?]\s+(?=[^.!?]*$)", said)[0]  # the statement, without the question that closes it
    unpriced = re.search(r"\b(?:and|plus|also)\s+((?:a|an|some)\s+(?:[a-z]+\s+){0,2}[a-z]+)(?=\s*(?:[.,;!?]|$))", told)
    return unpriced.group(1) if unpriced and re.search(MONEY, said) else None  # "... and some wine. Total?": no price


def first_unused(said: str, expression: str, skipped=lambda number: False) -> str | None:
    """The words of the first amount stated that the sum leaves out, else None: a time ("leaves at 9"), a span used in
    another unit ("two weeks" as 14 days), how many things are added ("my 2 kids, aged 7 and 9") and a number `skipped`
    says is none are no amounts."""
    used = [float(n) for n in re.findall(r"\d+(?:\.\d+)?", expression)]
    for number in re.finditer(rf"({LONE_NUMBER})(?:\s+([a-z]+))?", said):
        value = float(number.group(1))
        if value in used or in_other_units(value, number.group(2) or "", used) or re.search(CLOCK_BEFORE, said[:number.start()]) \
                and not re.match(r"\s*(?:each|apiece|a piece|per|an?)\b", said[number.end(1):]):
            continue  # "leaves at 9" is a time, not an amount
        if value == 1 and re.match(r"\s+(?:[a-z]+ ){0,2}?[a-z]+ (?:costs?|is|was|sells for|goes for)\b", said[number.end(1):]):
            continue  # "one ticket is 12 quid": one is "a", the price is of each (rule 398)
        if value == len(used) and re.fullmatch(r"[\d.\s+()]+", expression):
            continue  # "my 2 kids, aged 7 and 9": how many things are added, not one of them
        if not skipped(number):
            return number.group(0)
    return None


def stated_amount_unused(said: str, expression: str) -> str | None:
    """Rule 276: rule 242 for any sum: "I bought 3 cartons of 24 eggs and broke 7" read as 3 - 7 leaves the 24 out, and
    is not answered; the words of the amount left out, else None. A number the message takes back, a label ("Table 9"),
    a 1 ("if one mile is 1.609 km": a unit) and the answer itself ("nine dozen" said as 108) are no amounts; a sum
    written out ("I'm 34. What is 5 plus 3?") is the sum asked, the other numbers are talk around it."""
    if re.search(TAKEN_BACK, said) or re.search(r"\d\s*(?:plus|minus|times|multiplied by|divided by|over|[-+*/x×÷])\s*\d", said):
        return None
    return first_unused(said, expression, lambda number: labelled(said, number)
                        or float(number.group(1)) in (1, value_of(expression)))


def labelled(said: str, number: re.Match) -> bool:
    """Whether a number names a thing ("Line 9 comes", "add 12 to table 9's bill"): a noun just before it, no verb."""
    return bool(re.search(r"(?:^|[.!?;:,]\s*|\b(?:the|my|our|your|his|her|their|on|at|in|to|for|from|by|with)\s+)"
                          r"(?!(?:the|a|an|and|or|of|i|we|you|he|she|they|it|than|is|are|was|were|be|by)\b)[a-z]+\s+$",
                          said[:number.start()]) or re.match(r"'s\b", said[number.end(1):]))


def negative_count(said: str, expression: str) -> str | None:
    """Rule 276: "how many" things are left is never below zero ("Tom has 4 apples and eats 9"): the question, else None."""
    asked = re.search(r"\bhow many\b[^.!?]*", said)
    result = value_of(expression)
    return asked.group(0) if asked and result is not None and result < 0 else None


def value_of(expression: str) -> float | None:
    """The value of a sum of digits and + - * / ( ), else None."""
    if not re.fullmatch(r"[\d.\s+\-*/()]+", expression):
        return None
    try:
        return eval(expression, {"__builtins__": {}})  # digits and + - * / ( ) only
    except (ArithmeticError, SyntaxError):
        return None


CLOCK_BEFORE = r"\b(?:at|by|until|till|before|after|from|around|about)\s+$"


def in_other_units(value: float, unit: str, used: set) -> bool:
    """Whether a span said in one unit was used in another ("two weeks" as 14 days, "3 hours" as 180 minutes)."""
    period = re.sub(r"s$", "", unit)
    return period in ("minute", "hour", "day", "week", "fortnight", "month", "year") and \
        any(value * factor in used for factor in (7, 12, 14, 24, 52, 60, 365, 3600, 1440))


def percent_as_amount(text: str, expression: str) -> str | None:
    """Rule 244: a number said as a percentage ("spent 30%") is never an amount of its own: the words of one that a sum
    uses as a plain number (200 - 30, no hundredth taken anywhere), else None."""
    if "100" in expression:
        return None
    used = {float(n) for n in re.findall(r"\d+(?:\.\d+)?", expression)}
    return next((m.group(0) for m in re.finditer(r"(\d+(?:\.\d+)?)\s*(?:%|percent|per cent)", plain(text))
                 if float(m.group(1)) in used), None)


TAKEN_BACK = (r"\b(?:wait|sorry|i mean|i meant|scratch|actually|make (?:it|that)|not|don't|instead|rather|correction|oops|"
              r"hang on|kidding|no)\b")


def operand_dropped(said: str, expression: str) -> str | None:
    """Rule 242 for any sum: a number named as an operand ("plus 3", "minus 4", "times 2") that the sum read leaves out
    ("5% of 40 plus 3" read as 5 * 40 / 100): its words, else None."""
    if re.search(TAKEN_BACK, said):
        return None  # "11 times 4? No wait, 11 times 5": the number taken back is not an operand (rules 154, 214)
    used = {float(n) for n in re.findall(r"\d+(?:\.\d+)?", expression)}
    return next((m.group(0) for m in re.finditer(r"\b(?:plus|minus|times|multiplied by|divided by|(?:multiply|divide)(?: it| that| this| the result)? by|"
                                                 r"add|subtract|take away|take off|deduct|knock off)\s+(\d+(?:\.\d+)?)(?![\d.%])", said)
                 if float(m.group(1)) not in used), None)


MULTIPLES = {"twins": 2, "triplets": 3, "quadruplets": 4}
SAME_AGE = (r"\b(?P<n>\d+)[- ]years?[- ]old (?P<k>twins|triplets|quadruplets)\b|"
            r"\b(?P<k2>twins|triplets|quadruplets)\b[^\d.?!;]{0,25}?(?P<n2>\d+)(?!\w|\.\d)")
KIDS = r"(?:kids|children|sons|daughters|boys|girls|grandkids|grandchildren|siblings|brothers|sisters|of them)\b"
PEOPLE = rf"(?:{SHARERS}|{KIDS}|people|persons|friends|guests|nephews|nieces|workers|employees|staff|teams|men|women|visitors|us)"


def ages_added(text: str) -> str | None:
    """Rule 246: the ages asked to be added ("Add the ages of my kids: the twins, aged 7, and their brother Leo who is
    12"): every age stated, twins, triplets or quadruplets counted as 2, 3 or 4 people of their age: 7 + 7 + 12. A
    count of the children that is no age ("my 3 kids") is left out only when it counts the ages given; else None."""
    said = plain(text)
    if not re.search(r"\bages?\b", said) or not re.search(TOTAL_WORDS, said) or not re.search(SAME_AGE, said):
        return None
    said = re.sub(SAME_AGE, lambda m: " and ".join([m["n"] or m["n2"]] * MULTIPLES[m["k"] or m["k2"]]), said)
    ages = re.findall(rf"(?<![\w.])\d+(?!\w|\.\d)(?! {KIDS})", said)
    counts = re.findall(rf"(?<![\w.])(\d+) {KIDS}", said)
    if len(ages) < 2 or any(int(count) != len(ages) for count in counts):
        return None
    return " + ".join(ages)


HOLDER = r"(?P<thing>(?:the |my |our |his |her |their )?[a-z]+(?: #?[a-z]?\d+[a-z]?)?)"
HOLDS = r"(?:currently |now |already |still )?(?:has|holds|is at|is on|has got|scored|owes|is worth)(?: a [a-z]+ of)?"
CHANGED = (r"\b(?P<op>add|subtract|take away|take|deduct|remove|knock)\s+(?P<n>\d+(?:\.\d+)?)(?: more| extra)?(?: [a-z]+)?\s+"
           r"(?:to|from|off|onto)\s+(?:(?P<ref>(?:the |my |our )?[a-z]+(?: #?[a-z]?\d+[a-z]?)?)'s [a-z]+|it|that|(?:the|his|her|their|its) [a-z]+)")


def added_to_what_it_holds(text: str) -> str | None:
    """Rule 260: "Player 23 currently has 40 points. Add 7 to player 23's score": the amount stated for a thing, with the
    number added to it or taken from it (47); the number in the thing's name ("player 23", "table 9", "room 4") is its
    label, never an amount. None unless the thing changed is the one whose amount was stated."""
    said = re.sub(r"(?<=\d),(?=\d{3}\b)", "", numbers_in_words(text.lower())).replace("$", "").replace("€", "").replace("£", "")
    held = list(re.finditer(rf"\b{HOLDER} {HOLDS} (?P<amount>\d+(?:\.\d+)?)\b(?!\s*%)", said))
    changed = re.search(CHANGED, said)
    if len(held) != 1 or not changed or changed.start() < held[0].end():
        return None
    thing = re.sub(r"^(?:the|my|our|his|her|their) ", "", held[0].group("thing"))
    if changed.group("ref") and re.sub(r"^(?:the|my|our) ", "", changed.group("ref")) != thing:
        return None  # another thing's score is changed: nothing stated for it
    sign = "+" if changed.group("op") == "add" else "-"
    return f"({held[0].group('amount')} {sign} {changed.group('n')})"


NEGATED_AMOUNT = (r"(?:\b(?:i|we|he|she|they)\s+)?\b(?:didn't|did not|don't|do not|haven't|have not|never|wasn't|was not|isn't|is not)\s+"
                  r"[a-z]+(?: [a-z]+)? [$€£]?\d+(?:\.\d+)?\b(?!\s*(?:%|percent))(?: [a-z]+)?\s*(?:[-–—,;:.]|\bbut\b)\s*")
NOT_THAT_AMOUNT = r"(?<=\d)\s*,?\s*(?:and |but )?not\s+[$€£]?\d+(?:\.\d+)?\b(?!\s*(?:%|percent))\s*,?"
QUANTITY_ASKED = r"\bhow (?:much|many)\b|\bleft\b|\bremain|\btotal\b|\baltogether\b|\bwhat(?:'s| is| are)\b"


def negated_amount_dropped(text: str) -> str:
    """Rule 261: an amount said not to be ("I didn't spend 30 - I spent 45 out of my 100", "I paid 45, not 30") is left out
    and its correction used, in a question of a quantity whose message states another amount after it; else the text."""
    if not re.search(QUANTITY_ASKED, text, re.I):
        return text
    found = re.search(NEGATED_AMOUNT, text, re.I)
    if found and re.search(r"\d", text[found.end():]):
        return text[:found.start()] + text[found.end():]
    return re.sub(NOT_THAT_AMOUNT, "", text, count=1, flags=re.I)


def spent_of_whole(text: str) -> str | None:
    """Rule 261: "I spent 45 out of my 100. What's left?": the whole less the part used (100 - 45), when what is left is
    asked; else None."""
    said = plain(text)
    used = re.search(r"\b(?:spent|used|paid|gave away|lost|sold|ate|drank|read|ran|walked|finished|did|done|wasted|burned)\s+"
                     r"(\d+(?:\.\d+)?)(?: [a-z]+)? (?:out of|of) (?:my|our|his|her|their|the|a|an)?\s*(?:total of |budget of )?(\d+(?:\.\d+)?)\b(?!\s*%)",
                     said)
    if not used or not re.search(r"\b(?:left|remain\w*|to go|still (?:have|got))\b", said[used.end():]):
        return None
    return f"({used.group(2)} - {used.group(1)})"


CHECK_ASKED = (r"\b(?:was|am|is|were|are) (?:i|that|it|this|he|she|they|we|my answer)(?: (?:really|actually|even))? (?:right|correct|true)\b|"
               r"\bdid (?:i|he|she|they|we) get (?:it|that|this) right\b|\b(?:is|was) (?:that|this|it) (?:the )?right answer\b")
CLAIMED = (r"\b(?:i|he|she|they|we)\s+(?:told (?:him|her|them|me|us|my [a-z]+)|said|answered|replied|wrote|put down|guessed)"
           r"(?: (?:that )?(?:it was|it's|it is|the answer was|the answer is))?\s+[$€£]?(-?\d+(?:\.\d+)?)\b(?![\s\d]*(?:[-+*/x×÷]|times|plus|minus|divided|of)\b)"
           r"|\b(?:is|equals|makes|comes to|=)\s+[$€£]?(-?\d+(?:\.\d+)?)(?=\s*[.?!,]|\s*$)")


def claim_to_check(text: str) -> tuple | None:
    """Rule 262: a sum someone answered and a question whether the answer is right ('My son asked "what is 6 times 7?"
    and I told him 48. Was I right?'): (the message without the answer given and the question, the number given), else None."""
    asked = re.search(CHECK_ASKED, text, re.I)
    claimed = list(re.finditer(CLAIMED, text[:asked.start()], re.I)) if asked else []
    if not claimed:
        return None
    given = claimed[-1]
    return text[:given.start()] + text[given.end():asked.start()], given.group(1) or given.group(2)


def claim_verdict(answer: str, claimed: str) -> str:
    """Rule 262: the answer worked out, with whether the number given matches it ("No: the answer is 42, not 48.")."""
    found = re.findall(r"-?\d+(?:\.\d+)?", answer.replace(",", ""))
    if not found:
        return answer
    right = abs(float(found[-1]) - float(claimed)) < 1e-9
    said = answer.rstrip(".")
    return f"{'Yes' if right else 'No'}: {said[:1].lower()}{said[1:]}{'' if right else f', not {show(float(claimed))}'}."


NUM = r"(\d+(?:\.\d+)?)"
SUBSTITUTIONS = [  # (pattern, group of the number replaced, group of the number put in its place)
    (rf",?\s*\b(?:if|when|supposing|suppose|assuming)\s+(?:the\s+)?{NUM}\s+(?:(?:is|was|gets|got) changed to|were|was|is|became|had been|"
     rf"turned into)\s+(?:an?\s+)?{NUM}(?!\w|\.\d)", 1, 2),
    (rf",?\s*\b(?:but\s+)?(?:with|using|taking|putting)\s+(?:an?\s+)?{NUM}\s+(?:instead of|in place of|rather than)\s+"
     rf"(?:the\s+)?(?:an?\s+)?{NUM}(?!\w|\.\d)", 2, 1),
    (rf",?\s*\b(?:but\s+)?(?:replac\w*|swap\w*|switch\w*|chang\w*|exchang\w*)\s+(?:the\s+)?{NUM}\s+(?:by|with|for|to|into)\s+"
     rf"(?:an?\s+)?{NUM}(?!\w|\.\d)", 1, 2),
    (rf",?\s*\b(?:but\s+)?(?:the\s+)?{NUM}\s+(?:replaced|swapped|switched|changed)\s+(?:by|with|for|to|into)\s+(?:an?\s+)?{NUM}(?!\w|\.\d)", 1, 2),
    (rf",?\s*\b(?:but\s+)?substitut\w*\s+(?:an?\s+)?{NUM}\s+for\s+(?:the\s+)?{NUM}(?!\w|\.\d)", 2, 1),
]


def substituted(text: str) -> tuple:
    """Rule 277: a number swapped for another before computing: "What would 5 times 6 be if the 6 were a 7?" is 5 times
    7, as are "5 times 6 with 7 instead of 6" and "5 times 6, but replace the 6 by 7". (the text with the swap made,
    None); (text, the swap's words) when the number replaced is not said exactly once elsewhere; (text, None) when no
    swap is said."""
    for pattern, old, new in SUBSTITUTIONS:
        if swap := re.search(pattern, text, re.I):
            rest = text[:swap.start()] + text[swap.end():]
            said = list(re.finditer(rf"(?<![\w.]){re.escape(swap.group(old))}(?![\w]|\.\d)", rest))
            if len(said) != 1:
                return text, swap.group(0).strip(" ,")
            return rest[:said[0].start()] + swap.group(new) + rest[said[0].end():], None
    return text, None


OUT_OF = rf"(?<![\w.])(?P<n>\d+(?:\.\d+)?) (?:out of|in) (?:every )?(?P<m>\d+(?:\.\d+)?)(?!\w|\.\d)(?! ?(?:{MEASURE})\b)"
SHARE_ASKED = (r"\bhow many (?:is|are|was|were) (?:that|this|those|these|it)\b|\bwhat(?:'s| is| was) (?:that|this|it)(?: as a number)?\W*$|"
               r"\bwhat (?:share|proportion|part|portion|fraction|rate)\b|\bhow (?:much|many) (?:is|are) that\b")


def share_of_group(text: str) -> tuple | None:
    """Rule 292: "N out of M" is a share of a group, never a sum ("9 out of 10 dentists agree. How many is that?" is 90%,
    not 19): asked what it is with no other number, the share in percent; with one group size and "how many", the
    group times N over M ("2 out of every 3 voters ... a town of 600: how many?" is 400). (expression, unit) or None;
    a percentage asked in words stays rule 258's. With what is left asked, the rest of the whole (rule 339)."""
    plain_text = numbers_in_words(named(text).lower())
    found = re.search(OUT_OF, plain_text)
    if not found or re.search(r"%|\bper ?cent", plain_text) or float(found["m"]) == 0 or float(found["n"]) > float(found["m"]):
        return None
    others = [n for n in re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?![\w]|\.\d)", plain_text[:found.start()] + " " + plain_text[found.end():])]
    if not others and re.search(r"\bhow (?:many|much|far|long)\b[^.?!]*\b(?:left|to go|remain\w*)\b", plain_text):
        return f"{found['m']} - {found['n']}", ""  # rule 339: "on page 140 out of 453, how many left?" is what is still to go
    if not others and re.search(SHARE_ASKED, plain_text):
        return f"{found['n']} / {found['m']} * 100", "%"
    if len(others) == 1 and re.search(r"\bhow many\b", plain_text):
        return f"{others[0]} * {found['n']} / {found['m']}", ""
    return None


SIZES = {  # rule 293: every exact unit it converts, by its size in the smallest unit of its kind (whole numbers: no rounding)
    "length": {"mm": 1, "cm": 10, "m": 1000, "km": 1_000_000},
    "mass": {"mg": 1, "g": 1000, "kg": 1_000_000},
    "volume": {"ml": 1, "cl": 10, "l": 1000},
    "time": {"s": 1, "min": 60, "h": 3600, "day": 86400, "week": 604800},
}
UNIT_NAMES = {"mm": "mm", "millimetre": "mm", "millimeter": "mm", "cm": "cm", "centimetre": "cm", "centimeter": "cm",
              "m": "m", "metre": "m", "meter": "m", "km": "km", "kms": "km", "kilometre": "km", "kilometer": "km",
              "mg": "mg", "milligram": "mg", "g": "g", "gram": "g", "gramme": "g", "kg": "kg", "kgs": "kg", "kilo": "kg",
              "kilogram": "kg", "ml": "ml", "millilitre": "ml", "milliliter": "ml", "cl": "cl", "centilitre": "cl", "l": "l",
              "litre": "l", "liter": "l", "s": "s", "sec": "s", "second": "s", "min": "min", "minute": "min", "h": "h", "hr": "h",
              "hour": "h", "day": "day", "week": "week"}
UNIT_WORD = r"(?:[a-z]+)"


def unit_size(word: str) -> tuple | None:
    """(kind, size) of a unit as said ("grams", "kgs", "Litres", "hrs"), or None for a unit not in the table."""
    word = word.lower()
    name = UNIT_NAMES.get(word) or UNIT_NAMES.get(word[:-1] if word.endswith("s") else word)
    return next(((kind, sizes[name]) for kind, sizes in SIZES.items() if name in sizes), None)


def measure_converted(text: str) -> tuple | None:
    """Rule 293: one amount with a unit, asked in another unit of the same kind ("a bag of rice is 2.5 kg, how many grams
    is that?", "convert 750 ml to litres", "how many seconds in 2 weeks?"): the amount times or over the exact factor of
    SIZES, never a guess: (expression, ""); several amounts in other units of that kind: (None, the words asked); None for
    any other message (a unit not in the table, kinds that differ)."""
    said = re.sub(r"[\s,]*\b(?:please|pls|thanks|thank you|for me)\b\W*$", "", plain(text), flags=re.I)  # "... to grams please"
    numbers = re.findall(r"(?<![\w.])\d+(?:\.\d+)?(?![\w.]|\.\d)", re.sub(r"(?<![\w.])(\d+(?:\.\d+)?) ?([a-z]+)", r"\1 \2", said))
    amount = re.search(r"(?<![\w.])(?P<n>\d+(?:\.\d+)?) ?(?P<u>[a-z]+)\b", said)
    asked = re.search(r"\bhow many (?P<u>[a-z]+)\b|\b(?:in|into|to|as) (?P<v>[a-z]+)\W*$", said)
    target = asked and unit_size(asked["u"] or asked["v"])
    if not amount or not target or re.search(rf"{EVERY_UNIT}|\b(?:a|an) (?:day|week|month|year|night)\b", said):
        return None  # "30 minutes every day: how many hours in a week?" is a rate over a span (rule 228)
        return None
    if len(numbers) > 1:  # "I ran 5 km and walked 2 km, how many metres in total?": never the sum in km (an honest no)
        sizes = [unit_size(u) for u in re.findall(r"(?<![\w.])\d+(?:\.\d+)? ?([a-z]+)\b", said)]
        return (None, asked.group().strip(" ?")) if all(s and s[0] == target[0] and s[1] != target[1] for s in sizes) else None
    source = unit_size(amount["u"])
    if not source or source[0] != target[0] or source[1] == target[1]:
        return None
    factor = source[1] // target[1] if source[1] > target[1] else target[1] // source[1]
    return (f"{amount['n']} * {factor}" if source[1] > target[1] else f"{amount['n']} / {factor}"), ""
