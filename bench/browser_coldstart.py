"""Browser cold start: our site against bare Pyodide from the same files, in one headless Chromium.

  site:  page open -> first output of lesson 1 (Run All as soon as the notebook shows), or of a
         one-cell notebook when there is no lesson yet
  floor: page open -> bare Pyodide booted and printing, from the same static/pyodide/ files
Each run uses a fresh browser context (empty cache and storage); the median of RUNS is printed,
with the ratio (goal: at most 1.5) and the site's size (goal: at most 40 MB).
Usage: python bench/browser_coldstart.py [RUNS]   (builds the site first if needed)
"""
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "lite"))
import build  # noqa: E402
import serve  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
BARE = """<!doctype html><title>bare Pyodide</title><script type="module">
const { loadPyodide } = await import('./static/pyodide/pyodide.mjs');
const pyodide = await loadPyodide({ indexURL: './static/pyodide/' });
document.body.textContent = pyodide.runPython('"Python " + __import__("sys").version.split()[0]');
</script><body></body>"""
TINY = {"cells": [{"cell_type": "code", "source": "print('hello')", "metadata": {}, "outputs": [], "execution_count": None}],
        "metadata": {"kernelspec": {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}},
        "nbformat": 4, "nbformat_minor": 5}


def site_first_output(browser, url: str, lesson: str | None) -> tuple[float, float]:
    """(seconds until JupyterLab has started the kernel, seconds until the first output)"""
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(120_000)
    if lesson is None:  # no lesson yet: put a one-cell notebook in browser storage first (not timed)
        page.goto(url + "lab/index.html")
        page.wait_for_function("window.jupyterapp")
        page.evaluate("async nb => { await window.jupyterapp.restored; await window.jupyterapp.serviceManager"
                      ".contents.save('tiny.ipynb', {type: 'notebook', format: 'json', content: nb}); }", TINY)
        page.close()
        page = context.new_page()
        page.set_default_timeout(120_000)
    start = time.perf_counter()
    page.goto(f"{url}lab/index.html?path={lesson or 'tiny.ipynb'}")
    # As a student: the notebook shows with its kernel's name, Run All (committed outputs cleared
    # first: they don't count). Run All before the kernel exists would be lost, in JupyterLab too.
    page.wait_for_function("window.jupyterapp?.commands.isEnabled('notebook:run-all-cells')"
                           " && window.jupyterapp.shell.currentWidget.sessionContext.session?.kernel", polling=50)
    kernel_at = time.perf_counter() - start
    page.evaluate("""() => { const app = window.jupyterapp;
        for (const cell of app.shell.currentWidget.content.widgets) cell.model.outputs?.clear();
        app.commands.execute('notebook:run-all-cells'); }""")
    page.locator(".jp-NotebookPanel .jp-OutputArea-output").first.wait_for()
    elapsed = time.perf_counter() - start
    context.close()
    return kernel_at, elapsed


def bare_boot(browser, url: str) -> float:
    context = browser.new_context()
    page = context.new_page()
    start = time.perf_counter()
    page.goto(url + "bare.html")
    page.wait_for_function("document.body.textContent.startsWith('Python')", timeout=120_000)
    elapsed = time.perf_counter() - start
    context.close()
    return elapsed


def main(runs: int) -> None:
    build.main()
    lessons = sorted((ROOT / "lessons").glob("01_*.ipynb"))
    lesson = lessons[0].name if lessons else None
    with tempfile.TemporaryDirectory() as floor_dir:
        (Path(floor_dir) / "bare.html").write_text(BARE)
        (Path(floor_dir) / "static").symlink_to(build.OUT / "static")  # the very same Pyodide files
        site_server, site_url = serve.start(build.OUT, prefix="/course/")
        floor_server, floor_url = serve.start(Path(floor_dir))
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            site, floor = [], []
            for _ in range(runs):  # interleaved, so a busy moment on the machine hits both
                floor.append(bare_boot(browser, floor_url))
                site.append(site_first_output(browser, site_url, lesson))
            browser.close()
        site_server.shutdown()
        floor_server.shutdown()
    size = sum(p.stat().st_size for p in build.OUT.rglob("*") if p.is_file())
    s, f = statistics.median(t for _, t in site), statistics.median(floor)
    print(f"site: page open -> first output of {lesson or 'a one-cell notebook'}: {s:.2f} s "
          f"(median of {runs}: {', '.join(f'{t:.2f}' for _, t in site)}); of which JupyterLab until "
          f"the kernel starts: {statistics.median(k for k, _ in site):.2f} s")
    print(f"floor: page open -> bare Pyodide ready, same files: {f:.2f} s ({', '.join(f'{t:.2f}' for t in floor)})")
    print(f"ratio: {s / f:.2f} (goal <= 1.5)")
    print(f"site size: {size / 1e6:.1f} MB (goal <= 40 MB)")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
