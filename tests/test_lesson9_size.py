"""Lesson 9 grows lesson 8's agent in at most 90 counted lines, in readable cells.

Counted: the non-blank, non-comment lines of lesson 9's cells tagged `agent` (the new agent code;
the `carried` cells are lesson 8's agent, checked by test_continuity.py). Each of those cells has at
most 15 non-blank lines, every line at most 100 characters, and no line packs two statements (no
`;`, no `if x: y` on one line). The lesson's text and the README state the real count.
"""
import ast
import json
import pathlib

ROOT = pathlib.Path(__file__).parent.parent
LESSON = ROOT / "lessons" / "09_the_whole_thing.ipynb"
CELLS = json.loads(LESSON.read_text())["cells"]
AGENT = ["".join(cell["source"]) for cell in CELLS if "agent" in cell["metadata"].get("tags", [])]
LIMIT = 90


def counted(source: str) -> list:
    return [line for line in source.splitlines() if line.strip() and not line.strip().startswith("#")]


def test_the_new_agent_code_is_at_most_90_counted_lines():
    assert AGENT, "no cell is tagged agent"
    assert sum(len(counted(source)) for source in AGENT) <= LIMIT


def test_cells_are_short_and_lines_narrow():
    for source in AGENT:
        assert len([line for line in source.splitlines() if line.strip()]) <= 15, source[:80]
        assert max(len(line) for line in source.splitlines()) <= 100, source[:80]


def test_no_line_holds_two_statements():
    for source in AGENT:
        tree = ast.parse(source)
        starts = [node.lineno for node in ast.walk(tree) if isinstance(node, ast.stmt)]
        assert len(starts) == len(set(starts)), f"two statements start on one line in:\n{source}"


def test_the_lesson_and_readme_give_the_real_count():
    total = sum(len(counted(source)) for source in AGENT)
    text = " ".join("".join(cell["source"]) for cell in CELLS if cell["cell_type"] == "markdown")
    assert f"**{total} lines**" in text
    readme = (ROOT / "README.md").read_text()
    assert f"{total} lines" in readme and "sixty" not in readme and "70 lines" not in readme
