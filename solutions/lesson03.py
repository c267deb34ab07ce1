"""Reference solutions for lesson 3's exercises."""
import json

import agentloop

ADD = {"type": "function", "function": {"name": "add", "description": "Add two numbers.", "parameters": {
    "type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]}}}
MULTIPLY = {"type": "function", "function": {"name": "multiply", "description": "Multiply two numbers.", "parameters": {
    "type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]}}}
TOOLS = {"add": lambda a, b: a + b, "multiply": lambda a, b: a * b}


def safe_run_tool(call, tools):
    try:
        name = call["function"]["name"]
        if name not in tools:
            return f"Error: unknown tool {name}"
        return str(tools[name](**json.loads(call["function"]["arguments"])))
    except Exception as error:
        return f"Error: {type(error).__name__}: {error}"


def _run(question, max_turns=10):
    """The lesson's loop; returns (tool names used, turns taken)."""
    messages, used = [{"role": "user", "content": question}], []
    for turn in range(1, max_turns + 1):
        message = agentloop.ask(messages, tools=[ADD, MULTIPLY])
        messages.append(message)
        if not message.get("tool_calls"):
            return used, turn
        for call in message["tool_calls"]:
            used.append(call["function"]["name"])
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": safe_run_tool(call, TOOLS)})
    return used, max_turns, max_turns


def tools_used(question):
    return _run(question)[0]


def count_turns(question, max_turns):
    # A turn is one model call. Counting tool calls + 1 gives the same number only when the loop
    # finishes; a loop stopped by max_turns made max_turns calls and never answered.
    return _run(question, max_turns)[1]
