"""Reference solutions for lesson 3's exercises."""
import json

import agentloop

ADD = {"type": "function", "function": {"name": "add", "description": "Add two numbers.", "parameters": {
    "type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]}}}
MULTIPLY = {"type": "function", "function": {"name": "multiply", "description": "Multiply two numbers.", "parameters": {
    "type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]}}}
TOOLS = {"add": lambda a, b: a + b, "multiply": lambda a, b: a * b}


def safe_run_tool(call, tools):
    # Everything that can go wrong with a tool call (unknown name, bad JSON, wrong arguments, the
    # tool raising) becomes a string the model reads: one bad call must not end the whole run.
    try:
        name = call["function"]["name"]
        if name not in tools:
            return f"Error: unknown tool {name}"
        return str(tools[name](**json.loads(call["function"]["arguments"])))
    except Exception as error:
        return f"Error: {type(error).__name__}: {error}"


def _run(question, max_turns, stop_at=()):
    """The lesson's loop, with 3.2's stopping rule; returns (turns taken, the answer)."""
    messages = [{"role": "user", "content": question}]
    for turn in range(1, max_turns + 1):
        message = agentloop.ask(messages, tools=[ADD, MULTIPLY])
        messages.append(message)
        if not message.get("tool_calls"):
            return turn, message["content"]
        for call in message["tool_calls"]:
            result = safe_run_tool(call, TOOLS)
            if call["function"]["name"] in stop_at:
                return turn, result
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": result})
    return max_turns, f"Stopped: no answer after {max_turns} turns."


def run_agent_until(question, stop_at, max_turns=5):
    # Some tools' results ARE the answer (a final_answer or submit tool; the OpenAI Agents SDK's
    # StopAtTools): return the result as it is, since asking the model again costs a call and may
    # reword it. The check counts the model calls, so a loop that goes round once more fails.
    return _run(question, max_turns, stop_at)[1]


def count_turns(question, max_turns):
    # A turn is one model call. Counting tool calls + 1 gives the same number only when the loop
    # finishes; a loop stopped by max_turns made max_turns calls and never answered.
    return _run(question, max_turns)[0]
