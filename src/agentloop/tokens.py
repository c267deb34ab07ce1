"""Counting tokens, roughly, with no tokenizer to download.

Real models read text as sub-word tokens (about four characters each in English) and
bill by them; context windows and memory budgets are measured in them. We count each
word and each punctuation mark as one token: close enough to plan budgets, and the
same on every machine.
"""
import re


def count_tokens(text: str) -> int:
    """About how many tokens `text` is (words plus punctuation marks)."""
    return len(re.findall(r"\w+|[^\w\s]", text or ""))
