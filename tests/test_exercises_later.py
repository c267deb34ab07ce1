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



@pytest.mark.parametrize("number", [7, 8])
def test_the_agent_opens_the_files_the_setting_names_and_no_other(number, tmp_path):
    """A lesson sets COURSE_LESSON once, before the carried agent runs: lesson 7's agent (and lesson 8's) then
    loads the memory file that setting names, and lesson 8's queue file too, and writes nothing else, whatever
    files other lessons left. "42" shows it is the setting that decides, not the lesson's number."""
    import os
    import subprocess
    import sys
    sys.path.insert(0, str(ROOT / "tests"))
    from test_continuity import agent_at_end
    left = {f"memory_{name}.json": {"city": {"value": f"city {name}", "until": None}} for name in ("06", "07", "08", "09", "42")}
    left.update({f"queue_{name}.json": [] for name in ("07", "08", "42")})
    for name, content in left.items():
        (tmp_path / name).write_text(json.dumps(content))
    program = agent_at_end(number) + (
        "\nimport json\nprint(json.dumps({'file': MEMORY_FILE, 'memory': memory}))"
        "\nremember('pet', 'a cat')\n" + ("add_task('call mum', NOW)\n" if number == 8 else ""))
    run = subprocess.run([sys.executable, "-c", program], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                         env={**os.environ, "COURSE_LESSON": "42"})
    assert run.returncode == 0, run.stderr
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert seen == {"file": "memory_42.json", "memory": left["memory_42.json"]}
    written = {path.name.removesuffix(".bak") for path in tmp_path.iterdir()  # save_json keeps a backup beside
               if json.loads(path.read_text()) != left.get(path.name)}
    assert written == ({"memory_42.json", "queue_42.json"} if number == 8 else {"memory_42.json"})
