"""Reference solutions for lesson 3's exercises: each is the lesson's skeleton with its hole filled."""
import json

import agentloop

# The lesson's agent, as far as the answers use it (the notebook defines the same).
SYSTEM = "You are a careful assistant. Use the tools for arithmetic."
TOOLS, SCHEMAS = {}, {}


def tool(function, description, **params):
    properties = {param: {"type": kind} for param, kind in params.items()}
    SCHEMAS[function.__name__] = {"type": "function", "function": {
        "name": function.__name__, "description": description,
        "parameters": {"type": "object", "properties": properties, "required": list(params)}}}
    TOOLS[function.__name__] = function


def add(a, b):
    return a + b


def multiply(a, b):
    return a * b


tool(add, "Add two numbers.", a="number", b="number")
tool(multiply, "Multiply two numbers.", a="number", b="number")


def run_tool(call):
    try:
        name = call["function"]["name"]
        if name not in TOOLS:
            return f"Error: there is no tool {name}; the tools are: {', '.join(TOOLS)}"  # exercise 2.2
        return str(TOOLS[name](**json.loads(call["function"]["arguments"])))
    except Exception as error:
        return f"Error: {type(error).__name__}: {error}"


def run_agent_until(question, stop_at, max_turns=5):
    # Some tools' results ARE the answer (a final_answer or submit tool; the OpenAI Agents SDK's
    # StopAtTools): return the result as it is, since asking the model again costs a call and may
    # reword it.
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": question}]
    for turn in range(1, max_turns + 1):
        message = agentloop.ask(messages, tools=list(SCHEMAS.values()))
        messages.append(message)
        if not message.get("tool_calls"):
            return message["content"]
        for call in message["tool_calls"]:
            result = run_tool(call)
            if call["function"]["name"] in stop_at:
                return result
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": result})
    return f"Stopped: no answer after {max_turns} turns."


def run_agent_final_answer(question, max_turns=5):
    # Out of turns, the run still owes the user an answer: one more call WITHOUT tools makes the
    # model answer from what the tools found so far (smolagents does this at max_steps). With tools
    # offered it could ask for yet another tool.
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": question}]
    for turn in range(1, max_turns + 1):
        message = agentloop.ask(messages, tools=list(SCHEMAS.values()))
        messages.append(message)
        if not message.get("tool_calls"):
            return message["content"]
        for call in message["tool_calls"]:
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": run_tool(call)})
    # Answered without tools, from what it had, the last answer may be partial or wrong (here: the sum
    # 7, before the multiplying), so the user is told the run was cut short.
    return f"{agentloop.ask(messages)['content']} (I ran out of turns, so this may be incomplete.)"


def run_agent_asking(question, approve, max_turns=5):
    # A refused call still needs its tool message: the API requires an answer to every call, and
    # the refusal, as a result, is how the model learns it must answer without that tool.
    messages = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": question}]
    for turn in range(1, max_turns + 1):
        message = agentloop.ask(messages, tools=list(SCHEMAS.values()))
        messages.append(message)
        if not message.get("tool_calls"):
            return message["content"]
        for call in message["tool_calls"]:
            if approve(call):
                result = run_tool(call)
            else:
                result = f"Error: the user did not allow {call['function']['name']}"
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": result})
    return f"Stopped: no answer after {max_turns} turns."
