"""Grading one notebook in a fresh interpreter: `python -m agentloop.grade_one NOTEBOOK RESULT LESSON...`.

The code cells run in order with the network off, os.system and subprocess blocked and a time
limit per cell; a cell that fails is skipped (and why is kept), and one that failed on a name
defined further down is tried again at the end, so reordered, duplicated and deleted cells do
not matter. Then every check of the lesson runs on the student's definitions: the names the
notebook passed to the check, else the check's parameter names. A guard against accidents,
not a security boundary: untrusted code belongs in a container.

The checks that grade are not the ones the student's cells could reach: once the cells have run,
the builtins are put back and agentloop is loaded again from the source read before the cells
(see `Fresh`), and the notebook's names for agentloop's modules and functions point at the new
copies. A cell that replaces a check, its `run`, its Result or its verdict changes an old copy.
"""
import ast
import builtins
import contextlib
import importlib
import importlib.abc
import importlib.util
import json
import os
import socket
import subprocess
import sys
import types
from pathlib import Path

from . import bounded_json
from .checks import Stopped, TimeLimit, registry

MEMORY = 2 * 1024 ** 3  # bytes of address space the student's code may use
BLOCKED = ["system", "popen", "fork", "forkpty", "kill", "killpg", "_exit", "posix_spawn", "posix_spawnp"]
BLOCKED += [name for name in dir(os) if name.startswith(("exec", "spawn"))]


def _refuse(what: str):
    def refuse(*args, **kwargs):
        raise PermissionError(f"{what} is blocked while grading")
    return refuse


def lock_down() -> None:
    """No processes, no network, 2 GiB of memory: the teaching model runs in this process and
    needs neither of the first two, and a lesson far less than the third."""
    try:
        import resource
        resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))
    except (ImportError, ValueError, OSError):  # not on this system: the time limits still hold
        pass
    for module in filter(None, [os, sys.modules.get("posix")]):  # posix: what os's functions are
        for name in BLOCKED:
            if hasattr(module, name):
                setattr(module, name, _refuse(f"os.{name}"))
    subprocess.Popen = _refuse("subprocess")  # run, call and check_output all go through Popen
    socket.socket.connect = socket.socket.connect_ex = _refuse("the network")
    socket.create_connection = socket.getaddrinfo = _refuse("the network")


def code_cells(notebook: dict) -> list:
    """The code cells' sources, without IPython's magics and shell lines (not Python)."""
    cells = []
    for cell in notebook.get("cells", []):
        if cell.get("cell_type") == "code":
            source = cell.get("source", "")
            source = "".join(source) if isinstance(source, list) else str(source)
            cells.append("\n".join(line for line in source.splitlines() if not line.lstrip().startswith(("%", "!"))))
    return cells


def _stubs(tree: ast.Module) -> tuple:
    """(names this cell defines as starter code, names it defines with real code)."""
    stub, real = set(), set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            body = node.body[1:] if ast.get_docstring(node) else node.body
            empty = all(isinstance(s, ast.Pass) or (isinstance(s, (ast.Expr, ast.Return)) and isinstance(
                s.value, ast.Constant) and s.value.value is Ellipsis) for s in body) or any(
                isinstance(n, ast.Constant) and n.value is Ellipsis for n in ast.walk(node))  # a skeleton's `...` holes
            (stub if empty else real).add(node.name)
        elif isinstance(node, ast.Assign):
            empty = isinstance(node.value, ast.Constant) and node.value.value is Ellipsis
            for target in node.targets:
                if isinstance(target, ast.Name):
                    (stub if empty else real).add(target.id)
    return stub, real


@contextlib.contextmanager
def _quiet():
    """What the student's code prints is not graded: it goes nowhere."""
    with open(os.devnull, "w") as nowhere, contextlib.redirect_stdout(nowhere), contextlib.redirect_stderr(nowhere):
        yield


class Notebook:
    """The student's namespace after running their cells, and what went wrong on the way."""

    def __init__(self, cells: list, seconds: float):
        self.namespace = {"__name__": "__main__", "display": print}
        self.stubs, self.failed, self.calls, self.own = set(), {}, {}, {}
        self.seconds = seconds
        for number, source in enumerate(cells, 1):
            self._run(number, source)
        for number in [n for n, why in self.failed.items() if why.startswith("NameError")]:
            self._run(number, cells[number - 1])  # a name defined in a later cell exists now

    def _run(self, number: int, source: str) -> None:
        try:
            tree = ast.parse(source)
        except SyntaxError as error:
            self.failed[number] = f"not Python: {error.msg} (line {error.lineno})"
            return
        self._note_calls(tree)
        try:
            with _quiet(), TimeLimit(self.seconds):
                exec(compile(tree, f"<cell {number}>", "exec"), self.namespace)
        except Stopped:
            self.failed[number] = f"ran longer than {self.seconds:g} s (a loop that never ends?)"
        except SystemExit:
            self.failed[number] = "called exit(), which ends the cell here, not the grading"
        except BaseException as error:
            self.failed[number] = f"{type(error).__name__}: {error}".removesuffix(": ")[:160]
        else:
            self.failed.pop(number, None)
        stub, real = _stubs(tree)
        self.stubs = (self.stubs - real) | stub

    def _note_calls(self, tree: ast.Module) -> None:
        """check name -> the names the notebook passed to it, e.g. check_schema(MULTIPLY), and the ones
        of those its own cell defines as functions or starters (the student's answers, next to the agent's
        pieces they are checked with)."""
        stub, _ = _stubs(tree)
        defined = stub | {node.name for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and all(isinstance(arg, ast.Name) for arg in node.args):
                called = getattr(node.func, "attr", getattr(node.func, "id", ""))
                if called.startswith("check_"):
                    self.calls[called] = [arg.id for arg in node.args]
                    self.own[called] = defined & set(self.calls[called])

    def answers(self, entry) -> tuple:
        """(the values for the check's parameters, or None; why not). The names are the ones the
        notebook passed to the check, else the check's parameter names."""
        called = self.calls.get(entry.check.__name__, [])  # what the student checked, if they did
        names = [called[i] if i < len(called) and called[i] in self.namespace else name
                 for i, name in enumerate(entry.names)]
        missing = [name for name in names if name not in self.namespace]
        if missing:
            return None, f"not attempted: {', '.join(missing)} not defined"
        values = [self.namespace[name] for name in names]
        starters = [n for n, v in zip(names, values) if n in self.stubs or v is Ellipsis]
        own = self.own.get(entry.check.__name__)  # the answers the check's cell defines, if it defines any
        if starters and (set(starters) >= own if own else all(
                n in starters or not (callable(v) or v is Ellipsis) for n, v in zip(names, values))):
            return None, f"not attempted: {', '.join(starters)} still the starter code"
        return values, ""


class Fresh(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """agentloop's modules from the source read before the student's cells ran, with the builtins
    as they were then."""

    def __init__(self):
        root = Path(__file__).resolve().parent
        self.sources = {}  # module name -> (file, source, is a package)
        for file in root.rglob("*.py"):
            parts = ("agentloop", *file.relative_to(root).with_suffix("").parts)
            package = parts[-1] == "__init__"
            name = ".".join(parts[:-1] if package else parts)
            self.sources[name] = (str(file), file.read_text(encoding="utf-8"), package)
        self.builtins = dict(builtins.__dict__)

    def find_spec(self, name, path=None, target=None):
        if name not in self.sources:
            return None
        file, _, package = self.sources[name]
        spec = importlib.util.spec_from_loader(name, self, origin=file, is_package=package)
        if package:
            spec.submodule_search_locations = [os.path.dirname(file)]
        return spec

    def create_module(self, spec):
        return None

    def exec_module(self, module):
        file, source, _ = self.sources[module.__name__]
        module.__file__, module.__builtins__ = file, dict(self.builtins)
        exec(compile(source, file, "exec"), module.__dict__)

    def load(self, lessons: list, namespace: dict) -> dict:
        """A new agentloop with these lessons' checks; the notebook's names for the old one now name
        the new one. The new checks' registry."""
        builtins.__dict__.update(self.builtins)
        for name in [n for n in sys.modules if n.split(".")[0] == "agentloop"]:
            del sys.modules[name]
        sys.meta_path.insert(0, self)
        for lesson in lessons:
            _import(f"agentloop.exercises.lesson{lesson:02d}")
        for name, value in list(namespace.items()):
            namespace[name] = self.renewed(value)
        return sys.modules["agentloop.checks"].registry

    def renewed(self, value):
        """The new copy of an agentloop module, function or class; anything else as it is."""
        if isinstance(value, types.ModuleType) and value.__name__ in self.sources:
            return _import(value.__name__)
        home = getattr(value, "__module__", None) if isinstance(value, (types.FunctionType, type)) else None
        if home in self.sources:
            return getattr(_import(home), value.__name__, value)
        return value


_import = importlib.import_module  # kept before the student's cells run


def grade(notebook: dict, lessons: list, seconds: float) -> dict:
    """Run the notebook, then every check of its lessons, loaded fresh; the rows and the skipped cells."""
    fresh = Fresh()
    entries = []
    for lesson in lessons:
        try:
            importlib.import_module(f"agentloop.exercises.lesson{lesson:02d}")
        except ImportError:
            continue
        entries += [entry for entry in registry.values() if entry.lesson == lesson]
    for entry in entries:  # the notebook's own check calls do nothing: the grader runs them once, below
        setattr(sys.modules[entry.check.__module__], entry.check.__name__, lambda *args: None)
    lock_down()
    run = Notebook(code_cells(notebook), seconds)
    checks = fresh.load(sorted({entry.lesson for entry in entries}), run.namespace)
    entries = [entry for entry in checks.values() if entry.lesson in lessons]
    rows = []
    for entry in entries:
        entry.time_limit = min(entry.time_limit, seconds)
        values, detail = run.answers(entry)
        passed = False
        if values is not None:
            with _quiet():
                result = entry.run(*values)
            passed, detail = bool(result), "" if result else result.message.removeprefix(f"❌ {entry.title}: ")
        rows.append({"lesson": entry.lesson, "exercise": entry.id, "title": entry.title,
                     "passed": passed, "detail": detail.removeprefix("not yet. ")})
    return {"rows": rows, "failed": sorted(run.failed.items())}


def main(argv: list) -> None:
    notebook_path, result_path, seconds, *lessons = argv
    with open(notebook_path, "rb") as file:
        notebook = bounded_json.loads(file.read())  # the grader checked it: within the caps
    graded = grade(notebook, [int(n) for n in lessons], float(seconds))
    with open(result_path, "w", encoding="utf-8") as file:
        json.dump(graded, file)
    _exit(0)  # now, even if the student's code left a thread running


_exit = os._exit  # kept before lock_down() blocks it for the student's code


if __name__ == "__main__":
    main(sys.argv[1:])
