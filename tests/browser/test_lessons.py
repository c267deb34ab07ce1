"""Every lesson (lessons/**/*.ipynb, found anew each run) runs top to bottom in the browser site:
no error, the committed text outputs (compared as nbval compares them), widgets drawn, the files it
writes still there after a page reload, and no request for another host.
"""
import configparser
import json
import re
from pathlib import Path

import pytest

LESSONS_DIR = Path(__file__).resolve().parents[2] / "lessons"
LESSONS = sorted(p.relative_to(LESSONS_DIR).as_posix() for p in LESSONS_DIR.rglob("*.ipynb")
                 if ".ipynb_checkpoints" not in p.parts)
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
SANITIZE = [(re.compile(r"0x[0-9a-fA-F]+"), "0xADDRESS")]  # object reprs, as nbval users sanitise
WIDGET = "application/vnd.jupyter.widget-view+json"


def sanitizers(config) -> list:
    """Ours, plus the regexes of the nbval --sanitize-with file, if the suite configures one."""
    rules = list(SANITIZE)
    # nbval's option (its older name, --sanitize-with, is only an alias); relative to the rootdir
    path = config.getoption("nbval_sanitize_with", default=None) or config.getoption("sanitize_with", default=None)
    if path:
        parser = configparser.ConfigParser()
        parser.read(Path(config.rootpath) / path)
        rules += [(re.compile(s["regex"]), s.get("replace", "")) for s in map(parser.__getitem__, parser.sections())]
    return rules


def text(value) -> str:
    return "".join(value) if isinstance(value, list) else value


def compared(cell: dict, rules: list) -> list[tuple[str, str]]:
    """The outputs nbval compares, as (kind, text): consecutive streams merged, text/plain kept."""
    found = []
    for out in cell.get("outputs", []):
        if out["output_type"] == "stream":
            if found and found[-1][0] == out["name"]:
                found[-1] = (out["name"], found[-1][1] + text(out["text"]))
            else:
                found.append((out["name"], text(out["text"])))
        elif "text/plain" in out.get("data", {}):
            found.append(("text/plain", text(out["data"]["text/plain"])))
        elif out["output_type"] == "error":
            found.append(("error", f"{out['ename']}: {out['evalue']}"))
    for rule, replacement in [(ANSI, ""), *rules]:
        found = [(kind, rule.sub(replacement, value)) for kind, value in found]
    return found


def problems(lesson: str, committed: dict, ran: dict, rules: list) -> list[str]:
    """What differs between the committed notebook and the one run in the browser, cell by cell."""
    if len(ran["cells"]) != len(committed["cells"]):
        return [f"{lesson}: {len(ran['cells'])} cells in the browser, {len(committed['cells'])} committed"]
    found = []
    for number, (want, got) in enumerate(zip(committed["cells"], ran["cells"])):
        if want["cell_type"] != "code":
            continue
        tags = want["metadata"].get("tags", [])
        where = f"{lesson}, cell {number} ({text(want['source']).strip().splitlines()[0][:60]!r})"
        for out in got.get("outputs", []):
            if out["output_type"] == "error" and "raises-exception" not in tags:
                trace = ANSI.sub("", "\n".join(out.get("traceback", [])[-3:]))
                found.append(f"{where} raised {out['ename']}: {out['evalue']}\n{trace}")
        # "not-in-browser": a cell whose saved output comes from local Jupyter (the openai SDK extra)
        if not {"nbval-ignore-output", "nbval-skip", "not-in-browser"} & set(tags) and compared(want, rules) != compared(got, rules):
            found.append(f"{where}: output differs\n  committed: {compared(want, rules)!r:.600}\n"
                         f"  browser:   {compared(got, rules)!r:.600}")
    return found


def run_and_compare(lab, lesson: str, rules: list) -> list[str]:
    """Run All in the lesson on the page (nbval-skip cells blanked, as nbval skips them); what differs."""
    committed = json.loads((LESSONS_DIR / lesson).read_text())
    skipped = [i for i, c in enumerate(committed["cells"]) if "nbval-skip" in c["metadata"].get("tags", [])]
    lab.js("""for (const i of arg) app.shell.currentWidget.content.widgets[i].model.sharedModel
              .setSource('# nbval-skip: not run by the tests');""", skipped)
    try:
        ran = lab.run_all(lesson)
    except Exception as error:
        pytest.fail(f"{lesson}: Run All did not finish: {error}\n{lab.diagnostics()}")
    return problems(lesson, committed, ran, rules)


@pytest.mark.parametrize("lesson", LESSONS or [pytest.param("none", marks=pytest.mark.skip(reason="no lessons yet"))])
def test_lesson_runs_in_the_browser(lab, site, lesson, request):
    committed = json.loads((LESSONS_DIR / lesson).read_text())
    lab.open(lesson)
    found = run_and_compare(lab, lesson, sanitizers(request.config))
    assert not found, "\n".join(found) + "\n" + lab.diagnostics()

    widget_cells = [i for i, c in enumerate(committed["cells"]) if any(WIDGET in o.get("data", {}) for o in c.get("outputs", []))]
    blank = lab.js("""const cells = app.shell.currentWidget.content.widgets;
        return arg.filter(i => !cells[i].outputArea.node.querySelector('.jupyter-widgets')
                               || /Error displaying widget/.test(cells[i].outputArea.node.textContent));""", widget_cells)
    assert not blank, f"{lesson}: cells {blank} should show a widget but do not\n{lab.diagnostics()}"

    folder = "" if Path(lesson).parent == Path(".") else Path(lesson).parent.as_posix()
    served = {p.name for p in (site / "files" / folder).iterdir()}
    written = set(json.loads(lab.kernel_run("import os, json; print(json.dumps([f for f in os.listdir() if os.path.isfile(f)]))"))) - served
    if written:  # e.g. lesson 6's memory.json: a restarted kernel must find it
        before, after = lab.files_survive_reload(written, folder)
        assert after == before, f"{lesson}: after a page reload, {sorted(written)} changed or vanished"
    assert not lab.outside(), f"{lesson}: requests left the machine: {lab.outside()}"
