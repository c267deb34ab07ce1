"""What lessons 7-9 promise about themselves. (Their exercise checks are tested in
test_exercises_lesson07.py, test_exercises_lesson08.py and test_exercises_lesson09.py.)"""
import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent


LESSONS = {7: "07_policy.ipynb", 8: "08_self_scheduling.ipynb", 9: "09_the_whole_thing.ipynb"}


def cells(number):
    return json.loads((ROOT / "lessons" / LESSONS[number]).read_text())["cells"]


def code_lines(cell):
    return [line for line in "".join(cell["source"]).splitlines() if line.strip() and not line.strip().startswith("#")]


@pytest.mark.parametrize("number", LESSONS)
def test_lessons_7_to_9_never_touch_lesson_6s_memory_file(number):
    """Only the carried agent names lesson 6's file, and the lesson points the agent at its own: a cell
    before the carried agent sets the setting lesson 7's agent names its files by, or the lesson's next
    cell after it names the file."""
    code = [c for c in cells(number) if c["cell_type"] == "code"]
    carried = [i for i, c in enumerate(code) if "carried" in c["metadata"].get("tags", [])]
    own = "".join(code[carried[-1] + 1]["source"]) if carried else ""
    before = "".join("".join(c["source"]) for c in code[:carried[0]]) if carried else ""
    source = "\n".join("".join(c["source"]) for i, c in enumerate(code) if i not in carried)
    assert '"memory.json"' not in source and "'memory.json'" not in source
    assert not carried or f'MEMORY_FILE = "memory_0{number}.json"' in own or (
        f'os.environ["COURSE_LESSON"] = "0{number}"' in before)


@pytest.mark.parametrize("number", LESSONS)
def test_exercises_ship_unsolved_and_their_output_is_the_hint(number):
    exercises = [c for c in cells(number) if c["cell_type"] == "code" and "# your code here" in "".join(c["source"])]
    assert len(exercises) == 3
    for cell in exercises:
        printed = "".join(cell["outputs"][0]["text"])
        assert printed.startswith(f"❌ {number}.") and "Traceback" not in printed


@pytest.mark.parametrize("number", LESSONS)
def test_each_lesson_has_the_course_sections(number):
    text = "\n".join("".join(c["source"]) for c in cells(number) if c["cell_type"] == "markdown")
    for section in ("**You've seen it as:**", "## Exercises", "## In production", "## What happened"):
        assert section in text
