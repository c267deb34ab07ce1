"""agentloop.show_changes: the diff a lesson prints under a redefined function, checked against difflib.ndiff."""
import difflib
import re

import agentloop
from agentloop.changes import show_changes

OLD = "def f(x):\n    y = x\n    return y\n" + "".join(f"    # note {n}\n" for n in range(8)) + "    pass\n"
NEW = OLD.replace("def f(x):", "def f(x, z=1):").replace("    pass\n", "    y += z\n    pass\n")


def marks(old, new):
    """What went and what came, by a different route: ndiff's full listing, no grouping."""
    lines = list(difflib.ndiff(old.splitlines(), new.splitlines()))
    return [l[2:] for l in lines if l.startswith("- ")], [l[2:] for l in lines if l.startswith("+ ")]


def test_the_lines_that_went_and_came_are_ndiffs():
    changes = show_changes(OLD, NEW)
    gone, came = marks(OLD, NEW)
    assert [line for mark, line in changes.rows if mark == "-"] == gone == ["def f(x):"]
    assert [line for mark, line in changes.rows if mark == "+"] == came == ["def f(x, z=1):", "    y += z"]
    assert changes.summary == "the code: 1 line changed, 1 added"


def test_far_apart_changes_leave_out_the_lines_between():
    text = repr(show_changes(OLD, NEW))
    assert "\n...\n" in text and "# note 3" not in text  # one line of context either side, no more
    assert text.splitlines()[1:3] == ["- def f(x):", "+ def f(x, z=1):"]


def test_a_shorter_function_counts_as_the_lessons_change_notes_do():
    # tests/test_continuity.py: "4 lines changed, 1 removed" is 5 lines that went and 4 that came
    old = "a\nb\nc\nd\ne\n"
    new = "A\nB\nC\nD\n"
    assert show_changes(old, new).summary == "the code: 4 lines changed, 1 removed"
    assert show_changes(old, old).summary == "the code: no change" and show_changes(old, old).rows == []


def test_a_function_is_read_from_its_source_and_named():
    def before(a):
        return a

    def after(a):
        return a + 1

    changes = show_changes(before, after)
    assert changes.summary == "after: 2 lines changed, 0 added"
    assert ("+", "        return a + 1") in changes.rows


def test_html_escapes_the_code_and_colours_each_mark():
    page = show_changes("x = '<b>'\n", "x = '<i>'\n")._repr_html_()
    assert "<b>'" not in page and "&lt;i&gt;" in page
    assert re.search(r'line-through">- x = ', page) and re.search(r'#dcf5dc">\+ x = ', page)


def test_it_is_offered_by_the_package():
    assert agentloop.show_changes is show_changes and "show_changes" in agentloop.__all__


def test_code_run_by_exec_gets_a_sentence_not_a_traceback():
    # the grader runs a student's cells with exec, where no source is kept to read
    scope = {}
    exec("def run_agent(q):\n    return q\n", scope)
    changes = show_changes(scope["run_agent"], scope["run_agent"])
    assert changes.rows == [] and changes.summary.startswith("run_agent: no diff to show")
