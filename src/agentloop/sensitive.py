"""Detectors for sensitive text (cards, passwords, emails, phones, birth dates) and orders hidden in data."""
import re

# A card number: 13 to 19 digits, spaces or dashes allowed, not right after a digit or a "+"
# (a phone number such as +49 176 1234 5678 starts with one).
CARD = r"(?<![\d+])\d(?:[ -]?\d){12,18}(?!\d)"
EMAIL = r"\b([\w.+-])[\w.+-]*(@[\w-]+(?:\.[\w-]+)+)\b"
# "pin" alone is a bowling pin or a map pin; a PIN is "pin" with a code of digits right after it.
PASSWORD = r"\b(?:password|passcode|passphrase)\b|\bpin\b\W*(?:(?:code|number|is)\W+)*\d{3,}"
# A phone number: an optional +, then digits with spaces, dashes, dots or brackets between them;
# `phone_numbers` keeps the candidates with 7 to 15 digits (the E.164 maximum) that are not dates.
PHONE = r"(?<![\w-])\+?\(?\d[\d ().-]{5,}\d(?![\w-])"
BIRTH = r"birth|born|\bdob\b"  # birthday, date_of_birth, born_on, dob
A_DAY = r"\d|\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b"  # a date, not a birthplace
A_YEAR = r"\b(?:19|20)\d\d\b"
# An order to the assistant: "ignore" opening a sentence, aimed at its instructions ("Ignore all
# previous instructions", not "Never ignore the brewing rules"); a "System:" line; a note to it.
INSTRUCTION = (r"(?:^|[.!?:]\s+)\W*ignore (?:all |any |your |the |previous |prior |above |earlier )+"
               r"(?:instructions|rules)\b"
               r"|^\W*(?:system|assistant|developer)\s*:"
               r"|\b(?:note|message) to the (?:assistant|ai|model)\b")


def is_card(number):
    """The Luhn check every card number passes: from the right, every second digit doubled."""
    digits = [int(digit) for digit in re.sub(r"\D", "", number)][::-1]
    total = sum(digits[0::2]) + sum(sum(divmod(2 * digit, 10)) for digit in digits[1::2])
    return total % 10 == 0


def card_numbers(text):
    return [match.group() for match in re.finditer(CARD, text) if is_card(match.group())]


def phone_numbers(text):
    def is_phone(candidate):
        digits = re.sub(r"\D", "", candidate)
        return 7 <= len(digits) <= 15 and not re.fullmatch(r"\d{4}-\d\d-\d\d", candidate)
    return [match.group() for match in re.finditer(PHONE, text) if is_phone(match.group())]


def mask_cards(text):
    """Every card number down to its last four digits: '•••• 4444'."""
    for number in card_numbers(text):
        text = text.replace(number, "•••• " + re.sub(r"\D", "", number)[-4:])
    return text


def mask_emails(text):
    """Every email address down to its first letter and its domain: 'a•••@example.com'."""
    return re.sub(EMAIL, r"\1•••\2", text)


def has_password(text):
    return re.search(PASSWORD, text, re.IGNORECASE) is not None


def about_birth(text):
    return re.search(BIRTH, text, re.IGNORECASE) is not None


def has_day(text):
    return re.search(A_DAY, text, re.IGNORECASE) is not None


def has_year(text):
    return re.search(A_YEAR, text) is not None


def reads_like_an_order(text):
    """Does any line of `text` give the assistant orders (the way injected text does)?"""
    return re.search(INSTRUCTION, text, re.IGNORECASE | re.MULTILINE) is not None
