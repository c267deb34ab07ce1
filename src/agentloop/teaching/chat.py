"""Plain replies: greetings, who it is, a few canned facts, and an honest fallback."""
import re

from .skills import Reply, Turn

CAPITALS = {"france": "Paris", "japan": "Tokyo", "italy": "Rome", "germany": "Berlin",
            "spain": "Madrid", "kenya": "Nairobi", "brazil": "Brasília", "canada": "Ottawa"}
ABOUT_ME = ("I'm the teaching model: a small rule-based program that speaks the same JSON "
            "as a real LLM API. I'm not a language model; I follow fixed rules so every "
            "lesson runs offline and gives the same answer every time.")


def greet(turn: Turn):
    if re.match(r"\s*(hi|hello|hey|good (morning|afternoon|evening))\b", turn.text, re.IGNORECASE):
        name = turn.known().get("name")
        return Reply(f"Hello{', ' + name if name else ''}! I'm the teaching model, a rule-based "
                     "stand-in for an LLM. Ask me some arithmetic, give me tools, or tell me about yourself.")


def identity(turn: Turn):
    if re.search(r"\bwho are you\b|\bwhat are you\b|\bare you (an? )?(ai|llm|real|human)\b",
                 turn.text, re.IGNORECASE):
        return Reply(ABOUT_ME)


def capital(turn: Turn):
    match = re.search(r"\bcapital of (\w+)", turn.text, re.IGNORECASE)
    if match:
        city = CAPITALS.get(match.group(1).lower())
        return Reply(f"The capital of {match.group(1).title()} is {city}." if city else
                     f"I don't know the capital of {match.group(1).title()}: my table of facts is tiny.")


def joke(turn: Turn):
    if re.search(r"\bjoke\b", turn.text, re.IGNORECASE):
        return Reply("Why did the agent stop calling tools? It hit max_turns.")


def fallback(turn: Turn):
    if turn.results:
        return Reply("The tools returned: " + "; ".join(r.strip() for r in turn.results))
    return Reply(f"I'm the teaching model, a rule-based stand-in, and I have no rule for "
                 f"\"{turn.text.strip().rstrip('.!?')[:80]}\". I can do arithmetic, use text, weather, memory "
                 "and scheduling tools, remember facts you state, and answer from memory.")
