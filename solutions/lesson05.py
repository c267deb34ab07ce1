"""Reference solutions for lesson 5's exercises: the lesson's skeletons, filled in. They run next to
the lesson's agent (SYSTEM, SCHEMAS, run_tool, progress)."""
import agentloop


def run_agent_live(question, history, state, max_turns=5, on_step=None):
    messages = [{"role": "system", "content": SYSTEM}, *history, {"role": "user", "content": question}]  # noqa: F821
    for turn in range(1, max_turns + 1):
        response = agentloop.complete(messages, tools=list(SCHEMAS.values()))  # noqa: F821
        state["model_calls"] += 1
        state["prompt_tokens"] += response["usage"]["prompt_tokens"]
        state["completion_tokens"] += response["usage"]["completion_tokens"]
        # Here, not at the end of the loop: the answer's call leaves the loop at `break`, and its line must
        # show too. The state has just counted this call, so the line is current. Only when a caller asked:
        # run_agent is called everywhere without one.
        message = response["choices"][0]["message"]
        messages.append(message)
        if on_step is not None:
            on_step(progress(state))  # noqa: F821
        if not message.get("tool_calls"):
            break
        for call in message["tool_calls"]:
            state["tool_calls"] += 1
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
        state["model_calls"] += 1
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
