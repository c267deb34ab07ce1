"""The site kept after a first visit (lite/offline.js): lessons reload and open with the server gone, a
new build replaces the kept files and keeps the student's, and a return visit downloads little."""
import json

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

import offline
import serve
from test_kernels import first_cell
from test_lessons import LESSONS, run_and_compare, sanitizers


def wait_until_kept(lab, site) -> str:
    """Wait until the browser keeps every file of the site's build; the name of its cache."""
    kept = offline.manifest(site)
    name, count = f"course-{kept['build']}", len(kept["files"])
    lab.js("""while (!(await caches.has(arg[0])) || (await (await caches.open(arg[0])).keys()).length < arg[1])
                  await sleep(250);""", [name, count], timeout=300)
    return name


def stop(server) -> None:
    server.shutdown()
    server.server_close()  # refused from now on, as with no network


def test_with_the_server_gone_a_lesson_reloads_and_another_opens(new_lab, served_copy, request):
    copy, url, server = served_copy
    lab = new_lab(url)
    lab.visit(LESSONS[0])
    wait_until_kept(lab, copy)
    stop(server)
    lab.visit(LESSONS[0])  # a reload
    assert run_and_compare(lab, LESSONS[0], sanitizers(request.config)) == [], lab.diagnostics()
    lab.visit(LESSONS[2])  # never opened before
    assert run_and_compare(lab, LESSONS[2], sanitizers(request.config)) == [], lab.diagnostics()
    assert lab.outside() == []


def test_a_new_build_replaces_the_kept_files_and_keeps_the_students(new_lab, served_copy):
    copy, url, _ = served_copy
    lab = new_lab(url)
    lab.visit(LESSONS[1])  # the student writes a note at the top of a lesson, and a file
    lab.js("""app.shell.currentWidget.content.model.sharedModel.insertCell(0, {cell_type: 'markdown', source: 'MY NOTES'});
        await app.commands.execute('docmanager:save');
        await app.serviceManager.contents.save('todo.txt', {type: 'file', format: 'text', content: 'read lesson 7'});""")
    old = wait_until_kept(lab, copy)

    lesson = copy / "files" / LESSONS[0]  # the teacher publishes a new build with lesson 1 changed
    course = json.loads(lesson.read_text())
    course["cells"].insert(0, {"cell_type": "markdown", "metadata": {}, "source": "COURSE UPDATE"})
    lesson.write_text(json.dumps(course))
    new = offline.add(copy)["build"]

    # The next visit: the page waits up to 60 s for the new build to be kept (lite/offline.js), then reloads from
    # it, so a loaded machine needs more than the usual 60 s here. On a loaded machine the page has been seen to
    # stall once the new worker takes over (about 1 run in 6; issue 18 keeps it open): a student's reload, tried
    # once here, brings the new build; a second stall fails the test.
    lab.page.set_default_timeout(180_000)
    try:
        lab.visit(LESSONS[0])
    except PlaywrightTimeout:
        lab.visit(LESSONS[0])
    assert first_cell(lab) == "COURSE UPDATE"
    assert lab.js("return (await caches.keys()).filter(name => name.startsWith('course-'))") == [f"course-{new}"]
    assert old != f"course-{new}"
    lab.visit(LESSONS[1])
    assert first_cell(lab) == "MY NOTES"
    assert lab.js("return (await app.serviceManager.contents.get('todo.txt', {content: true})).content") == "read lesson 7"


def test_a_file_asked_for_twice_at_once_is_downloaded_once(new_lab, served_copy, monkeypatch):
    # As the kernel does when an import needs the packages' files while its own early fetch of them is on its way.
    copy, url, _ = served_copy
    sent = []
    monkeypatch.setattr(serve.Handler, "served", sent)
    lab = new_lab(url)
    lab.visit(LESSONS[0])
    pyodide = copy / "static" / "pyodide"
    later = json.loads((pyodide / "kernel.snapshot.json").read_text())["files"]["later"]
    sizes = lab.js("""const url = new URL(arg, location.href);
        return await Promise.all([0, 1, 2].map(async () => (await (await fetch(url)).arrayBuffer()).byteLength));""",
                   f"{url}static/pyodide/{later}")
    assert sizes == [(pyodide / later).stat().st_size] * 3
    assert [path.name for path in sent].count(later) == 1


@pytest.fixture
def kept_visit(new_lab, served_copy, monkeypatch) -> tuple:
    """A first visit to lesson 1, until the site is kept: (the Lab, the paths of the files the server sent)."""
    copy, url, _ = served_copy
    sent = []
    monkeypatch.setattr(serve.Handler, "served", sent)
    lab = new_lab(url)
    lab.visit(LESSONS[0])
    wait_until_kept(lab, copy)
    return lab, sent


def test_a_first_visit_downloads_pythons_files_once(kept_visit):
    python = [path.name for path in kept_visit[1] if path.parent.name == "pyodide"]
    assert sorted(python) == sorted(set(python)), "kept as the kernel downloads them, not downloaded again"
    assert "pyodide.asm.wasm.gz" in python and "pyodide.asm.wasm" not in python  # a third of the bytes


def test_a_return_visit_downloads_less_than_1_mb(kept_visit):
    lab, sent = kept_visit
    # The browser's HTTP cache is a cache: it may have dropped the files by the next day.
    lab.context.new_cdp_session(lab.page).send("Network.clearBrowserCache")
    sent.clear()
    lab.visit(LESSONS[0])
    assert lab.kernel_run("print(6 * 7)") == "42\n"
    size = sum(path.stat().st_size for path in sent)
    assert size < 1_000_000, f"a return visit downloaded {size / 1e6:.1f} MB in {len(sent)} files"
