"""The course's home page, written over the site's index.html by the build (home.html filled in).

A card per lesson: its title and minutes from the notebook, what you build and "you've seen
it as" from the README's table (the extras: from the notebook's opening), its exercises from
agentloop. Plain links that work before any script runs; the page's script adds the student's
progress, read from the browser's storage.
"""
import html
import json
import re
import sys
from pathlib import Path

from agentloop.progress import course

ROOT = Path(__file__).resolve().parents[1]
README_ROW = re.compile(r"^\| (\d) \| `(\w+)` \| (.+?) \| (.+?) \|$", re.MULTILINE)
README_EXTRA = re.compile(r"^`lessons/extras/(\w+)\.ipynb` (.+?)\.(?=\s)", re.MULTILINE | re.DOTALL)
MINUTES = re.compile(r"\*\*?Time:\*\*? (?:about )?(\d+) minutes")


def opening(path: Path) -> str:
    """The notebook's opening markdown (its first cells, up to the first heading after the title)."""
    cells = ["".join(c["source"]) for c in json.loads(path.read_text())["cells"] if c["cell_type"] == "markdown"]
    return "\n\n".join(cells[:3]).split("\n## ")[0]


def sentence(text: str) -> str:
    """The first sentence of a paragraph, on one line."""
    text = " ".join(text.split())
    return re.split(r"(?<=[.!?])\s+(?=[A-Z`*])", text)[0]


def readme_words() -> dict:
    """Notebook name -> (what you build, "you've seen it as" or None), as the README says them."""
    text = (ROOT / "README.md").read_text()
    words = {m[1]: (m[2][0].upper() + " ".join(m[2][1:].split()), None) for m in README_EXTRA.finditer(text)}
    return {**words, **{m[2]: (m[3], m[4]) for m in README_ROW.finditer(text)}}


def lesson(path: Path, readme: dict) -> dict:
    """A card's facts: the README's words, the notebook's title and minutes, agentloop's exercises."""
    text = opening(path)
    name, title = re.match(r"# (Lesson \d|Extra) · (.+)", text).groups()
    about, seen = readme[path.stem]
    if seen is None:  # an extra says it in its opening, if anywhere
        seen_as = re.search(r"\*\*You've seen it as:\*\* (.+?)(?:\n\n|$)", text, re.DOTALL)
        seen = sentence(seen_as[1]) if seen_as else ""
    minutes = MINUTES.search(text)
    exercises = [e.id for e in course().values() if name == f"Lesson {e.lesson}"]
    return {"path": path.relative_to(ROOT / "lessons").as_posix(), "name": name, "title": title, "about": about,
            "seen": seen, "minutes": minutes and minutes[1], "exercises": exercises}


def inline(text: str) -> str:
    """Markdown's `code` and *emphasis* as HTML, everything else escaped."""
    text = re.sub(r"`([^`]+)`", r"<code>\1</code>", html.escape(text, quote=False))
    return re.sub(r"\*([^*]+)\*", r"<em>\1</em>", text)


def card(entry: dict) -> str:
    link = f'notebooks/index.html?path={entry["path"]}'
    facts = [f'{entry["minutes"]} minutes'] if entry["minutes"] else []
    if entry["exercises"]:
        facts.append(f'<span class="progress">{len(entry["exercises"])} exercises</span>')
    seen = f'<p><b>You\'ve seen it as:</b> {inline(entry["seen"])}</p>' if entry["seen"] else ""
    return (f'<li class="card" data-path="{entry["path"]}" data-exercises="{" ".join(entry["exercises"])}">'
            f'<h3><a href="{html.escape(link)}">{entry["name"]} · {html.escape(entry["title"])}</a></h3>'
            f'<p>{inline(entry["about"])}</p>{seen}<p class="facts">{" · ".join(facts)}</p></li>')


def page(config: str) -> str:
    readme = readme_words()
    lessons = [lesson(p, readme) for p in sorted((ROOT / "lessons").glob("0*.ipynb"))]
    extras = [lesson(p, readme) for p in sorted((ROOT / "lessons" / "extras").glob("*.ipynb"))]
    first = lessons[0]
    return ((ROOT / "lite" / "home.html").read_text()
            .replace("{{lessons}}", "\n".join(card(e) for e in lessons))
            .replace("{{extras}}", "\n".join(card(e) for e in extras))
            .replace("{{jupyter_config}}", config)
            .replace("{{first}}", f'notebooks/index.html?path={first["path"]}')
            .replace("{{first_title}}", html.escape(f'{first["name"]} · {first["title"]}')))


def write(site: Path) -> None:
    """Replace JupyterLite's index.html (a redirect to the file list) with the home page."""
    index = (site / "index.html").read_text()
    config = re.search(r'<script id="jupyter-config-data".*?</script>', index, re.DOTALL)
    if not config:
        sys.exit("lite/home.py: JupyterLite's index.html has no jupyter-config-data, which its apps read")
    (site / "index.html").write_text(page(config[0]))
