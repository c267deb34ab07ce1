"""Reference solutions for lesson 9's exercises: tool functions for the lesson's agent.

They use the agent's names (memory, current, NOW, about, words, about_birth, guarded_forget, guarded_remember),
so they run where the agent is defined: pasted into the notebook below its cells.
"""
import math


def rare_first(scopes, text):
    """ranked, with each shared word weighed by how rare it is among the memories."""
    today = NOW.date().isoformat()
    mine = [key for key, entry in memory.items() if entry["scope"] in scopes
            and (entry["until"] is None or entry["until"] >= today)]
    def weight(word):  # 1 memory of many: heavy; every memory: light, but never nothing (log 2)
        having = sum(1 for other in mine if word in about(other))
        return math.log(1 + len(mine) / having)
    def score(key):
        return sum(weight(word) for word in about(key) & words(text))
    return sorted(mine, key=lambda key: (score(key), memory[key]["importance"] != "low",
                                         memory[key]["created"]), reverse=True)


def forget_mine(key):
    # Another scope's memory gets the very sentence a missing key gets: the user learns nothing.
    if key not in memory or memory[key]["scope"] not in current["scopes"]:
        return f"Nothing is stored under {key}."
    return guarded_forget(key)  # lesson 7's forget, still behind its action gate


def remember_and_ask(key, value, importance="medium"):
    # Ask only when the gate let it through: a refused birthday ("which year?") has nothing to remind of.
    result = guarded_remember(key, value, importance)
    if about_birth(key.replace("_", " ")) and result.startswith("Remembered"):  # birthday, date_of_birth, born_on
        result += " Ask the user: should I remind you a week before?"
    return result
