"""Lesson 9 is the whole agent in at most 70 counted lines, and its memory outlives the kernel.

Counted: the non-blank, non-comment lines of the cells tagged `whole-thing` (the agent's cells).
Each of those cells has at most 15 non-blank lines, every line at most 100 characters, and no line
packs two statements (no `;`, no `if x: y` on one line). The lesson's text states the real count.
"""
import ast
import json
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).parent.parent
LESSON = ROOT / "lessons" / "09_the_whole_thing.ipynb"
CELLS = json.loads(LESSON.read_text())["cells"]
AGENT = ["".join(cell["source"]) for cell in CELLS if "whole-thing" in cell["metadata"].get("tags", [])]


def counted(source: str) -> list:
    return [line for line in source.splitlines() if line.strip() and not line.strip().startswith("#")]


def test_the_whole_agent_is_at_most_70_counted_lines():
    assert AGENT, "no cell is tagged whole-thing"
    assert sum(len(counted(source)) for source in AGENT) <= 70


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
    assert f"{total} lines" in readme and "sixty" not in readme


def _run(code: str, folder) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], cwd=folder, capture_output=True, text=True,
                          timeout=120, check=True)


def test_a_fresh_folder_run_leaves_a_memory_a_new_kernel_reads_back(tmp_path):
    """Run the agent's cells and the lesson's chat in an empty folder, then only the load step
    (the first agent cell) in a new interpreter: the user's name comes back."""
    talk = next("".join(c["source"]) for c in CELLS if "def chat(question):" in "".join(c["source"]))
    _run("\n\n".join(AGENT + [talk]), tmp_path)
    saved = json.loads((tmp_path / "memory_09.json").read_text())
    assert any("Ada" in item["content"] for item in saved["items"])
    assert not any("hunter2" in item["content"] for item in saved["items"])  # the gate held
    reloaded = _run(AGENT[0] + "\nprint(json.dumps([m.content for m in store.list('user:42')]))", tmp_path)
    contents = json.loads(reloaded.stdout.strip().splitlines()[-1])
    assert any("Ada" in content for content in contents)
