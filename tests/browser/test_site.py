"""The site itself, with no lesson needed: packages, widgets, storage, offline, course updates."""
import json
import re
import subprocess
import sys
from importlib.metadata import version

import pytest

import offline


def stdout(notebook: dict) -> list[str]:
    return ["".join(o["text"]) if isinstance(o["text"], list) else o["text"]
            for cell in notebook["cells"] for o in cell["outputs"] if o.get("name") == "stdout"]


def errors(notebook: dict) -> list[str]:
    return [f"{o['ename']}: {o['evalue']}" for c in notebook["cells"] for o in c["outputs"] if o["output_type"] == "error"]


def test_course_packages_import_with_no_pip_and_nothing_leaves_the_machine(lab):
    ran = lab.scratch("imports.ipynb", ["import agentloop, ipywidgets, pyodide_http, sys\n"
                                        "print(agentloop.__version__, ipywidgets.__version__, sys.platform)"])
    assert not errors(ran), f"{errors(ran)}\n{lab.diagnostics()}"
    assert stdout(ran) == [f"{version('agentloop')} {version('ipywidgets')} emscripten\n"]
    assert lab.outside() == [], f"requests left the machine: {lab.outside()}"
    assert lab.off_prefix() == [], "the site must work under a sub-path, as on a static host"
    # The log must see what the kernel asks for, too: a request to another host is caught (and aborted).
    lab.kernel_run("import pyodide_http, urllib.request\npyodide_http.patch_all()\ntry:\n"
                   "    urllib.request.urlopen('http://example.invalid/from-the-kernel', timeout=5)\nexcept Exception:\n    pass")
    assert lab.outside() == ["http://example.invalid/from-the-kernel"]


def test_widget_renders_and_round_trips(lab):
    lab.scratch("widgets.ipynb", ["import ipywidgets\nslider = ipywidgets.IntSlider(value=3)\n"
                                  "box = ipywidgets.Text(value='')\ndisplay(slider, box)",
                                  "slider.value = 7"])
    page = lab.page
    page.locator(".widget-slider .widget-readout").filter(has_text="7").wait_for(timeout=20_000)  # kernel -> page
    page.locator(".widget-text input").fill("typed in the page")  # page -> kernel (a comm message)
    for _ in range(40):  # the message may take a moment: up to 10 s
        seen = lab.kernel_run("print(box.value)")
        if seen == "typed in the page\n":
            break
        page.wait_for_timeout(250)
    assert seen == "typed in the page\n", f"the kernel saw {seen!r}"
    assert "Error displaying widget" not in page.locator(".jp-OutputArea").first.inner_text()


def test_a_file_the_kernel_writes_survives_a_page_reload(lab):
    lab.scratch("writer.ipynb", ["import json\njson.dump({'name': 'Ada'}, open('kept.json', 'w'))"])
    before, after = lab.files_survive_reload(["kept.json"])
    assert before == {"kept.json": '{"name": "Ada"}'}
    assert after == before


def first_cell(notebook: dict) -> str:
    source = notebook["cells"][0]["source"]
    return "".join(source) if isinstance(source, list) else source


def test_renaming_a_stale_lesson_brings_the_new_version_and_keeps_the_work(new_lab, site_copy):
    """lite/README.md: a student's saved copy hides a newer lesson; Rename keeps it, the new one shows."""
    copy, url = site_copy
    lessons = sorted(p.name for p in (copy / "files").glob("*.ipynb"))
    if not lessons:
        pytest.skip("no lessons in the site yet")
    lesson = lessons[0]
    note = {"cell_type": "markdown", "metadata": {}, "source": "MY NOTES"}
    lab = new_lab(url)
    mine = lab.read(lesson)
    lab.save(lesson, {**mine, "cells": [note, *mine["cells"]]})  # the student's work, saved in the browser
    course = json.loads((copy / "files" / lesson).read_text())  # the teacher publishes a new version
    course["cells"].insert(0, {**note, "source": "COURSE UPDATE"})
    (copy / "files" / lesson).write_text(json.dumps(course))
    offline.add(copy)  # as the build does last: the browser replaces the files it kept
    lab.reload()
    assert first_cell(lab.read(lesson)) == "MY NOTES"  # the stale copy hides the update
    lab.page.locator(".jp-DirListing-item", has_text=lesson).click(button="right")  # the remedy, in the UI
    lab.page.locator(".lm-Menu-item", has_text="Rename").click()
    lab.page.keyboard.press("Control+A")
    lab.page.keyboard.type(f"my-{lesson}")
    lab.page.keyboard.press("Enter")
    lab.page.locator(".jp-DirListing-item", has_text=f"my-{lesson}").wait_for(timeout=10_000)
    assert first_cell(lab.read(lesson)) == "COURSE UPDATE"
    assert first_cell(lab.read(f"my-{lesson}")) == "MY NOTES"


@pytest.fixture
def model_server():
    """`python -m agentloop serve` on a free port: the teaching model over HTTP, as a local model would be."""
    server = subprocess.Popen([sys.executable, "-m", "agentloop", "serve", "--port", "0"],
                              stdout=subprocess.PIPE, text=True)
    try:
        first = server.stdout.readline()  # "The teaching model is at http://127.0.0.1:PORT/v1 ..."
        yield re.search(r"http://127\.0\.0\.1:\d+/v1", first).group(0)
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_the_kernel_reaches_a_model_server_on_this_machine(lab, model_server):
    ran = lab.scratch("server.ipynb", [f"import agentloop\nagentloop.use({model_server!r}, timeout=10)\n"
                                       "print(agentloop.ask([{'role': 'user', 'content': 'What is 2 + 3?'}])['content'])"])
    assert not errors(ran), errors(ran)
    assert "5" in stdout(ran)[0]
    assert lab.outside() == []
