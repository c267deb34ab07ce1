"""agentloop.progress() in the browser site: a check's verdict, recorded by the kernel, is still
there after a page reload (a new kernel), because the progress file lives in the browser's storage."""
import re
from pathlib import Path

SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions"
RUN_A_CHECK = """
from agentloop.progress import course
entry = next(e for e in course().values() if e.lesson == 1 and all(n in globals() for n in e.names))
result = entry.run(*[globals()[name] for name in entry.names])
print(entry.id, bool(result))
"""


def outputs(notebook: dict) -> str:
    return "".join("".join(o.get("text", "")) + o.get("evalue", "") for c in notebook["cells"] for o in c["outputs"])


def test_a_check_run_in_the_site_is_in_progress_after_a_reload(lab):
    ran = lab.scratch("progress-check.ipynb", [(SOLUTIONS / "lesson01.py").read_text(), RUN_A_CHECK])
    printed = outputs(ran)
    checked = re.search(r"^(\d+\.\d+) True$", printed, re.M)
    assert checked, f"the reference solution should pass its check in the browser: {printed!r}\n{lab.diagnostics()}"
    exercise = checked.group(1)

    # A new page, a new kernel: only the browser's storage remembers.
    before, after = lab.files_survive_reload([".agentloop_progress.json"])
    assert after == before and f'"{exercise}"' in before[".agentloop_progress.json"]
    shown = outputs(lab.scratch("progress-table.ipynb", ["import agentloop\nprint(repr(agentloop.progress()))"]))
    assert re.search(rf"^1\s+{re.escape(exercise)}\s.*\spassed\s+\d{{4}}-\d\d-\d\d \d\d:\d\d UTC$", shown, re.M), shown
    others = [line for line in shown.splitlines()[2:] if not re.match(rf"1\s+{re.escape(exercise)}\s", line)]
    assert others and all(line.rstrip().endswith("not yet") for line in others), shown
    assert shown.splitlines()[0] == f"1 of {len(others) + 1} exercises passed"
    assert not lab.outside(), f"requests left the machine: {lab.outside()}"


GUARDS = """
import time, agentloop
from agentloop.checks import exercise

@exercise("99.1 Spin", time_limit=1)
def check_spin(spin):
    spin()

@exercise("99.2 Ask forever", max_calls=5)
def check_ask(ask_forever):
    ask_forever()

def spin():
    while True:
        pass

def ask_forever():
    while True:
        agentloop.ask([{"role": "user", "content": "Hello"}])

started = time.monotonic()
print(bool(check_spin(spin)), bool(check_ask(ask_forever)), time.monotonic() - started < 15)
"""


def test_the_checks_guards_hold_in_pyodide_with_no_signals(lab):
    """No alarm signal can stop running Python in the browser: the clock-watching trace does."""
    printed = outputs(lab.scratch("guards.ipynb", [GUARDS]))
    assert "❌ 99.1 Spin: not yet. Hint: your code ran for more than 1 s" in printed, printed
    assert "❌ 99.2 Ask forever: not yet. Hint: your loop made more than 5 model calls: is max_turns missing?" in printed
    assert printed.rstrip().endswith("False False True"), printed
