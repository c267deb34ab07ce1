"""Reference solutions for lesson 9's exercises: tool functions for the lesson's agent.

They use the agent's names (memory, current, ranked, about, words, save_json, MEMORY_FILE,
guarded_remember), so they run where the agent is defined: pasted into the notebook below its cells.
"""


def recall_since(query, since):
    # ISO dates compare as text ("2026-01-05" < "2026-01-06"); >= keeps the day itself.
    found = [key for key in ranked(current["scopes"], query) if about(key) & words(query)
             and memory[key]["created"] >= since]
    return "\n".join(f"- {key}: {memory[key]['value']}" for key in found[:5]) or "Nothing found."


def forget_mine(key):
    # Another scope's memory gets the very sentence a missing key gets: the user learns nothing.
    if key not in memory or memory[key]["scope"] not in current["scopes"]:
        return f"Nothing is stored under {key}."
    return forget_if_asked(key)  # lesson 7's forget, still behind its action gate


def remember_and_ask(key, value, importance="medium"):
    # Ask only when the gate let it through: a refused birthday ("which year?") has nothing to remind of.
    result = guarded_remember(key, value, importance)
    if "birthday" in key and result.startswith("Remembered"):
        result += " Ask the user: should I remind you a week before?"
    return result
