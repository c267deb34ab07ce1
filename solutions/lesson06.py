"""Reference solutions for lesson 6's exercises. They run in the lesson's notebook, next to its agent
(SYSTEM, SCHEMAS, run_tool, remember, system_prompt, trace)."""
import json

import agentloop
from agentloop.storage import save_json

# The notebook's memory and its file (the defaults only let this file be imported on its own).
memory = globals().get("memory", {})
MEMORY_FILE = globals().get("MEMORY_FILE", "memory.json")


def my_run_agent(question, history, state, max_turns=5):
    messages = [{"role": "system", "content": SYSTEM}, *history, {"role": "user", "content": question}]
    for turn in range(1, max_turns + 1):
        # The first line in the loop: before every call, so a fact stored by the call before is in
        # this request, and a new chat starts with everything stored so far.
        messages[0] = {"role": "system", "content": system_prompt()}  # noqa: F821
        response = agentloop.complete(messages, tools=list(SCHEMAS.values()))
        state["model_calls"] += 1
        state["prompt_tokens"] += response["usage"]["prompt_tokens"]
        state["completion_tokens"] += response["usage"]["completion_tokens"]
        message = response["choices"][0]["message"]
        messages.append(message)
        if not message.get("tool_calls"):
            trace.record("final", {"content": message["content"]})
            break
        for call in message["tool_calls"]:
            state["tool_calls"] += 1
            trace.record("tool_call", {"name": call["function"]["name"], "arguments": call["function"]["arguments"]})
            result = run_tool(call)
            trace.record("tool_result", {"name": call["function"]["name"], "content": result})
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": result})
    history[:] = messages[1:]  # everything but the system prompt, kept for next time
    return message["content"] or f"Stopped: no answer after {max_turns} turns."


def forget_fact(key):
    # A result the model can read, never a KeyError: the model may ask to forget what was never stored.
    if key not in memory:
        return f"Nothing is stored under {key}."
    del memory[key]
    save_json(MEMORY_FILE, memory)  # saved at once, like remember: a restart must not bring it back
    return f"Forgot {key}."


def load_memory(path):
    try:
        with open(path) as file:
            data = json.load(file)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
