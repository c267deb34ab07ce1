"""The course's home page at the site's address: every lesson by its title and link, before any
script runs; the student's progress as `agentloop.progress()` counts it, after a pass and a reload;
and each lesson's closing links, on to the next lesson and back home, in both apps."""
import json
import re
from pathlib import Path

import pytest
from lab import leaves_machine

ROOT = Path(__file__).resolve().parents[2]
LESSONS = sorted((ROOT / "lessons").glob("0*.ipynb")) + sorted((ROOT / "lessons" / "extras").glob("*.ipynb"))
PASS = (ROOT / "solutions" / "lesson01.py").read_text() + """
import json
from agentloop.progress import course
print(json.dumps([e.id for e in course().values() if e.lesson == 1 and all(n in globals() for n in e.names)
                  and e.run(*[globals()[n] for n in e.names])]))
"""
PROGRESS = """import json, agentloop
rows = agentloop.progress().rows
print(json.dumps({f"Lesson {n}": f"{sum(r['result'] == 'passed' for r in rows if r['lesson'] == n)} of "
                  f"{sum(r['lesson'] == n for r in rows)} exercises passed" for n in sorted({r['lesson'] for r in rows})}))"""
SHOWN = """[...document.querySelectorAll('.card .progress')].map(p =>
    [p.closest('.card').querySelector('h3 a').textContent.split(' · ')[0], p.textContent.replace(' ✓ finished', '')])"""


def title(path: Path) -> str:
    """A notebook's title, as its first heading says it: `Lesson 3 · The loop`, `Extra · Real models`."""
    return json.loads(path.read_text())["cells"][0]["source"][0].removeprefix("# ").strip()


def test_every_lesson_is_listed_with_its_title_and_link_before_any_script_runs(browser, site_url):
    context = browser.new_context(java_script_enabled=False)  # a page whose script is slow or fails
    outside = []
    context.route(leaves_machine, lambda route: (outside.append(route.request.url), route.abort()))
    page = context.new_page()
    page.goto(site_url)
    cards = [(link.inner_text(), link.get_attribute("href")) for link in page.locator(".card h3 a").all()]
    assert cards == [(title(p), f"notebooks/index.html?path={p.relative_to(ROOT / 'lessons').as_posix()}") for p in LESSONS]
    assert page.locator("#continue").get_attribute("href") == "notebooks/index.html?path=01_agent_function.ipynb"
    assert page.locator("footer a").evaluate_all("links => links.map(a => a.getAttribute('href'))") == \
        ["tree/index.html", "lab/index.html"]
    assert "agentloop.connect()" in page.locator("body").inner_text()  # which model, and where to change it
    context.close()
    assert not outside, outside


def test_a_lesson_link_on_the_home_page_opens_the_lesson(lab):
    lab.page.goto(lab.url)
    lab.page.get_by_role("link", name=title(LESSONS[2])).click()
    lab.page.wait_for_function("window.jupyterapp?.shell.currentWidget?.context?.path === '03_the_loop.ipynb'")
    assert lab.page.url == lab.url + "notebooks/index.html?path=03_the_loop.ipynb"
    assert not lab.outside(), lab.outside()


def test_progress_on_the_home_page_is_agentloop_progress_after_a_pass_and_a_reload(lab):
    lab.page.goto(lab.url)
    assert lab.page.locator("#continue").inner_text().startswith("Start with Lesson 1")
    lab.visit("01_agent_function.ipynb")
    passed = json.loads(lab.kernel_run(PASS).splitlines()[-1])
    assert passed, f"the reference solutions should pass lesson 1's checks\n{lab.diagnostics()}"
    expected = json.loads(lab.kernel_run(PROGRESS))
    assert expected["Lesson 1"] == f"{len(passed)} of 3 exercises passed"

    lab.page.goto(lab.url)
    for _ in range(20):  # the kernel's file reaches the browser's storage through JupyterLite's drive
        shown = dict(lab.page.evaluate(SHOWN))
        if shown == expected:
            break
        lab.page.wait_for_timeout(500)
        lab.page.reload()
    assert shown == expected
    unfinished = next(name for name, text in expected.items() if not re.match(r"(\d+) of \1 ", text))
    assert lab.page.locator("#continue").inner_text().startswith(f"Continue with {unfinished} ·")
    total = sum(int(text.split()[0]) for text in expected.values())
    assert lab.page.locator("#overall").inner_text().startswith(f"{total} of ")
    assert not lab.outside(), lab.outside()


@pytest.mark.parametrize("app", ["notebooks", "lab"])
def test_a_lesson_ends_with_links_to_the_next_lesson_and_back_home(lab, app):
    lab.visit("01_agent_function.ipynb", app=app)
    lab.js("""const notebook = app.shell.currentWidget.content;
        notebook.activeCellIndex = notebook.widgets.length - 1;
        await notebook.scrollToItem(notebook.widgets.length - 1);""")
    last = lab.page.locator(".jp-MarkdownCell").last
    next_link, home = last.get_by_role("link", name=title(LESSONS[1])), last.get_by_role("link", name="course home")
    home.wait_for()
    with lab.context.expect_page() as opened:  # the home page, in a tab of its own
        home.click()
    opened.value.wait_for_load_state()
    assert opened.value.url.startswith(lab.url + "index.html")
    assert opened.value.locator("h1").inner_text() == "Build an LLM agent from scratch"
    opened.value.close()
    if app == "notebooks":  # the Notebook app opens another lesson in a new tab
        with lab.context.expect_page() as opened:
            next_link.click()
        opened.value.wait_for_url("**/notebooks/index.html?path=02_tools.ipynb", timeout=60_000)
        opened.value.close()
    else:  # JupyterLab opens it beside the first
        next_link.click()
        lab.page.wait_for_function("window.jupyterapp.shell.currentWidget?.context?.path === '02_tools.ipynb'")
    assert not lab.outside(), lab.outside()
