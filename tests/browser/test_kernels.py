"""One kernel per student: the course's links open each lesson on its own page (the Notebook app), so
a link starts its lesson's kernel and no other, a return visit starts at most one, and moving from
lesson to lesson loses nothing of the student's (lite/README.md, "One lesson, one kernel")."""
import json

from test_lessons import LESSONS

# A student's own notebook: memory.json counts the runs, so a lost file shows as a count back at 1.
CODE = ["import json, os\n"
        "memory = json.load(open('memory.json')) if os.path.exists('memory.json') else {'name': 'Ada', 'runs': 0}\n"
        "memory['runs'] += 1\n"
        "json.dump(memory, open('memory.json', 'w'))",
        "print(open('memory.json').read())"]
MINE = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None, "source": code}
                  for code in CODE],
        "metadata": {"kernelspec": {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}},
        "nbformat": 4, "nbformat_minor": 5}


def run_current(lab) -> str:
    """Run All in the lesson on the page, as the student's button does; what its last cell printed."""
    return lab.js("""const panel = app.shell.currentWidget;
        for (const cell of panel.content.widgets) cell.model.outputs?.clear();
        await app.commands.execute('notebook:run-all-cells');
        while (panel.sessionContext.session?.kernel?.status !== 'idle') await sleep(100);
        return panel.content.widgets.at(-1).outputArea.node.textContent;""", timeout=120)


def first_cell(lab) -> str:
    return lab.js("return app.shell.currentWidget.content.model.cells.get(0).sharedModel.getSource()")


def test_one_kernel_at_a_time_and_nothing_of_the_students_is_lost(lab):
    first, second = LESSONS[0], LESSONS[1]
    assert lab.kernels() == 0  # the plain page starts none
    lab.save("mine.ipynb", MINE)
    lab.js("await app.serviceManager.contents.save('todo.txt', {type: 'file', format: 'text', content: 'read lesson 7'})")

    lab.visit("mine.ipynb")  # by a link: its kernel starts with the page
    assert lab.kernels() == 1
    assert json.loads(run_current(lab)) == {"name": "Ada", "runs": 1}
    assert lab.kernels() == 1  # Run All used the kernel the link started

    lab.visit(second)  # the student writes a note at the top of a lesson and saves it (Ctrl+S)
    lab.js("""app.shell.currentWidget.content.model.sharedModel.insertCell(0, {cell_type: 'markdown', source: 'MY NOTES'});
        await app.commands.execute('docmanager:save');""")
    for lesson in [first, second, "mine.ipynb", first]:  # lesson after lesson by link, in one tab
        lab.visit(lesson)
        assert lab.kernels() == 1, f"{lesson} opened by link: only its own kernel runs"
    assert first_cell(lab) != "MY NOTES"

    lab.visit(app="tree")  # a return visit, to the lesson list: no lesson open, no kernel
    lab.page.wait_for_timeout(2000)  # a kernel started late would show by now
    assert lab.kernels() == 0
    lab.visit(second)
    assert first_cell(lab) == "MY NOTES"  # the edited copy, not the course's
    lab.visit("mine.ipynb")
    assert lab.kernels() == 1
    assert json.loads(run_current(lab)) == {"name": "Ada", "runs": 2}  # memory.json was kept
    assert lab.js("return (await app.serviceManager.contents.get('todo.txt', {content: true})).content") == "read lesson 7"
    assert lab.outside() == []


def test_the_lesson_list_opens_each_lesson_on_its_own_page(lab):
    lab.page.goto(lab.url)  # the site's address, as a teacher hands it out: the course's home page
    lab.page.get_by_role("link", name="All files").click()
    lab.page.wait_for_url("**/tree/**")
    lab.page.wait_for_function("window.jupyterapp")
    listed = lab.page.locator(".jp-DirListing-item", has_text=LESSONS[0])
    with lab.context.expect_page() as opened:
        listed.dblclick()
    page = opened.value  # a new browser tab, with the lesson on its own and its kernel
    page.wait_for_url(f"**/notebooks/?path={LESSONS[0]}")
    page.wait_for_function("window.jupyterapp?.shell.currentWidget?.sessionContext?.session?.kernel", timeout=60_000)
    assert lab.kernels() == 0  # the list itself runs nothing
    page.close()


# Notes, in the page's own clock, when the first worker (the kernel's) is created and when the
# notebook first shows.
CLOCKS = """
window.Worker = class extends window.Worker {
    constructor(...args) { super(...args); window.kernelWorkerAt ??= performance.now(); }
};
new MutationObserver((_, observer) => {
    if (document.querySelector('.jp-NotebookPanel')) { window.notebookShownAt = performance.now(); observer.disconnect(); }
}).observe(document, {childList: true, subtree: true});
"""


def test_a_link_starts_its_kernel_before_the_notebook_shows(lab):
    lab.context.add_init_script(CLOCKS)
    lab.visit(LESSONS[0])
    worker, shown = lab.js("return [window.kernelWorkerAt, window.notebookShownAt]")
    assert worker < shown, f"the kernel started {(worker - shown) / 1000:.2f} s after the notebook showed"
    assert lab.kernels() == 1
    assert lab.outside() == []


def test_a_second_visit_keeps_the_service_worker(lab):
    said = []
    lab.page.on("console", lambda message: said.append(message.text))
    for _ in range(3):
        lab.visit(LESSONS[0])
    assert not [line for line in said if "unregistering" in line]  # JupyterLite once re-registered every second visit


def test_a_kernel_started_as_the_page_opens_sees_the_students_files(lab):
    # A kernel created while JupyterLite registers its service worker got no drive (the student's
    # files). It did so on every second visit, and slowly on a busy machine (slowed down here).
    lab.context.add_init_script("""const unregister = ServiceWorkerRegistration.prototype.unregister;
        ServiceWorkerRegistration.prototype.unregister = function () {
            return new Promise(ok => setTimeout(ok, 3000)).then(() => unregister.call(this)); };""")
    lab.js("await app.serviceManager.contents.save('todo.txt', {type: 'file', format: 'text', content: 'read lesson 7'})")
    lab.save("mine.ipynb", MINE)
    read = "import os; print(os.getcwd(), open('todo.txt').read())"
    for visit in range(2):
        lab.start()  # JupyterLab, a notebook opened as soon as the page is up
        lab.open("mine.ipynb")
        assert lab.kernel_run(read) == "/drive read lesson 7\n", f"JupyterLab, visit {visit + 2}"
        lab.visit("mine.ipynb")  # a link: the kernel starts with the page
        assert lab.kernel_run(read) == "/drive read lesson 7\n", f"a link, visit {visit + 2}"


def test_jupyterlab_restores_lessons_without_their_kernels(lab):
    for lesson in LESSONS[:3]:
        lab.open(lesson)
    assert lab.kernels() == 3
    lab.save("mine.ipynb", MINE)
    lab.open("mine.ipynb")
    lab.page.wait_for_timeout(2000)  # JupyterLab saves its layout on a change, in its own time
    lab.reload()  # a return visit: the four tabs are back
    restored = lab.js("""while ([...app.shell.widgets('main')].filter(w => w.context).length < 4) await sleep(100);
        return [...app.shell.widgets('main')].filter(w => w.context).map(w => w.context.path).sort()""")
    assert restored == sorted([*LESSONS[:3], "mine.ipynb"])
    lab.page.wait_for_timeout(2000)  # a kernel started late would show by now
    assert lab.kernels() == 0
    lab.js("app.shell.activateById([...app.shell.widgets('main')].find(w => w.context?.path === 'mine.ipynb').id)")
    assert json.loads(run_current(lab)) == {"name": "Ada", "runs": 1}  # Run All starts its kernel
    assert lab.kernels() == 1
