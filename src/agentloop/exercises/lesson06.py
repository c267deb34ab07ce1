"""Lesson 6 exercises: memory in every request (in the student's loop), forget as a tool, loading safely."""
import contextlib
import inspect
import io
import os
import re
import tempfile

from .. import trace
from ..checks import attempt, exercise, expect, files_kept
from ..storage import load_json


@contextlib.contextmanager
def _kept(memory, path):
    """The student's memory dict and its file as they were, put back when the check ends."""
    saved = dict(memory)
    with files_kept(path, path + ".bak"):
        memory.clear()
        try:
            yield
        finally:
            memory.clear()
            memory.update(saved)


def _run(run_agent, question, *args):
    """(the answer, the requests the run sent, the names of the tools the model called): the
    student's loop on one question in a new chat, its prints swallowed."""
    start = len(trace.events)
    with contextlib.redirect_stdout(io.StringIO()):  # the check prints one line
        answer = attempt(run_agent, question, [], {"model_calls": 0, "tool_calls": 0, "prompt_tokens": 0,
                                                  "completion_tokens": 0}, *args)
    events = trace.events[start:]
    called = [call.get("function", {}).get("name") for e in events if e.kind == "response"
              for call in ((e.payload.get("choices") or [{}])[0].get("message") or {}).get("tool_calls") or []]
    return answer, [e.payload.get("messages", []) for e in events if e.kind == "request"], called


def _system(messages: list) -> str:
    return str(messages[0].get("content")) if messages and messages[0].get("role") == "system" else ""


@exercise("6.1 Memory in every request")
def check_memory_injection(my_run_agent, memory, MEMORY_FILE):
    expect(isinstance(memory, dict), "pass the memory dict second: check_memory_injection(my_run_agent, memory, MEMORY_FILE).")
    with _kept(memory, str(MEMORY_FILE)):
        _, requests, _ = _run(my_run_agent, "Hi! My name is Ada, I prefer tea.")
        expect(requests, "my_run_agent asked the model nothing: it is lesson 5's loop with one more line.")
        added = [m.get("content") for messages in requests for m in messages
                 if m.get("role") == "user" and m.get("content") != "Hi! My name is Ada, I prefer tea."]
        first = str(added[0])[:80] if added else ""
        expect(not added, f"asked one question, your loop sent a user message of its own too: {first!r}. "
                          "A user message reads as the user talking, and the model answers it instead of the question. "
                          "The memory goes in the system message (messages[0]), rebuilt before every model call.",
               fix='messages[0] = {"role": "system", "content": system_prompt()}, as the first line inside the loop, '
                   'and no messages.append for the memory.')
        expect(memory.get("name") == "Ada", f"after 'Hi! My name is Ada, I prefer tea.' memory is {memory}: the model's "
                                            "remember call did not run. Keep the loop's tool calls as they are.")
        for number, messages in enumerate(requests, 1):
            systems = [m for m in messages if m.get("role") == "system"]
            expect(len(systems) == 1 and messages[0].get("role") == "system",
                   f"request {number} holds {len(systems)} system messages: the memory should replace the system "
                   "message at messages[0], not be added as another one.",
                   fix='messages[0] = {"role": "system", "content": system_prompt()}')
        expect(len(requests) > 1 and "Ada" in _system(requests[1]),
               "the model stored name=Ada with its first call, but request 2 of the same question did not carry it: "
               "the system message was not rebuilt between the two calls.",
               fix='make messages[0] = {"role": "system", "content": system_prompt()} the first line inside the loop.')
        answer, requests, _ = _run(my_run_agent, "What is my name?")
        expect("Ada" in _system(requests[0]) if requests else False,
               "in a new chat, the first request's system message did not hold what memory holds (name: Ada): the "
               "memory must be in the request before the model is asked.",
               fix="rebuild messages[0] before agentloop.complete, not after it.")
        expect(isinstance(answer, str) and "Ada" in answer,
               f"in a new chat, 'What is my name?' got {answer!r}, with Ada in the system message: the memory is in "
               "the right place, in a form the teaching model cannot read. It reads '- key: value' lines, JSON, a dict as "
               "Python prints it or sentences, which is what system_prompt() writes (a real model would read more forms).",
               fix='messages[0] = {"role": "system", "content": system_prompt()}')


# The student's forget, once its check passed in this session: lesson 6's last cells install the reference
# forget as the agent's tool, then `keep_passing_forget` puts the student's back in its place.
_passing = {}


def keep_passing_forget(TOOLS):
    """Put the student's passing forget over the reference one; print one line saying which is in the agent."""
    answer = _passing.get("6.2")
    if answer is not None:
        def forget(key):  # the model fills the offered schema's `key`; your parameter may have another name
            return answer(key)
        TOOLS["forget"] = forget
        print(f"Your {answer.__name__} is the agent's forget tool from here on.")
    else:
        print("6.2's check has not passed in this session, so the reference forget is the agent's tool.")


@exercise("6.2 Forget, as a tool")
def check_forget_tool(forget):
    _passing.pop("6.2", None)
    name = getattr(forget, "__name__", "forget")  # the student's function, under whatever name it has
    agent = getattr(forget, "__globals__", {})  # where forget was written: the notebook's agent, memory and file
    expect(all(name in agent for name in ("run_agent", "tool", "SCHEMAS", "TOOLS", "memory", "MEMORY_FILE")),
           f"write {name} as a function in the lesson's notebook, below its agent: the check chats with that agent.")
    run_agent = agent["run_agent"]
    memory, schemas, tools = agent["memory"], dict(agent["SCHEMAS"]), dict(agent["TOOLS"])
    with _kept(memory, str(agent["MEMORY_FILE"])):
        try:
            params = list(inspect.signature(forget).parameters) if callable(forget) else []
            expect(len(params) == 1, f"{name} takes {len(params)} parameters: it takes one, the key to forget.")
            # The agent's own forget (installed after the exercises, so there on a second Run All) is taken away
            # for the check: offered both, the model would call that one, not yours. `finally` puts it back.
            agent["SCHEMAS"].pop("forget", None)
            agent["TOOLS"].pop("forget", None)
            attempt(agent["tool"], forget, "Forget a fact about the user.", **{params[0]: "string"})
            _run(run_agent, "My name is Ada and I live in Berlin.")
            expect(memory.get("name") == "Ada" and memory.get("lives_in") == "Berlin",
                   f"after 'My name is Ada and I live in Berlin.' memory is {memory}: run the lesson's cells above first.")
            answer, _, called = _run(run_agent, "Forget my name")
            expect(forget.__name__ in called,
                   f"asked 'Forget my name', the model did not call your tool: it answered {answer!r}. It fills "
                   f"a parameter it can match to the request: name it key, as remember's is.")
            rebound = isinstance(agent.get("memory"), dict) and agent["memory"] is not memory
            if rebound:  # the name back on the agent's own dict, so the notebook goes on as before the check
                agent["memory"] = memory
            expect(not rebound, f"`memory = ...` inside {name} (with `global memory`) put a new dict under the name "
                                f"memory. Code that looks the name up sees it, but code that was handed the dict "
                                f"before (this check, and any tool or gate given `memory`) still sees {memory}. "
                                "Change the dict itself, so everything holding it sees the change.",
                   fix=f"del memory[key] (or memory.pop(key, None)) inside {name}, with no `global` line.")
            expect("name" not in memory, f"after 'Forget my name' memory is {memory}: the name is still there.",
                   fix=f"del memory[key] (or memory.pop(key, None)) inside {name}.")
            expect(memory.get("lives_in") == "Berlin", f"after 'Forget my name' memory is {memory}: only the name goes.")
            on_disk = load_json(str(agent["MEMORY_FILE"]), default={})
            expect(on_disk == memory, f"{agent['MEMORY_FILE']} still holds {on_disk}: a restart would bring the name back.",
                   fix="save_json(MEMORY_FILE, memory) after deleting, as remember saves after storing.")
            answer, _, _ = _run(run_agent, "What is my name?")
            expect(isinstance(answer, str) and "Ada" not in answer,
                   f"in a new chat, 'What is my name?' got {answer!r}: the name should be gone.")
            before = dict(memory)
            result = attempt(forget, "favourite_colour")
            claims = isinstance(result, str) and not re.search(r"\b(?:no|not|nothing|never|isn't|wasn't|don't|didn't|unknown|"
                                                               r"no such)\b", result, re.I)
            expect(isinstance(result, str) and result.strip() and memory == before and not claims,
                   f"{name}('favourite_colour'), a key that was never stored, returned {result!r}: return a sentence "
                   "that says nothing was stored under it (the model reads it), and change nothing.",
                   fix="if key not in memory: return f'Nothing is stored under {key}.'")
            done = attempt(forget, "lives_in")
            expect(isinstance(done, str) and done.strip() and "lives_in" not in memory,
                   f"{name}('lives_in') returned {done!r}: return a sentence saying what was forgotten.")
            _passing["6.2"] = forget
        finally:  # the agent offers exactly what it offered before the check
            agent["SCHEMAS"].clear()
            agent["SCHEMAS"].update(schemas)
            agent["TOOLS"].clear()
            agent["TOOLS"].update(tools)


@exercise("6.3 Load memory without ever crashing")
def check_load_memory(load_memory):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "memory.json")
        expect(attempt(load_memory, path) == {}, "a missing file means an empty memory: return {}.",
               fix="if not os.path.exists(path): return {}.")
        with open(path, "w") as file:
            file.write('{"name": "Ada"}')
        got = attempt(load_memory, path)
        expect(got == {"name": "Ada"}, f"a good file loads as its dict; got {got!r}.")
        with open(path, "w") as file:
            file.write('{"name": "Ad')  # a save cut off half-way
        got = attempt(load_memory, path)
        expect(got == {}, f"a truncated file must not crash the agent: return {{}} (got {got!r}).",
               fix="wrap json.load in try/except ValueError (json.JSONDecodeError is one) and return {}.")
        with open(path, "w") as file:
            file.write('["not", "a", "dict"]')
        got = attempt(load_memory, path)
        expect(got == {}, f"JSON that is not an object is not a memory: return {{}} (got {got!r}).",
               fix="return the loaded value only if isinstance(value, dict), else {}.")
