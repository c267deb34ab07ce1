"""Lesson 2's checks both ways: the reference passes, plausible wrong answers fail with a true hint,
and right answers in other forms (other names, other wording) pass. Answers are run as the student's
cells would run them: in a namespace holding the lesson's own agent cells."""
import copy
import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
sys.path.insert(0, str(ROOT / "solutions"))
import lesson02 as s02  # noqa: E402

from agentloop import checks  # noqa: E402
from agentloop.exercises import lesson02  # noqa: E402
from lesson_answers import verdict  # noqa: E402

LESSON = json.loads((ROOT / "lessons" / "02_tools.ipynb").read_text())


@pytest.fixture(autouse=True)
def first_try(monkeypatch, tmp_path):
    """A first try each time (the nudge, not the fix); the progress file goes to a temporary folder."""
    monkeypatch.setattr(checks, "_failed_runs", {})
    monkeypatch.chdir(tmp_path)


def agent(answer: str = "") -> dict:
    """The lesson's agent (its carried and agent cells) in a fresh namespace, then `answer` run in it."""
    namespace = {"__name__": "notebook"}
    for cell in LESSON["cells"]:
        if cell["cell_type"] == "code" and {"carried", "agent"} & set(cell["metadata"].get("tags", [])):
            exec("".join(cell["source"]), namespace)
    exec(answer, namespace)
    return namespace


def tally_agent(schema) -> tuple:
    """(TALLY, SCHEMAS, run_tool) as 2.1's cell leaves them: the lesson's agent, the lesson's tally offered
    through tool() (the demo cell above the exercise), then `schema` put in SCHEMAS."""
    demo = next("".join(c["source"]) for c in LESSON["cells"] if "".join(c["source"]).startswith("def tally("))
    namespace = agent(demo.rsplit("\n", 1)[0])  # its last line only shows the model's miscount
    namespace["SCHEMAS"]["tally"] = schema
    return schema, namespace["SCHEMAS"], namespace["run_tool"]


def described(x, y, **changes):
    schema = copy.deepcopy(s02.TALLY)
    properties = schema["function"]["parameters"]["properties"]
    properties["x"]["description"], properties["y"]["description"] = x, y
    schema["function"].update(changes)
    return schema


def schema_without(key):
    schema = copy.deepcopy(s02.TALLY)
    del schema["function"][key]
    return schema


SUGGEST = '''
def run_tool_or_suggest(call):
    name = call["function"]["name"]
    if name not in TOOLS:
        return {line}
    arguments = json.loads(call["function"]["arguments"])
    return str(TOOLS[name](**arguments))
'''


def suggesting(line: str):
    """(run_tool_or_suggest with `line` for an unknown name, the TOOLS it reads)."""
    namespace = agent(SUGGEST.format(line=line))
    return namespace["run_tool_or_suggest"], namespace["TOOLS"]


def suggesting_with(before: str, line: str):
    """suggesting(line), with `before` run at the top of the student's cell."""
    namespace = agent(before + "\n" + SUGGEST.format(line=line))
    return namespace["run_tool_or_suggest"], namespace["TOOLS"]


def word_tool(definition: str, offer: str = ""):
    """The function a student's 2.3 cell defines, after the lesson's agent cells."""
    namespace = agent(definition + "\n" + offer)
    return next(value for name, value in namespace.items() if callable(value) and name in definition.split("(")[0])


def test_the_reference_passes(capsys):
    assert verdict(lesson02.check_tally_schema, *tally_agent(s02.TALLY), capsys=capsys)[0]
    assert verdict(lesson02.check_run_tool_or_suggest, s02.run_tool_or_suggest, s02.TOOLS, capsys=capsys)[0]
    assert verdict(lesson02.check_count_words, s02.count_words, capsys=capsys)[0]


UNUSUAL = [  # right answers in another form
    (lesson02.check_tally_schema, lambda: tally_agent(described("single character to look for", "text to search in"))),
    (lesson02.check_tally_schema, lambda: tally_agent(described("what to count: one character",
                                                                "where to count it: a word or a text",
                                                                description="Count how often a letter appears in a text."))),
    # the review's right schemas whose tool description the teaching model does not read ("tally", "occurrences"):
    # the parameters say which is which, so the check accepts them
    (lesson02.check_tally_schema, lambda: tally_agent(described("letter to tally", "word",
                                                                description="Tally a letter in a word."))),
    (lesson02.check_tally_schema, lambda: tally_agent(described("single character to look for",
                                                                "the text in which to search",
                                                                description="Tallies occurrences."))),
    # review 13: one parameter named only by what it does, the other the word: the first is the letter
    (lesson02.check_tally_schema, lambda: tally_agent(described("what to count", "the word"))),
    (lesson02.check_run_tool_or_suggest, lambda: suggesting('f"Error: tool not found {name}. Try: {list(TOOLS)}"')),
    # review 6: names read from SCHEMAS, which tool() fills beside TOOLS, are as good as names from TOOLS
    (lesson02.check_run_tool_or_suggest, lambda: suggesting('f"Error: unknown tool {name}. Try one of {list(SCHEMAS)}"')),
    (lesson02.check_run_tool_or_suggest, lambda: suggesting(
        '"Unknown tool " + repr(name) + ". Offered: " + ", ".join(s["function"]["name"] for s in SCHEMAS.values())')),
    (lesson02.check_run_tool_or_suggest, lambda: suggesting('"No such tool as " + name + ". You can call " + " or ".join(sorted(TOOLS))')),
    # the whole schemas are noisy but hold no object's repr: names and descriptions the model can use
    (lesson02.check_run_tool_or_suggest, lambda: suggesting('f"Error: no tool {name}. The tools: {list(SCHEMAS.values())}"')),
    (lesson02.check_count_words, lambda: word_tool("def tally(s):\n    return str(len(s.split()))",
                                                   "tool(tally, 'Return how many words a sentence has.', s='string')")),
    (lesson02.check_count_words, lambda: word_tool("def words_in(passage):\n    return len(passage.split())",
                                                   "tool(words_in, 'How many words a text has.', passage='string')")),
    (lesson02.check_count_words, lambda: word_tool("import re\ndef count_words(text):\n    return len(re.findall(r'\\S+', text))",
                                                   "tool(count_words, 'Count the words in a text.', text='string')")),
]


@pytest.mark.parametrize("check, make", UNUSUAL, ids=[f"{c.__name__}-{i}" for i, (c, _) in enumerate(UNUSUAL)])
def test_unusual_right_answers_pass(check, make, capsys):
    answer = make()
    passed, printed = verdict(check, *(answer if isinstance(answer, tuple) else (answer,)), capsys=capsys)
    assert passed, printed


WRONG = [  # (check, a wrong answer, a phrase the hint must contain)
    (lesson02.check_tally_schema, lambda: tally_agent({"name": "tally"}), "what kind of tool"),
    (lesson02.check_tally_schema, lambda: tally_agent(schema_without("description")), "description"),
    (lesson02.check_tally_schema, lambda: tally_agent(schema_without("parameters")), "JSON schema of an object"),
    # review finding: 2.1 was COUNT_LETTERS retyped; now a schema tool() writes (types only) is not enough
    (lesson02.check_tally_schema, lambda: tally_agent({"type": "function", "function": {
        "name": "tally", "description": "Count how many times a letter occurs in a word.",
        "parameters": {"type": "object", "properties": {"x": {"type": "string"}, "y": {"type": "string"}},
                       "required": ["x", "y"]}}}), "tool() could have written this schema"),
    (lesson02.check_tally_schema, lambda: tally_agent(described("the word to search", "the letter to count")),
     "the other way round"),
    (lesson02.check_tally_schema, lambda: tally_agent(described("a string", "a string")),
     "with your schema nor with your parameters under a plain tool description"),
    (lesson02.check_tally_schema, lambda: tally_agent(described("a string", "a string", description="Tallies occurrences.")),
     "could not tell from x's and y's descriptions"),
    (lesson02.check_tally_schema, lambda: (s02.TALLY, tally_agent(s02.TALLY)[1] | {"tally": {}}, tally_agent(s02.TALLY)[2]),
     "not in SCHEMAS"),
    (lesson02.check_run_tool_or_suggest, lambda: suggesting('f"Error: unknown tool {name}"'), "does not name count_letters"),
    (lesson02.check_run_tool_or_suggest, lambda: suggesting('"Error: unknown tool fly. Try one of count_letters, tally"'),
     "the list of names was made before that tool came"),
    # a list read from TOOLS, but once, when the cell ran: a tool added later is missing from it
    (lesson02.check_run_tool_or_suggest, lambda: suggesting_with("NAMES = ', '.join(TOOLS)", 'f"Error: no tool {name}; try {NAMES}"'),
     "the list of names was made before that tool came"),
    (lesson02.check_run_tool_or_suggest, lambda: suggesting('TOOLS'), "the model reads a string"),
    # review 14: the real tools listed, but not the name the model asked for: it does not learn which call failed
    (lesson02.check_run_tool_or_suggest, lambda: suggesting('"No such tool. You can call " + " or ".join(sorted(TOOLS))'),
     "does not say which tool was asked for"),
    (lesson02.check_run_tool_or_suggest, lambda: suggesting('"Error: try one of " + ", ".join(TOOLS)'),
     "does not say which tool was asked for"),
    # the review's: the whole TOOLS dict in the text, names and function objects: name the tools, not the objects
    (lesson02.check_run_tool_or_suggest, lambda: suggesting('f"Error: no tool {name}. Tools: {TOOLS}"'),
     "Python's picture of a function object"),
    (lesson02.check_run_tool_or_suggest, lambda: suggesting('f"Error: no tool {name}. Try: {list(TOOLS.items())}"'),
     "Python's picture of a function object"),
    (lesson02.check_count_words, lambda: word_tool("def count_words(text):\n    return len(text.split())"),
     "not offered to the model yet"),
    # the review's: a schema written by hand into SCHEMAS, the function never put in TOOLS
    (lesson02.check_count_words, lambda: word_tool("def count_words(text):\n    return len(text.split())",
                                                   "SCHEMAS['count_words'] = {'type': 'function', 'function': {"
                                                   "'name': 'count_words', 'description': 'Count the words in a text.', "
                                                   "'parameters': {'type': 'object', 'properties': {'text': {'type': "
                                                   "'string'}}, 'required': ['text']}}}"),
     "but TOOLS (what run_tool runs) has no count_words"),
    (lesson02.check_count_words, lambda: word_tool("def count_words(text):\n    return text.count(' ')",
                                                   "tool(count_words, 'Count the words in a text.', text='string')"),
     "the text has 5 words"),
    (lesson02.check_count_words, lambda: word_tool("def count_words(text):\n    return len(text)",
                                                   "tool(count_words, 'Return the length of a string.', text='string')"),
     "does not say the tool counts words"),
    # review 6: split(" ") passed; it miscounts a text with runs of spaces, tabs or line breaks
    (lesson02.check_count_words, lambda: word_tool("def count_words(text):\n    return len(text.split(' '))",
                                                   "tool(count_words, 'Count the words in a text.', text='string')"),
     "the text has 4 words"),
    (lesson02.check_count_words, lambda: word_tool("def count_words(text):\n    return text.strip().count(' ') + 1",
                                                   "tool(count_words, 'Count the words in a text.', text='string')"),
     "the text has 4 words"),
    # review 5: the right function offered with count_letters' description, copied and not edited
    (lesson02.check_count_words, lambda: word_tool("def count_words(text):\n    return len(text.split())",
                                                   "tool(count_words, 'Count how many times a letter occurs in a word.', "
                                                   "text='string')"),
     "the same as count_letters's"),
    (lesson02.check_count_words, lambda: word_tool("def count_words(text):\n    return len(text.split())",
                                                   "tool(count_words, 'Count the letters in a text.', text='string')"),
     "does not say the tool counts words"),
    # review 17: the parameter declared a number; the model sends a number, and the hint named an AttributeError
    (lesson02.check_count_words, lambda: word_tool("def count_words(text):\n    return len(text.split())",
                                                   "tool(count_words, 'Count the words in a text.', text='number')"),
     "declares text as 'number'"),
    # review 18: offered with no parameters; the model calls it with none, and the hint was a raw TypeError
    (lesson02.check_count_words, lambda: word_tool("def count_words(text):\n    return len(text.split())",
                                                   "tool(count_words, 'Count the words in a text.')"),
     "offered with no parameters"),
]


@pytest.mark.parametrize("arguments, hint", [
    ({"x": "r", "y": "r"}, "it put 'r' in both, so it could not tell from your descriptions which parameter is the word"),
    ({"x": "r", "y": "berry"}, "neither holds 'strawberry'"),
    ({"x": "strawberry", "y": "r"}, "the other way round"),
    ({"x": "s", "y": "strawberry"}, "y is the word, but x is not the letter"),
])
def test_the_hint_says_only_what_the_models_arguments_show(monkeypatch, arguments, hint, capsys):
    """Review 15: descriptions the model could not tell apart made it call tally(x='r', y='r'), and the hint
    said they were the other way round. Whatever the model makes of the descriptions, the hint follows
    its arguments: swapped only when they are swapped."""
    schema = described("Which character to tally (one char).", "Term/phrase that gets scanned.")
    answer = tally_agent(schema)

    def ask(messages, tools=None, **_):
        call = {"id": "call_1", "type": "function", "function": {"name": "tally", "arguments": json.dumps(arguments)}}
        return {"role": "assistant", "content": None, "tool_calls": [call]}
    monkeypatch.setattr(lesson02.llm, "ask", ask)
    passed, printed = verdict(lesson02.check_tally_schema, *answer, capsys=capsys)
    assert not passed and hint in printed, printed
    if arguments != {"x": "strawberry", "y": "r"}:
        assert "other way round" not in printed, printed


def test_the_reviewers_descriptions_are_never_called_swapped(capsys):
    """The review's own descriptions, on the teaching model as it is: a pass, or a hint that is true."""
    answer = tally_agent(described("Which character to tally (one char).", "Term/phrase that gets scanned."))
    passed, printed = verdict(lesson02.check_tally_schema, *answer, capsys=capsys)
    assert passed or "other way round" not in printed, printed


@pytest.mark.parametrize("check, make, hint", WRONG, ids=[f"{c.__name__}-{i}" for i, (c, _, _) in enumerate(WRONG)])
def test_wrong_answers_fail_with_a_true_hint(check, make, hint, capsys):
    answer = make()
    passed, printed = verdict(check, *(answer if isinstance(answer, tuple) else (answer,)), capsys=capsys)
    assert not passed and printed.startswith("❌"), printed
    assert hint in printed, printed
    assert "Fix:" not in printed and "Traceback" not in printed


def test_a_second_failure_adds_the_fix(capsys):
    answer = suggesting('f"Error: unknown tool {name}"')
    first = verdict(lesson02.check_run_tool_or_suggest, *answer, capsys=capsys)[1]
    second = verdict(lesson02.check_run_tool_or_suggest, *answer, capsys=capsys)[1]
    assert second.startswith(first.rstrip("\n") + " Fix: ") and "', '.join(TOOLS)" in second


def test_the_check_leaves_the_students_tools_as_they_were(capsys):
    run_tool_or_suggest, tools = suggesting('f"Error: no tool {name}; try one of {sorted(TOOLS)}"')
    before, offered = dict(tools), dict(run_tool_or_suggest.__globals__["SCHEMAS"])
    verdict(lesson02.check_run_tool_or_suggest, run_tool_or_suggest, tools, capsys=capsys)
    assert tools == before and run_tool_or_suggest.__globals__["SCHEMAS"] == offered
