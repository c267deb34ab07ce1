"""One agent that grows: lesson N starts from exactly the agent lesson N-1 ended with.

Each lesson tags its cells: `carried` (the previous lesson's agent, verbatim), `agent` (code that
changes the agent: new tools, a new loop) and, from lesson 7 on, `exercise` (a cell the student
finishes, ending in its check). The agent a lesson hands on is its carried, agent and exercise cells
run in order, each exercise cell with the student's answer replaced by the course's reference one
(`solutions/lessonNN.py`: the function of the same name, with what it reads from that file) and its
check left out: so the reference answers never stand a few cells below the exercises they answer,
and the next lesson starts every student from the same agent. `final_program` writes that as one
program, keeping only the last definition of each function or name, and dropping a name an agent
cell retires in plain sight (a `# retired: name, ...` line, with the reason next to it in the text).
The test: lesson N's carried cells ARE that program for lesson N-1 (same syntax tree), and any
agent cell that redefines a carried name opens with `# lesson N-1 -> lesson N: what changed`.
"""
import ast
import difflib
import json
import pathlib
import re

import pytest

LESSONS = sorted((pathlib.Path(__file__).parent.parent / "lessons").glob("0*.ipynb"))
SOLUTIONS = pathlib.Path(__file__).parent.parent / "solutions"
CHANGE_NOTE = re.compile(r"^# lesson (\d) -> lesson (\d): \S")


def cells(lesson: int, *tags: str) -> list:
    """The sources of lesson `lesson`'s code cells that carry one of `tags`, in order."""
    notebook = json.loads(LESSONS[lesson - 1].read_text())
    return ["".join(cell["source"]) for cell in notebook["cells"] if cell["cell_type"] == "code"
            and set(tags) & set(cell.get("metadata", {}).get("tags", []))]


def _bound(statement) -> set:
    """The module-level names a statement binds (def, class, assignment, import, del)."""
    if isinstance(statement, (ast.FunctionDef, ast.ClassDef)):
        return {statement.name}
    if isinstance(statement, (ast.Import, ast.ImportFrom)):
        return {(alias.asname or alias.name).split(".")[0] for alias in statement.names}
    if isinstance(statement, (ast.Assign, ast.Delete)):
        return set().union(*(_names(target) for target in statement.targets))
    return set()


def _names(target) -> set:
    if isinstance(target, ast.Name):
        return {target.id}
    if isinstance(target, ast.Tuple):
        return set().union(*(_names(element) for element in target.elts))
    return set()  # TOOLS["x"] = ... changes a name, it does not bind one


def _used(statement) -> set:
    """Names a module-level statement reads when it runs (function bodies run later)."""
    if isinstance(statement, ast.FunctionDef):
        return set()
    return {node.id for node in ast.walk(statement) if isinstance(node, ast.Name)
            and isinstance(node.ctx, ast.Load)} | {
            node.value.id for node in ast.walk(statement) if isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Name)}


def final_program(sources: list) -> str:
    """The agent those cells leave behind, as one program: superseded definitions dropped, and then
    what only a dropped statement used (lesson 6's `MEMORY_FILE = "memory.json"`, once lesson 7 loads
    memory from its own file), until nothing more goes: the program of a program is itself."""
    program = _one_pass(sources)
    while (again := _one_pass([program])) != program:
        program = again
    return program


def _one_pass(sources: list) -> str:
    pieces = []  # (statement, its source text, where it was: cell and last line)
    for cell, source in enumerate(sources):
        lines = source.splitlines()
        for retired in re.findall(r"^# retired: (.+)$", source, re.MULTILINE):
            pieces.append((ast.parse(f"del {retired}").body[0], None, None))
        for statement in ast.parse(source).body:
            start = statement.lineno - 1
            while start > 0 and lines[start - 1].startswith("#") and not lines[start - 1].startswith(
                    ("# Carried from", "# lesson ", "# New in lesson", "# retired: ")):
                start -= 1
            pieces.append((statement, "\n".join(lines[start:statement.end_lineno]),
                           (cell, start, statement.end_lineno)))
    kept, placed = [], set()  # placed: later definitions that already stand in an earlier one's place
    for index, (statement, text, where) in enumerate(pieces):
        later = pieces[index + 1:]
        if isinstance(statement, ast.Delete) or index in placed:
            continue  # `del name` or a `# retired: name` line: the name's definitions are dropped
        if isinstance(statement, (ast.FunctionDef, ast.Assign)) and len(_bound(statement)) == 1:
            name = next(iter(_bound(statement)))
            for other, _, _ in later:
                if name in _used(other) and not isinstance(other, ast.Delete):
                    if isinstance(statement, ast.FunctionDef):
                        text = _in_place(pieces, index, name, placed) or text
                    break
                if name in _bound(other) and type(other) in (type(statement), ast.Delete):
                    text = None
                    break
        if _overwritten(statement, later):
            text = None
        if isinstance(statement, (ast.Import, ast.ImportFrom)) and any(
                ast.dump(statement) == ast.dump(other) for other, _, _ in kept):
            text = None
        if text is not None:
            kept.append((statement, text, where))
    program = ""
    for index, (_, text, where) in enumerate(kept):  # lines that were adjacent stay adjacent
        before = kept[index - 1][2] if index else None
        adjacent = before and before[0] == where[0] and before[2] == where[1]
        program += ("\n" if adjacent else "\n\n" if program else "") + text
    return program


def _in_place(pieces: list, index: int, name: str, placed: set):
    """A function something used before it was redefined (`tool(remember, ...)` registers it): its last
    definition, if no `del` comes first, stands here in its place (a function reads the names it uses
    only when it is called), so the program holds one definition of it, the one that counts."""
    redefined = []
    for at in range(index + 1, len(pieces)):
        other = pieces[at][0]
        if isinstance(other, ast.Delete) and name in _bound(other):
            return None
        if isinstance(other, ast.FunctionDef) and other.name == name:
            redefined.append(at)
    if not redefined:
        return None
    placed.update(redefined)
    return pieces[redefined[-1]][1]


def _overwritten(statement, later: list) -> bool:
    """`TOOLS["remember"] = remember`, set again later (`= guarded_remember`) with nothing reading
    `TOOLS` at the top level between the two: only the later one counts."""
    if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Subscript) and isinstance(statement.targets[0].value, ast.Name)):
        return False
    target = ast.dump(statement.targets[0])
    for other, _, _ in later:
        if isinstance(other, ast.Assign) and [ast.dump(t) for t in other.targets] == [target]:
            return True
        if statement.targets[0].value.id in _used(other):
            return False
    return False


def _with_comments(source: str, statement) -> str:
    """A statement's text with the comment lines right above it."""
    lines = source.splitlines()
    start = statement.lineno - 1
    while start > 0 and lines[start - 1].startswith("#"):
        start -= 1
    return "\n".join(lines[start:statement.end_lineno])


def answered(lesson: int, source: str) -> str:
    """An exercise cell as the next lesson carries it: each function solutions/lessonNN.py defines
    replaced by the reference (after the file's constants and imports it reads), the import of the
    checks and the call of the check left out, everything else (`TOOLS["forget"] = ...`) as it is."""
    solution_source = (SOLUTIONS / f"lesson{lesson:02d}.py").read_text()
    solution = ast.parse(solution_source).body
    functions = {s.name: s for s in solution if isinstance(s, ast.FunctionDef)}
    pieces = []
    for statement in ast.parse(source).body:
        if isinstance(statement, ast.ImportFrom) and (statement.module or "").startswith("agentloop.exercises"):
            continue
        if (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)
                and getattr(statement.value.func, "attr", "").startswith("check_")):
            continue
        if isinstance(statement, ast.FunctionDef) and statement.name in functions:
            reference = functions[statement.name]
            reads = {node.id for node in ast.walk(reference) if isinstance(node, ast.Name)}
            pieces += [_with_comments(solution_source, s) for s in solution
                       if isinstance(s, (ast.Assign, ast.Import, ast.ImportFrom)) and _bound(s) & reads]
            pieces.append(_with_comments(solution_source, reference))
        else:  # an import the reference repeats is dropped by final_program
            pieces.append(_with_comments(source, statement))
    return "\n\n".join(pieces)


def handed_on(lesson: int) -> list:
    """The cells whose program lesson `lesson` hands on: carried, agent, and exercise cells answered."""
    notebook = json.loads(LESSONS[lesson - 1].read_text())
    sources = []
    for cell in notebook["cells"]:
        tags = set(cell.get("metadata", {}).get("tags", []))
        if cell["cell_type"] == "code" and tags & {"carried", "agent", "exercise"}:
            source = "".join(cell["source"])
            sources.append(answered(lesson, source) if "exercise" in tags else source)
    return sources


def agent_at_end(lesson: int) -> str:
    return final_program(handed_on(lesson))


CARRYING = [lesson for lesson in range(2, 10) if cells(lesson, "carried")]


def test_lessons_two_to_nine_carry_the_agent():
    assert CARRYING == list(range(2, 10))


@pytest.mark.parametrize("lesson", CARRYING)
def test_the_carried_code_is_the_previous_lessons_agent(lesson):
    carried = final_program(cells(lesson, "carried"))
    expected = agent_at_end(lesson - 1)
    assert ast.dump(ast.parse(carried)) == ast.dump(ast.parse(expected)), (
        f"lesson {lesson}'s carried cells differ from the agent lesson {lesson - 1} ends with")


@pytest.mark.parametrize("lesson", CARRYING)
def test_the_carried_cells_hold_only_final_definitions(lesson):
    """No superseded definition is carried: what the cells hold is already their own final program."""
    carried = cells(lesson, "carried")
    assert ast.dump(ast.parse("\n\n".join(carried))) == ast.dump(ast.parse(final_program(carried))), (
        f"lesson {lesson}'s carried cells hold a definition a later one replaces")


@pytest.mark.parametrize("lesson", CARRYING)
def test_every_change_to_a_carried_name_says_so(lesson):
    carried_names = set().union(*(_bound(s) for s in ast.parse(final_program(cells(lesson, "carried"))).body))
    for source in cells(lesson, "agent"):
        redefined = carried_names & set().union(*(_bound(s) for s in ast.parse(source).body))
        if redefined:
            first = source.splitlines()[0]
            match = CHANGE_NOTE.match(first)
            assert match and (int(match[1]), int(match[2])) == (lesson - 1, lesson), (
                f"lesson {lesson} changes {sorted(redefined)} without a '# lesson {lesson - 1} -> "
                f"lesson {lesson}: ...' first line: {first!r}")


def _functions(source: str) -> dict:
    return {s.name: ast.get_source_segment(source, s) for s in ast.parse(source).body
            if isinstance(s, ast.FunctionDef)}


@pytest.mark.parametrize("lesson", CARRYING)
def test_a_change_note_counts_the_lines_it_changed(lesson):
    """'run_agent: 2 lines changed, 6 added' is what a diff of the definition and the one before it says: 2
    lines went, 8 came. A definition that got shorter says 'guarded_remember: 4 lines changed, 1 removed': 5 went, 4 came."""
    before = _functions(final_program(cells(lesson, "carried")))  # each name as the student last saw it
    for source in cells(lesson, "agent"):
        for name, changed, count, way in re.findall(r"(\w+): (\d+) lines? changed, (\d+) (added|removed)", source):
            new = _functions(source)[name].splitlines()
            diff = [line[0] for line in difflib.ndiff(before[name].splitlines(), new) if line[:1] in "+-"]
            gone, came = diff.count("-"), diff.count("+")
            said = (gone, came - gone) if way == "added" else (came, gone - came)
            assert said == (int(changed), int(count)), (lesson, name, f"{gone} lines went, {came} came")
        before.update(_functions(source))  # a lesson may change a name in two steps (lesson 5's run_agent)


def test_one_tool_helper_from_lesson_two_on():
    helpers = {lesson: [s for s in ast.parse(agent_at_end(lesson)).body
                        if isinstance(s, ast.FunctionDef) and s.name == "tool"] for lesson in range(2, 10)}
    assert all(len(found) == 1 for found in helpers.values())
    assert len({ast.dump(found[0]) for found in helpers.values()}) == 1


def test_no_tool_is_dropped_silently():
    """A tool registered in one lesson is registered in every later one (or `del`eted openly)."""
    def registered(lesson):
        program = ast.parse(agent_at_end(lesson))
        return {node.args[0].id for node in ast.walk(program) if isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "tool" and isinstance(node.args[0], ast.Name)}
    for lesson in range(3, 10):
        assert registered(lesson - 1) <= registered(lesson), (lesson, registered(lesson - 1) - registered(lesson))


def test_final_program_keeps_the_last_definition_and_honours_del():
    program = final_program(["x = 1\ndef f():\n    return 1", "def f():\n    return 2\ndel x"])
    assert program == "def f():\n    return 2"
    assert final_program(["x = 1\nprint(x)", "x = 2"]) == "x = 1\nprint(x)\n\nx = 2"
    assert final_program(["def f():\n    pass\ny = 2", "# retired: f\nz = 3"]) == "y = 2\n\nz = 3"
    # a name only a superseded statement read goes with it; a program is its own final program
    program = final_program(["name = 'a.json'\ndata = load(name)", "name = 'b.json'\ndata = load(name)"])
    assert program == "name = 'b.json'\ndata = load(name)" == final_program([program])
    # a function registered before it was redefined: one definition, the last, where the first stood
    program = final_program(["def f():\n    return 1\nreg(f)", "def f():\n    return 2\nT['f'] = f", "T['f'] = g"])
    assert program == "def f():\n    return 2\nreg(f)\n\nT['f'] = g" == final_program([program])
    assert final_program(["T['f'] = f\nprint(T)", "T['f'] = g"]) == "T['f'] = f\nprint(T)\n\nT['f'] = g"


ANSWERING = [lesson for lesson in range(1, 10) if cells(lesson, "exercise")]


@pytest.mark.parametrize("lesson", ANSWERING)
def test_the_reference_answers_are_not_in_the_notebook_they_answer(lesson):
    """A lesson whose exercise cells hand on their answers defines none of solutions/lessonNN.py's
    functions in its own cells: the reference stands in the next lesson's carried cells only."""
    solution = ast.parse((SOLUTIONS / f"lesson{lesson:02d}.py").read_text())
    references = {ast.dump(s) for s in solution.body if isinstance(s, ast.FunctionDef)}
    notebook = json.loads(LESSONS[lesson - 1].read_text())
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            defined = {ast.dump(s) for s in ast.parse("".join(cell["source"])).body if isinstance(s, ast.FunctionDef)}
            assert not defined & references, f"lesson {lesson} defines a reference answer: {''.join(cell['source'])[:80]!r}"


def test_lessons_seven_and_eight_hand_on_their_answers():
    assert ANSWERING == [7, 8]  # lesson 9's answers stay in the agent as the student wrote them


def test_answered_replaces_the_students_function_and_drops_the_check():
    cell = ("from agentloop.exercises import lesson07\n\ndef redact_phones(text):\n    ...  # your code here\n\n"
            'OUTPUT_GATES["phones"] = redact_phones\nlesson07.check_redact_phones(redact_phones, guarded_agent, memory)')
    program = answered(7, cell)
    assert "check_" not in program and "agentloop.exercises" not in program and "..." not in program
    assert 'OUTPUT_GATES["phones"] = redact_phones' in program and "phone_numbers(text)" in program
