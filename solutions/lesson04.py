"""Reference solutions for lesson 4's exercises. They run next to the lesson's agent (its `run_agent`)
and the lesson's `history_tokens`."""


def trim_history(history, keep):
    # Keep the tail, then drop from the front until a user message starts it: a tool result whose
    # call was cut off would make the API refuse the request. (Dropping only the leading tool
    # results is right too: a history may start with an assistant reply.)
    kept = history[-keep:] if keep > 0 else []  # history[-0:] would be all of it
    while kept and kept[0]["role"] != "user":
        kept = kept[1:]
    return kept


def trim_to_tokens(history, max_tokens):
    # The longest safe tail first: 4.1's trim_history keeps each candidate free of orphaned tool
    # results, and the first one that fits is the most the budget allows.
    for keep in range(len(history), 0, -1):
        kept = trim_history(history, keep)
        if history_tokens(kept) <= max_tokens:  # noqa: F821  (the lesson's count)
            return kept
    return []


MAX_HISTORY_TOKENS = 300  # about two questions with their tool calls


def run_agent_trimmed(question, history):
    # Trimmed in place before the question, so every request of it carries at most MAX_HISTORY_TOKENS
    # of history and the list the caller keeps stays short as well.
    history[:] = trim_to_tokens(history, MAX_HISTORY_TOKENS)
    return run_agent(question, history, verbose=False)  # noqa: F821  (the lesson's agent)
