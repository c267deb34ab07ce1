"""A lesson's agent with answers written into it, as a student's notebook would hold them.

`notebook(lesson)` runs the lesson's agent (its `carried` and `agent` cells) and the functions its
other cells define (lesson 5's `progress`), then the reference solutions in the same namespace, so a check drives the lesson's own `run_agent`; `answer(ns, code)`
adds one more definition there (a plausible wrong answer, or an unusual right one) and returns it.
"""
import ast
import json
import runpy
from pathlib import Path

from lesson_loop import LESSONS

SOLUTIONS = Path(__file__).parent.parent / "solutions"


def agent(lesson: int) -> dict:
    """The lesson's agent cells run in order, plus the imports and functions of its other cells."""
    path = next(LESSONS.glob(f"{lesson:02d}_*.ipynb"))
    namespace = {"__name__": "lesson"}
    for cell in json.loads(path.read_text())["cells"]:
        if cell["cell_type"] != "code":
            continue
        tree = ast.parse("".join(cell["source"]))
        if not {"carried", "agent"} & set(cell["metadata"].get("tags", [])):
            tree.body = [node for node in tree.body if isinstance(node, (ast.Import, ast.ImportFrom, ast.FunctionDef))]
        exec(compile(tree, path.name, "exec"), namespace)
    return namespace


def notebook(lesson: int) -> dict:
    return runpy.run_path(str(SOLUTIONS / f"lesson{lesson:02d}.py"), init_globals=agent(lesson))


def answer(namespace: dict, code: str):
    """Define `code` (one function) in the notebook's namespace and return the function."""
    before = set(namespace)
    exec(code, namespace)
    defined = [name for name in namespace if name not in before] or [code.split("def ", 1)[1].split("(", 1)[0]]
    return namespace[defined[-1]]


def verdict(check, *answer, capsys):
    """Run a check; return (passed, what it printed). A check never raises, prints one line, and shows no traceback."""
    result = check(*answer)
    printed = capsys.readouterr().out
    assert printed.count("\n") == 1, f"a check prints exactly one line, got {printed!r}"
    assert "Traceback" not in printed
    return bool(result), printed


def boom(*args, **kwargs):
    raise RuntimeError("student bug")
