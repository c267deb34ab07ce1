"""Arithmetic for the teaching model: find a sum in a sentence and plan its tool calls.

"What is (3 + 4) * 5?" with an `add` and a `multiply` tool takes two model turns:
first add(3, 4); then, once the loop sends back 7, multiply(7, 5). The model uses
whatever number the tool returned, so a buggy tool gives a wrong final answer, as it
would with a real model. Operations with no tool offered are done "in its head".
"""
import ast
import operator
import re

OPERATIONS = {ast.Add: ("add", "+", operator.add), ast.Sub: ("subtract", "-", operator.sub),
              ast.Mult: ("multiply", "*", operator.mul), ast.Div: ("divide", "/", operator.truediv)}
WORDS = [  # spoken arithmetic -> symbols, applied in order
    (r"\badd (\S+) (?:and|to) (\S+)", r"(\1 + \2)"),
    (r"\b(?:the )?sum of (\S+) and (\S+)", r"(\1 + \2)"),
    (r"\bsubtract (\S+) from (\S+)", r"(\2 - \1)"),
    (r"\bmultiply (\S+) (?:by|and|with) (\S+)", r"(\1 * \2)"),
    (r"\b(?:the )?product of (\S+) and (\S+)", r"(\1 * \2)"),
    (r"\bdivide (\S+) by (\S+)", r"(\1 / \2)"),
    (r"\bplus\b", "+"), (r"\bminus\b", "-"), (r"\b(?:times|multiplied by)\b", "*"),
    (r"\bdivided by\b", "/"), (r"(?<=\d)\s*[x×]\s*(?=\d)", " * "), ("÷", "/"),
]
NUMBER = r"-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?"


class ToolFailed(Exception):
    """A tool's result was not a number (an error message, for instance)."""


def find_expression(text: str) -> str | None:
    """The arithmetic in a sentence, as a Python expression string, or None."""
    text = text.lower().replace(",", "")
    for pattern, symbol in WORDS:
        text = re.sub(pattern, symbol, text)
    runs = re.findall(r"[\d.\s+\-*/()]+", text)
    for run in sorted(runs, key=len, reverse=True):
        run = run.strip().rstrip(".")
        while run.count("(") > run.count(")") and run.startswith("("):
            run = run[1:].strip()
        if re.search(r"\d\s*\)*\s*[-+*/]\s*\(*\s*-?\d", run) and _parse(run) is not None:
            return run
    return None


def _parse(expression: str):
    try:
        tree = ast.parse(expression, mode="eval").body
    except SyntaxError:
        return None
    allowed = (ast.BinOp, ast.UnaryOp, ast.Constant, ast.USub, ast.UAdd, *OPERATIONS)
    for node in ast.walk(tree):
        if not isinstance(node, allowed) or (isinstance(node, ast.Constant)
                                              and not isinstance(node.value, (int, float))):
            return None
    return tree


def number(result: str) -> float:
    """The number in a tool's result ("7", "7.0", '{"result": 7}', "The sum is 7")."""
    found = re.search(NUMBER, result)
    if not found or re.search(r"error|exception|traceback", result, re.IGNORECASE):
        raise ToolFailed(result)
    return float(found.group())


def plan(expression: str, tools: dict, results: list[str]):
    """Walk the expression, using one tool result per operation that has a tool.

    Returns ("call", kind, a, b) for the next operation to hand to a tool, or
    ("done", value) when every operation has a value. `tools` maps kind -> tool.
    """
    pending = iter(results)

    def value(node):
        if isinstance(node, ast.Constant):
            return float(node.value)
        if isinstance(node, ast.UnaryOp):
            inner = value(node.operand)
            return inner if isinstance(inner, tuple) else -inner if isinstance(node.op, ast.USub) else inner
        left = value(node.left)
        if isinstance(left, tuple):
            return left
        right = value(node.right)
        if isinstance(right, tuple):
            return right
        kind, _, compute = OPERATIONS[type(node.op)]
        if kind not in tools:
            return compute(left, right)  # no tool for it: done "in its head"
        result = next(pending, None)
        return ("call", kind, left, right) if result is None else number(result)

    answer = value(_parse(expression))
    return answer if isinstance(answer, tuple) else ("done", answer)


def show(value: float) -> str:
    """7.0 -> "7", 2.5 -> "2.5"."""
    return str(int(value)) if float(value).is_integer() else f"{value:.10g}"
