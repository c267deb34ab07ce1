"""Reading JSON nobody vouches for: a size cap and a nesting cap, checked before parsing.

Python's json module has neither: a body of 500 MB is read whole, and one nested 100,000 deep
raises RecursionError. `loads` refuses both with a named error (a ValueError, so code that
already catches invalid JSON catches these too), in time linear in the input: the nesting is
counted by a scan of the brackets outside strings, not by recursion. `read` takes at most
`max_bytes` from a file or a stream, whatever its header or its size on disk says.
"""
import itertools
import json
import re

MAX_BYTES = 64 * 1024 * 1024  # far above any chat answer, notebook or memory file the course makes
MAX_DEPTH = 128  # far above any real request, notebook or saved memory (they nest under 20)

# A string, with its closing quote optional: an unterminated one runs to the end, so every character
# is looked at once and nothing backtracks.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?', re.S)
_NOT_A_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


class TooLarge(ValueError):
    """More bytes than the cap."""


class TooDeep(ValueError):
    """Arrays and objects nested deeper than the cap."""


def depth(text: str) -> int:
    """How deep arrays and objects nest in JSON text (brackets inside strings do not count)."""
    brackets = _NOT_A_BRACKET.sub("", _STRING.sub("", text))
    return max(itertools.accumulate(map(_STEP.__getitem__, brackets)), default=0)


def check(text, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> str:
    """The text (bytes are decoded as json.loads would), or TooLarge / TooDeep."""
    if len(text) > max_bytes:
        raise TooLarge(f"is {len(text):,} bytes, over the limit of {max_bytes:,}")
    if isinstance(text, (bytes, bytearray)):
        text = text.decode(json.detect_encoding(text), "surrogatepass")
    if text.count("[") + text.count("{") > max_depth and depth(text) > max_depth:
        raise TooDeep(f"nests arrays and objects more than {max_depth} deep")
    return text


def _no_constant(name):
    raise ValueError(f"{name} is not a JSON value")


def loads(text, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH, allow_nan: bool = True):
    """json.loads within the caps; NaN and Infinity refused too unless `allow_nan`."""
    text = check(text, max_bytes, max_depth)
    return json.loads(text) if allow_nan else json.loads(text, parse_constant=_no_constant)


def read(stream, max_bytes: int = MAX_BYTES) -> bytes:
    """At most `max_bytes` from a binary file or stream (a zip member inflates only that far)."""
    data = stream.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise TooLarge(f"is over the limit of {max_bytes:,} bytes")
    return data
