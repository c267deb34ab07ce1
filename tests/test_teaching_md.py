"""TEACHING.md against the notebooks: every lesson, its minutes, every exercise with its check, links."""
import json
import re
from pathlib import Path

import pytest

from agentloop.progress import course

ROOT = Path(__file__).parent.parent
TEACHING = (ROOT / "TEACHING.md").read_text()
LESSONS = sorted((ROOT / "lessons").glob("0*.ipynb"))
EXTRAS = sorted((ROOT / "lessons" / "extras").glob("*.ipynb"))
MINUTES = re.compile(r"\*\*Time:\*\* about (\d+) minutes")


def cells(path: Path, kind: str) -> list:
    return ["".join(cell["source"]) for cell in json.loads(path.read_text())["cells"] if cell["cell_type"] == kind]


def title(path: Path) -> str:
    return re.match(r"# Lesson \d · (.+)", cells(path, "markdown")[0])[1].strip()


def minutes(path: Path) -> int | None:
    found = [int(m) for text in cells(path, "markdown") for m in MINUTES.findall(text)]
    assert len(found) <= 1, path.name
    return found[0] if found else None


def exercises(path: Path) -> dict:
    """Exercise id -> the check the notebook calls, from the notebook's own text and code."""
    named = {m for text in cells(path, "markdown") for m in re.findall(r"\*\*(\d\.\d)\*\*", text)}
    checks = {m for text in cells(path, "code") for m in re.findall(r"\blesson\d\d\.(check_\w+)\(", text)}
    by_check = {entry.check.__name__: entry for entry in course().values()}
    called = {by_check[check].id: check for check in checks}
    assert named == set(called), f"{path.name}: exercises in the text {sorted(named)}, checked {sorted(called)}"
    return called


def section(lesson: int) -> str:
    match = re.search(rf"^### Lesson {lesson} · [^\n]+\n.*?(?=^##)", TEACHING, re.MULTILINE | re.DOTALL)
    assert match, f"TEACHING.md has no '### Lesson {lesson} · ...' section"
    return match[0]


def table_rows(text: str) -> list:
    return [[c.strip() for c in line.strip("|").split("|")] for line in text.splitlines()
            if line.startswith("|") and not line.startswith("|---")]


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_every_lesson_has_its_section_with_the_notebooks_minutes(path):
    lesson = int(path.name[:2])
    text = section(lesson)
    assert text.startswith(f"### Lesson {lesson} · {title(path)}\n")
    assert f"](lessons/{path.name})" in text
    assert f"](solutions/lesson{lesson:02d}.py)" in text
    stated = re.findall(r"\*\*Time:\*\* (\d+) minutes", text)
    assert stated == [str(minutes(path))], f"lesson {lesson}: TEACHING.md says {stated}, the notebook {minutes(path)}"
    for part in ("**Objectives.**", "**Common mistakes.**", "**Discussion.**"):
        assert part in text, (lesson, part)


@pytest.mark.parametrize("path", LESSONS, ids=[p.stem for p in LESSONS])
def test_every_exercise_appears_with_its_check(path):
    lesson = int(path.name[:2])
    called = exercises(path)
    assert 2 <= len(called) <= 3, f"lesson {lesson} has {len(called)} exercises"
    rows = {row[0].split(" ", 1)[0]: row for row in table_rows(section(lesson)) if re.match(r"\d\.\d ", row[0])}
    assert set(rows) == set(called), f"lesson {lesson}: TEACHING.md lists {sorted(rows)}, the notebook {sorted(called)}"
    for exercise_id, check in called.items():
        entry = course()[exercise_id]
        row = rows[exercise_id]
        assert row[0] == entry.title, (row[0], entry.title)
        assert row[1] == f"`{check}({', '.join(entry.names)})`", (row[1], check, entry.names)
        assert len(row[2]) > 40, f"{exercise_id}: say what the check checks"


def test_the_syllabi_give_each_lesson_once_with_its_minutes():
    workshop, course_weeks = TEACHING.split("## Syllabus: a two-day workshop")[1].split("## Syllabus: a nine-week course")
    course_weeks = course_weeks.split("\n## ")[0]
    expected = {f"lessons/{p.name}": minutes(p) for p in LESSONS}
    for name, text in (("workshop", workshop), ("nine-week course", course_weeks)):
        listed = {}
        for row in table_rows(text):
            link = next((m for cell in row for m in re.findall(r"\]\((lessons/0\d_\w+\.ipynb)\)", cell)), None)
            if link:
                assert link not in listed, f"{name}: {link} twice"
                listed[link] = int(row[row.index(next(c for c in row if link in c)) + 1])
        assert listed == expected, name
    days = workshop.split("**Day ")[1:]
    assert len(days) == 2
    for day in days:
        rows = [int(row[2]) for row in table_rows(day) if row[0].isdigit()]
        total = int(re.search(r"\*\*Total:\*\* (\d+) minutes", day)[1])
        assert total == sum(rows), f"day {day[0]}: stated {total}, the rows add up to {sum(rows)}"


def test_every_extra_is_there_with_its_minutes():
    for path in EXTRAS:
        link = f"](lessons/extras/{path.name})"
        assert link in TEACHING, path.name
        if minutes(path) is not None:
            after = TEACHING.split(f"[lessons/extras/{path.name}]{link[1:]}")[1]
            assert re.match(rf"\s*·\s*\*\*Time:\*\* {minutes(path)} minutes", after), path.name


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def test_every_link_resolves():
    links = re.findall(r"\]\(([^)\s]+)\)", TEACHING)
    assert len(links) > 30
    for link in links:
        if link.startswith(("http://", "https://")):
            continue
        path, _, anchor = link.partition("#")
        target = ROOT / path if path else ROOT / "TEACHING.md"
        assert target.exists(), link
        if anchor:
            headings = re.findall(r"^#+ (.+)$", target.read_text(), re.MULTILINE)
            assert anchor in {slug(h) for h in headings}, link


def test_the_readme_links_it_for_teachers():
    for_teachers = open(ROOT / "README.md").read().split("## For teachers")[1].split("\n## ")[0]
    assert "](TEACHING.md)" in for_teachers


def test_the_slug_and_the_parsers_on_known_text():
    assert slug("For teachers") == "for-teachers"
    assert slug("Lesson 1 · The agent function") == "lesson-1--the-agent-function"
    assert table_rows("| a | b |\n|---|---|\n| 1 | 2 |") == [["a", "b"], ["1", "2"]]
