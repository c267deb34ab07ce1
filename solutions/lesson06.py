"""Reference solutions for lesson 6's exercises."""
import json

from agentloop import count_tokens
from agentloop.storage import load_json, save_json

SYSTEM = "You are a helpful assistant with a memory."
NOTES_FILE = "notes.json"
notes = load_json(NOTES_FILE, default={})  # the load step: what a restarted kernel runs first


def remember_note(key, value):
    # Saved at once, like the lesson's remember: a crash a second later loses nothing.
    notes[key] = value
    save_json(NOTES_FILE, notes)
    return f"Noted {key}: {value}"


def notes_prompt():
    # Rendered from the dict as it is *now*, on every call, so a note written one call ago is in
    # the next request; a string built once would keep saying what was true back then.
    lines = "\n".join(f"- {key}: {value}" for key, value in notes.items())
    return f"{SYSTEM}\n\nWhat you remember about the user:\n{lines}" if lines else SYSTEM


def memory_tokens(memory):
    return count_tokens("\n".join(f"- {key}: {value}" for key, value in memory.items()))


def load_memory(path):
    try:
        with open(path) as file:
            data = json.load(file)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
