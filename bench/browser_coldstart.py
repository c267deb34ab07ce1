"""Browser start-up: our site against bare Pyodide from the same files, in one headless Chromium.

  cold:    page open -> first output of lesson 1 (Run All as soon as the notebook shows), fresh
           browser context (empty cache and storage); floor: bare Pyodide booted and printing
  warm:    the same, on a second visit in the same context (HTTP cache and storage filled)
  session: lessons 1..9 opened one after another by their links in one tab (LESSON_URL); the
           9th lesson's first output against the 1st's, and the kernels running after a return visit
  memory:  the page's JS heap (CDP JSHeapUsedSize) and the renderer processes' PSS (page + kernel
           workers, where Pyodide's memory lives) with 1 and with 9 lessons opened
  download: what a first visit to lesson 1 fetches until its first output (largest files first), then
           until the site is kept offline, and a return visit, as a static host sends it (text gzipped)
Medians of RUNS for cold and warm; the session runs once. Goals: ratio <= 1.0, 9th within 10% of
the 1st, at most 1 kernel on arrival, a first visit's download until the first output <= 20 MB.
Usage: python bench/browser_coldstart.py [RUNS]   (builds the site first if needed)
"""
import gzip
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path

import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "lite"))
import build  # noqa: E402
import offline  # noqa: E402
import serve  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

# How a student opens a lesson by its link: change it here if the course opens lessons elsewhere.
LESSON_URL = "notebooks/index.html?path={lesson}"  # the Notebook app, one lesson a page (lite/README.md)
TAG = f"--bench-tag={uuid.uuid4()}"  # finds this benchmark's browser among the machine's processes
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync", TAG]
BARE = """<!doctype html><title>bare Pyodide</title><script type="module">
const { loadPyodide } = await import('./static/pyodide/pyodide.mjs');
const pyodide = await loadPyodide({ indexURL: './static/pyodide/' });
document.body.textContent = pyodide.runPython('"Python " + __import__("sys").version.split()[0]');
</script><body></body>"""
KERNELS = "Array.from(window.jupyterapp.serviceManager.kernels.running()).length"
# What static hosts (GitHub Pages, Netlify) gzip: text. Wasm, wheels, zips and .gz files go as they are.
COMPRESSED = {".html", ".js", ".mjs", ".css", ".json", ".ipynb", ".svg", ".txt", ".map"}


def first_output(page, url: str, lesson: str) -> tuple[float, float]:
    """(seconds until JupyterLab has started the lesson's kernel, seconds until its first output)"""
    start = time.perf_counter()
    page.goto(url + LESSON_URL.format(lesson=lesson))
    # As a student: the notebook shows with its kernel's name, Run All (committed outputs cleared
    # first: they don't count). Run All before the kernel exists would be lost, in JupyterLab too.
    panel = "[...window.jupyterapp?.shell.widgets('main') ?? []].find(w => w.context?.path === lesson)"
    page.wait_for_function(f"""lesson => {{ const panel = {panel};
        return panel?.sessionContext.session?.kernel && window.jupyterapp.commands.isEnabled('notebook:run-all-cells'); }}""",
                           arg=lesson, polling=50)
    kernel_at = time.perf_counter() - start
    page.evaluate(f"""lesson => {{ const app = window.jupyterapp, panel = {panel};
        app.shell.activateById(panel.id);
        for (const cell of panel.content.widgets) cell.model.outputs?.clear();
        app.commands.execute('notebook:run-all-cells'); }}""", lesson)
    page.wait_for_function(f"lesson => {panel}.content.widgets.some(cell => cell.model.outputs?.length)",
                           arg=lesson, polling=50)
    return kernel_at, time.perf_counter() - start


def hosted(files: list[Path]) -> int:
    """Bytes a static host that gzips text sends for these files."""
    return sum(len(gzip.compress(f.read_bytes(), 6)) if f.suffix in COMPRESSED else f.stat().st_size for f in files)


def downloads(browser, url: str, lesson: str) -> dict:
    """The files the server sends: on a first visit until `lesson`'s first output, then until the site
    is kept for offline use (lite/offline.js), and on a return visit with the HTTP cache emptied."""
    kept = offline.manifest(build.OUT)
    sent = serve.Handler.served = []
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(300_000)
    first_output(page, url, lesson)
    stages = {"first output": list(sent)}
    page.evaluate("""async ([name, count]) => {
        while (!(await caches.has(name)) || (await (await caches.open(name)).keys()).length < count)
            await new Promise(ok => setTimeout(ok, 500));
    }""", [f"course-{kept['build']}", len(kept["files"])])
    stages["kept offline"] = list(sent)
    context.new_cdp_session(page).send("Network.clearBrowserCache")
    sent.clear()
    first_output(page, url, lesson)
    stages["return visit"] = list(sent)
    context.close()
    serve.Handler.served = None
    return stages


def report_downloads(stages: dict, lesson: str) -> None:
    for stage, files in stages.items():
        print(f"download, {stage} ({lesson}): {len(files)} files, {sum(f.stat().st_size for f in files) / 1e6:.1f} MB "
              f"as served here, {hosted(files) / 1e6:.1f} MB from a static host that gzips text")
    print("what the first output downloads, largest first (from a static host):")
    first = sorted(set(stages["first output"]), key=lambda f: -hosted([f]))
    for f in first[:12]:
        print(f"  {hosted([f]) / 1e6:6.2f} MB  {f.relative_to(build.OUT)}")
    print(f"  {hosted(first[12:]) / 1e6:6.2f} MB  the other {len(first[12:])} files")


def bare_boot(page, url: str) -> float:
    start = time.perf_counter()
    page.goto(url + "bare.html")
    page.wait_for_function("document.body.textContent.startsWith('Python')")
    return time.perf_counter() - start


def visits(browser, measure) -> tuple:
    """`measure(page)` on a first visit (fresh context) and on a second one (cache and storage kept)."""
    context = browser.new_context()
    times = []
    for _ in range(2):
        page = context.new_page()
        page.set_default_timeout(180_000)
        times.append(measure(page))
        page.close()
    context.close()
    return tuple(times)


def memory(page) -> tuple[float, float]:
    """(the page's JS heap in MB, the PSS of this browser's renderer processes in MB)"""
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    heap = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}["JSHeapUsedSize"]
    cdp.detach()
    ours = [p for p in psutil.process_iter(["cmdline"]) if TAG in (p.info["cmdline"] or [])]
    renderers = [c for p in ours for c in p.children(recursive=True) if "--type=renderer" in " ".join(c.cmdline())]
    return heap / 1e6, sum(r.memory_full_info().pss for r in renderers) / 1e6


def session(browser, url: str, lessons: list[str]) -> dict:
    """Every lesson by its link in one tab, in order; then a return visit to the first."""
    context = browser.new_context()
    page = context.new_page()
    page.set_default_timeout(300_000)
    firsts, memories = [], []
    for lesson in lessons:
        firsts.append(first_output(page, url, lesson)[1])
        print(f"  {lesson}: {firsts[-1]:.1f} s", file=sys.stderr)
        if len(firsts) in (1, len(lessons)):
            time.sleep(3)  # a kernel that starts late would be counted too
            memories.append(memory(page))
            print(f"  memory with {len(firsts)} lesson(s): {memories[-1][0]:.0f} MB heap, {memories[-1][1]:.0f} MB renderers", file=sys.stderr)
    page.close()
    page = context.new_page()  # the next day: a fresh page, same browser
    page.set_default_timeout(300_000)
    back = first_output(page, url, lessons[0])[1]
    time.sleep(3)
    kernels = page.evaluate(KERNELS)
    context.close()
    return {"firsts": firsts, "memories": memories, "back": back, "kernels": kernels}


def median(values) -> str:
    return f"{statistics.median(values):.2f} s ({', '.join(f'{v:.2f}' for v in values)})"


def report_visits(site: list, floor: list, lesson: str) -> None:
    cold, warm = [c[1] for c, _ in site], [w[1] for _, w in site]
    cold_floor, warm_floor = [c for c, _ in floor], [w for _, w in floor]
    print(f"cold: page open -> first output of {lesson}: {median(cold)}; of which until the notebook "
          f"shows with its kernel ready: {statistics.median(c[0] for c, _ in site):.2f} s")
    print(f"cold floor: bare Pyodide ready, same files: {median(cold_floor)}")
    print(f"cold ratio: {statistics.median(cold) / statistics.median(cold_floor):.2f} (goal <= 1.0)")
    print(f"warm (second visit): {median(warm)}; floor {median(warm_floor)}; "
          f"ratio {statistics.median(warm) / statistics.median(warm_floor):.2f}")


def main(runs: int) -> None:
    build.main()
    lessons = sorted(p.name for p in (ROOT / "lessons").glob("0*.ipynb"))
    with tempfile.TemporaryDirectory() as floor_dir:
        (Path(floor_dir) / "bare.html").write_text(BARE)
        (Path(floor_dir) / "static").symlink_to(build.OUT / "static")  # the very same Pyodide files
        site_server, site_url = serve.start(build.OUT, prefix="/course/")
        floor_server, floor_url = serve.start(Path(floor_dir))
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
            site, floor = [], []
            for _ in range(runs):  # interleaved, so a busy moment on the machine hits both
                floor.append(visits(browser, lambda page: bare_boot(page, floor_url)))
                site.append(visits(browser, lambda page: first_output(page, site_url, lessons[0])))
            report_visits(site, floor, lessons[0])  # printed now: the session below takes minutes
            stages = downloads(browser, site_url, lessons[0])
            day = session(browser, site_url, lessons)
            browser.close()
        site_server.shutdown()
        floor_server.shutdown()
    print(f"session, lessons 1..{len(lessons)} by link in one tab: first outputs "
          f"{', '.join(f'{t:.1f}' for t in day['firsts'])} s; the {len(lessons)}th / the 1st: "
          f"{day['firsts'][-1] / day['firsts'][0]:.2f} (goal <= 1.1)")
    print(f"return visit: first output of {lessons[0]} {day['back']:.2f} s, kernels running "
          f"{day['kernels']} (goal: at most 1)")
    for count, (heap, pss) in zip((1, len(lessons)), day["memories"]):
        print(f"memory with {count} lesson(s) opened: page JS heap {heap:.0f} MB, renderer processes "
              f"(page + kernel workers) {pss:.0f} MB")
    size = sum(p.stat().st_size for p in build.OUT.rglob("*") if p.is_file())
    print(f"site size: {size / 1e6:.1f} MB on disk")
    report_downloads(stages, lessons[0])


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
