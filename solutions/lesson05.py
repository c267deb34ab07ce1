"""Reference solutions for lesson 5's exercises."""
import json
from collections import Counter

import agentloop

SYSTEM = "You are a careful assistant. Use the tools for arithmetic."
TOOLS = {"add": lambda a, b: a + b, "multiply": lambda a, b: a * b}
NUMBERS = {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]}
SCHEMAS = {name: {"type": "function", "function": {"name": name, "description": f"{name.title()} two numbers.",
                                                   "parameters": NUMBERS}} for name in TOOLS}


def add_usage(state, response):
    # In place: the loop and whoever reads the progress line share the same dict.
    state["turns"] += 1
    state["prompt_tokens"] += response["usage"]["prompt_tokens"]
    state["completion_tokens"] += response["usage"]["completion_tokens"]


def tokens_spent(state):
    # Prompt and completion tokens are both billed.
    return state["prompt_tokens"] + state["completion_tokens"]


def run_agent_within(question, history, state, budget, max_turns=5):
    # The lesson's run_agent with one more stopping rule, checked before every model call, not once
    # per question: a single question can run many turns. ">=": a budget is spent once it is reached.
    # It reads the state it was given, so tokens a chat spent before this question count too.
    # Claude's Managed Agents budgets work the same way: no new model request once the cap is reached.
    messages = [{"role": "system", "content": SYSTEM}, *history, {"role": "user", "content": question}]
    answer = f"Stopped: no answer after {max_turns} turns."
    for _ in range(max_turns):
        if tokens_spent(state) >= budget:
            answer = f"Stopped: the budget of {budget} tokens is spent."
            break
        response = agentloop.complete(messages, tools=list(SCHEMAS.values()))
        add_usage(state, response)
        message = response["choices"][0]["message"]
        messages.append(message)
        if not message.get("tool_calls"):
            answer = message["content"]
            break
        for call in message["tool_calls"]:
            state["tool_calls"] += 1
            result = str(TOOLS[call["function"]["name"]](**json.loads(call["function"]["arguments"])))
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": result})
    history[:] = messages[1:]  # kept even when the budget stopped the run: the chat can go on later
    return answer


def count_kinds(events):
    # The same question as 4.3, asked of the trace instead of the history.
    return Counter(event.kind for event in events)
