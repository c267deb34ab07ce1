"""Lesson 3's agent loop, as the students write it, for tests that run it against many servers.

The same steps as `run_agent` in lessons/03_the_loop.ipynb: ask, append the reply, run every
tool call with the lesson's safe dispatch (a tool error is a result), append each result,
stop at an answer or after `max_turns`. It returns what happened instead of printing it.

`lesson_definitions(name)` takes the functions straight from a lesson notebook instead.
"""
import ast
import json
from dataclasses import dataclass, field
from pathlib import Path

import agentloop
from tools_for_tests import ADD, DIVIDE, MULTIPLY, WEATHER

LESSONS = Path(__file__).resolve().parent.parent / "lessons"

SYSTEM = "You are a careful assistant. Use the tools for arithmetic."
SCHEMAS = [ADD, MULTIPLY, DIVIDE, WEATHER]
TOOLS = {"add": lambda a, b: a + b, "multiply": lambda a, b: a * b, "divide": lambda a, b: a / b,
         "get_weather": lambda city: f"sunny in {city}"}


def safe_run_tool(call, tools):
    """Lesson 3's run_tool, with the tools passed in: every error comes back as a result."""
    try:
        name = call["function"]["name"]
        if name not in tools:
            return f"Error: unknown tool {name}"
        return str(tools[name](**json.loads(call["function"]["arguments"])))
    except Exception as error:
        return f"Error: {type(error).__name__}: {error}"


@dataclass
class Run:
    answer: str | None = None           # the final text, or None if the loop hit max_turns
    turns: int = 0                      # model calls made
    calls: list = field(default_factory=list)     # (name, arguments, result) for every tool call
    messages: list = field(default_factory=list)  # the whole conversation

    @property
    def stopped(self) -> str:
        return f"Stopped: no answer after {self.turns} turns." if self.answer is None else ""


def run_agent(question, max_turns=5, schemas=SCHEMAS, tools=TOOLS, system=SYSTEM, **options) -> Run:
    run = Run(messages=[{"role": "system", "content": system}, {"role": "user", "content": question}])
    for run.turns in range(1, max_turns + 1):
        message = agentloop.ask(run.messages, tools=schemas, **options)
        run.messages.append(message)
        if not message.get("tool_calls"):
            run.answer = message["content"]
            return run
        for call in message["tool_calls"]:
            result = safe_run_tool(call, tools)
            run.calls.append((call["function"]["name"], call["function"]["arguments"], result))
            run.messages.append({"role": "tool", "tool_call_id": call["id"], "content": result})
    return run


def lesson_definitions(name: str) -> dict:
    """A lesson's definitions: the imports, assignments, functions and classes of its code cells,
    in order (with each `tool(...)` call, which offers a tool), without the calls, prints and
    loops that show them off. Run it with the teaching
    model in use, so an assignment that asks the model costs nothing."""
    namespace = {"__name__": "lesson"}
    for cell in json.loads((LESSONS / name).read_text())["cells"]:
        if cell["cell_type"] == "code":
            keep = [node for node in ast.parse("".join(cell["source"])).body if isinstance(
                node, (ast.Import, ast.ImportFrom, ast.FunctionDef, ast.ClassDef, ast.Assign, ast.AnnAssign))
                or isinstance(node, ast.Expr) and getattr(getattr(node.value, "func", None), "id", "") == "tool"]
            exec(compile(ast.Module(keep, type_ignores=[]), name, "exec"), namespace)
    return namespace
