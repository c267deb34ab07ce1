"""The output comparison of test_lessons.py, checked without a browser: it must be able to fail."""
from test_lessons import ANSI, SANITIZE, problems


def notebook(*cells):
    return {"cells": [{"cell_type": "code", "source": "x", "metadata": {"tags": tags}, "outputs": outs}
                      for outs, tags in cells]}


def out(text, name="stdout"):
    return {"output_type": "stream", "name": name, "text": text}


def test_equal_outputs_pass_and_streams_are_merged_and_sanitised():
    committed = notebook(([out("a\nb\n"), {"output_type": "execute_result", "data": {"text/plain": "<X at 0x7f00>"}}], []))
    ran = notebook(([out("a\n"), out("\x1b[1mb\x1b[0m\n"), {"output_type": "execute_result", "data": {"text/plain": "<X at 0x1234>"}}], []))
    assert problems("L", committed, ran, SANITIZE) == []
    assert ANSI.sub("", "\x1b[31mred\x1b[0m") == "red"


def test_a_changed_output_an_error_or_a_missing_cell_fails():
    committed = notebook(([out("4\n")], []))
    assert "output differs" in problems("L", committed, notebook(([out("5\n")], [])), [])[0]
    error = {"output_type": "error", "ename": "NameError", "evalue": "name 'x' is not defined", "traceback": []}
    assert "raised NameError" in problems("L", committed, notebook(([out("4\n"), error], [])), [])[0]
    assert "cells in the browser" in problems("L", committed, notebook(), [])[0]


def test_tags_work_as_under_nbval():
    error = {"output_type": "error", "ename": "ValueError", "evalue": "bad", "traceback": []}
    committed = notebook(([out("1\n")], ["nbval-ignore-output"]), ([error], ["raises-exception"]))
    assert problems("L", committed, notebook(([out("2\n")], []), ([error], [])), []) == []
