"""The kernel boots from the snapshot the site build took (lite/snapshot.mjs, restored by lite/boot.mjs)
and falls back to Pyodide's normal start when the snapshot is missing, damaged or made for something
else. The oracle is the normal start: both give the same Python, files and packages."""
import json

import pytest
from lab import Lab, text

# What a kernel is made of: Python, its paths and environment, the modules imported, every installed
# file's bytes, the packages Pyodide counts as loaded, a module imported on demand (IPython.lib.demo:
# from a snapshot, its file comes with the packages' others), the course's package at work, what it
# found of the browser (stack switching, XMLHttpRequest); one random draw.
PROBE = """import hashlib, importlib.metadata, json, os, random, sys, time, urllib.request, js, pyodide_js
import IPython.core.completer, IPython.lib.demo, agentloop, agentloop.trace_widget, ipywidgets, piplite.piplite, pyodide_http
from pyodide.ffi import can_run_sync
time.sleep(0.01)  # through the browser (JSPI) in a normal start, blocking after a restore
site = next(p for p in sys.path if p.endswith("site-packages"))
files = hashlib.sha256()
for folder, _, names in sorted(os.walk(site)):
    for name in sorted(names) if "__pycache__" not in folder else []:
        files.update(os.path.join(folder, name).encode() + open(os.path.join(folder, name), "rb").read())
print(json.dumps({"python": sys.version, "path": sys.path, "cwd": os.getcwd(), "env": dict(os.environ),
    "argv": sys.argv, "executable": sys.executable, "files": files.hexdigest(),
    "modules": sorted(set(sys.modules) - {"tarfile"}),  # which Pyodide's loader imports to unpack wheels
    "distributions": sorted(f"{d.metadata['Name']}=={d.version}" for d in importlib.metadata.distributions()),
    "loaded": sorted(js.Object.keys(pyodide_js.loadedPackages)), "completer": IPython.core.completer.__name__,
    "backend": agentloop.backend().describe(), "stack switching": can_run_sync(),
    "http through the page": [pyodide_http.should_patch(), urllib.request.urlopen.__module__],
    "random": random.random()}))"""


def boot(browser, url: str) -> tuple[dict, list[str]]:
    """The probe's answer in a fresh browser's first kernel, and what the boot said in the console."""
    lab = Lab(browser, url)
    said = []
    lab.page.on("console", lambda message: message.text.startswith("course: Python") and said.append(message.text))
    try:
        cell = lab.scratch("probe.ipynb", [PROBE])["cells"][0]
        shown = "".join(text(out.get("text", out.get("evalue", ""))) for out in cell["outputs"])
        assert shown.startswith("{"), f"the probe failed: {shown}\n{lab.diagnostics()}"
        return json.loads(shown), said
    finally:
        lab.close()


@pytest.fixture(scope="module")
def from_snapshot(browser, site_url) -> dict:
    probe, said = boot(browser, site_url)
    assert said == ["course: Python restored from its snapshot"]
    assert probe["stack switching"] is False  # as in Node, where the snapshot's Python started
    return probe


def python(probe: dict) -> dict:
    """All but what differs by design: the random draw, and stack switching (see lite/boot.mjs)."""
    return {**probe, "random": "drawn anew", "stack switching": "as the runtime allows"}


def test_two_kernels_from_the_snapshot_are_the_same_python_but_draw_their_own_random_numbers(browser, site_url, from_snapshot):
    again, said = boot(browser, site_url)
    assert said == ["course: Python restored from its snapshot"]
    assert python(again) == python(from_snapshot)
    assert again["random"] != from_snapshot["random"]  # the seed in the snapshot is replaced


def manifest(site):
    return site / "static" / "pyodide" / "kernel.snapshot.json"


def missing(site):
    manifest(site).unlink()


def damaged(site):  # half a snapshot: what an interrupted upload leaves
    snapshot = site / "static" / "pyodide" / json.loads(manifest(site).read_text())["files"]["snapshot"]
    snapshot.write_bytes(snapshot.read_bytes()[: snapshot.stat().st_size // 2])


def other_packages(site):  # a snapshot left from a build with other packages
    made = json.loads(manifest(site).read_text())
    manifest(site).write_text(json.dumps({**made, "packages": made["packages"][:-1]}))


def other_pyodide(site):
    made = json.loads(manifest(site).read_text())
    manifest(site).write_text(json.dumps({**made, "pyodide": "0.0.1"}))


@pytest.mark.parametrize("spoil", [missing, damaged, other_packages, other_pyodide])
def test_without_a_snapshot_that_fits_python_starts_normally_and_is_the_same(browser, site_copy, from_snapshot, spoil):
    copy, url = site_copy
    spoil(copy)
    normal, said = boot(browser, url)
    assert len(said) == 1 and said[0].startswith("course: Python starts normally, without its snapshot: ")
    assert python(normal) == python(from_snapshot)


# Where a package's own files are (Jedi's: the kernel imports it, so it is in the snapshot's memory).
JEDI_FILES = "import os, jedi; print(os.path.exists(os.path.dirname(jedi.__file__)))"


def test_the_packages_other_files_arrive_a_while_after_the_start_without_an_import(browser, site_url):
    lab = Lab(browser, site_url)
    try:
        lab.scratch("later.ipynb", ["pass"])
        assert lab.kernel_run(JEDI_FILES).strip() == "False"  # the first output did not wait for them
        lab.page.wait_for_timeout(25_000)  # boot.mjs: LATER_AFTER_MS
        assert lab.kernel_run(JEDI_FILES).strip() == "True"
    finally:
        lab.close()


def test_an_import_that_needs_the_packages_files_says_so_when_they_cannot_be_fetched(browser, site_copy):
    copy, url = site_copy
    (copy / "static" / "pyodide" / json.loads(manifest(copy).read_text())["files"]["later"]).unlink()
    lab = Lab(browser, url)
    try:
        cell = lab.scratch("later.ipynb", ["import IPython.lib.demo"])["cells"][0]
        shown = "".join(text(out.get("text", out.get("evalue", ""))) for out in cell["outputs"])
        assert "course: IPython.lib.demo needs the packages' files, which could not be fetched" in shown
        assert "HTTP 404" in shown and "No module named 'IPython.lib.demo'" in shown
        assert lab.kernel_run("print(6 * 7)").strip() == "42"  # the kernel goes on
    finally:
        lab.close()
