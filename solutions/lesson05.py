"""Reference solutions for lesson 5's exercises: the lesson's skeletons, filled in. They run next to
the lesson's agent (SYSTEM, SCHEMAS, run_tool, progress)."""
import agentloop


DONE = {"add": "added", "multiply": "multiplied", "divide": "divided",
        "count_letters": "counted letters", "count_words": "counted words"}


def progress_by_tool(state):
    # What was done, tool by tool, in the product's words; then the figures progress() already gives.
    done = ", ".join(f"{DONE.get(name, name)} {'once' if times == 1 else f'{times} times'}"
                     for name, times in state["used"].items())
    return f"{done or 'nothing done yet'} · {progress(state)}"  # noqa: F821


def run_agent_live(question, history, state, max_turns=5):
    used = state.setdefault("used", {})  # tool name -> how many times it was called
    messages = [{"role": "system", "content": SYSTEM}, *history, {"role": "user", "content": question}]  # noqa: F821
    for turn in range(1, max_turns + 1):
        response = agentloop.complete(messages, tools=list(SCHEMAS.values()))  # noqa: F821
        state["turns"] += 1
        state["prompt_tokens"] += response["usage"]["prompt_tokens"]
        state["completion_tokens"] += response["usage"]["completion_tokens"]
        # Here, not at the end of the loop: the answer's call leaves the loop at `break`, and its
        # line must show too. The state has just counted this call, so the line is current.
        print(progress_by_tool(state))
        message = response["choices"][0]["message"]
        messages.append(message)
        if not message.get("tool_calls"):
            break
        for call in message["tool_calls"]:
            state["tool_calls"] += 1
            used[call["function"]["name"]] = used.get(call["function"]["name"], 0) + 1
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": run_tool(call)})  # noqa: F821
    history[:] = messages[1:]
    return message["content"] or f"Stopped: no answer after {max_turns} turns."


def run_agent_within(question, history, state, budget, max_turns=5):
    messages = [{"role": "system", "content": SYSTEM}, *history, {"role": "user", "content": question}]  # noqa: F821
    for turn in range(1, max_turns + 1):
        # Before every model call, not once per question: one question can run many turns. ">=": a
        # budget is spent once it is reached. Prompt and completion tokens are both billed, and the
        # state may hold what the chat spent before this question.
        if state["prompt_tokens"] + state["completion_tokens"] >= budget:
            history[:] = messages[1:]  # kept even when the budget stopped the run: the chat can go on later
            return f"Stopped: the budget of {budget} tokens is spent."
        response = agentloop.complete(messages, tools=list(SCHEMAS.values()))  # noqa: F821
        state["turns"] += 1
        state["prompt_tokens"] += response["usage"]["prompt_tokens"]
        state["completion_tokens"] += response["usage"]["completion_tokens"]
        message = response["choices"][0]["message"]
        messages.append(message)
        if not message.get("tool_calls"):
            break
        for call in message["tool_calls"]:
            state["tool_calls"] += 1
            messages.append({"role": "tool", "tool_call_id": call["id"], "content": run_tool(call)})  # noqa: F821
    history[:] = messages[1:]
    return message["content"] or f"Stopped: no answer after {max_turns} turns."
