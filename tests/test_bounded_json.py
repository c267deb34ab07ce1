"""The one bounded JSON reader: a size cap, a nesting cap, named errors, linear time."""
import io
import json
import time
import zipfile

import pytest

from agentloop import bounded_json
from agentloop.bounded_json import TooDeep, TooLarge


def test_deep_nesting_is_too_deep_not_a_recursion_error():
    with pytest.raises(TooDeep, match="more than 128 deep"):
        bounded_json.loads("[" * 100_000 + "]" * 100_000)
    with pytest.raises(TooDeep):
        bounded_json.loads(b'{"cells": ' + b"[" * 100_000)  # unterminated too


def test_brackets_inside_strings_do_not_count():
    text = json.dumps({"s": "[" * 10_000, "t": 'a \\" {{{{ "'})
    assert bounded_json.loads(text) == json.loads(text)
    nested = "[" * 128 + "]" * 128
    assert bounded_json.depth(nested) == 128 and bounded_json.loads(nested)
    with pytest.raises(TooDeep):
        bounded_json.loads("[" + nested + "]")


def test_too_large_is_refused_before_parsing():
    with pytest.raises(TooLarge, match="over the limit of 10"):
        bounded_json.loads('"' + "x" * 20 + '"', max_bytes=10)


def test_both_are_value_errors_so_invalid_json_handlers_catch_them():
    assert issubclass(TooDeep, ValueError) and issubclass(TooLarge, ValueError)


def test_nan_refused_when_asked():
    assert bounded_json.loads("NaN") != bounded_json.loads("NaN")  # accepted by default, as json does
    with pytest.raises(ValueError, match="NaN is not a JSON value"):
        bounded_json.loads('{"model": NaN}', allow_nan=False)


@pytest.mark.parametrize("hostile", ['"\\' * 200_000, '"\\"' * 200_000, "[" * 400_000, '"[' * 200_000],
                         ids=["escapes", "unterminated-quotes", "brackets", "quoted-brackets"])
def test_the_scan_is_linear_on_hostile_text(hostile):
    started = time.monotonic()
    with pytest.raises(ValueError):
        bounded_json.loads(hostile)
    assert time.monotonic() - started < 2


def test_read_stops_a_zip_bomb_while_inflating():
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bomb.ipynb", b"\0" * (50 * 1024 * 1024))
    assert len(buffer.getvalue()) < 100_000
    with zipfile.ZipFile(buffer) as archive, archive.open("bomb.ipynb") as member:
        with pytest.raises(TooLarge):
            bounded_json.read(member, max_bytes=1024 * 1024)
