"""Reference solutions for lesson 6's exercises."""
import json

from agentloop import count_tokens


def render_memory(memory):
    return "\n".join(f"- {key}: {value}" for key, value in memory.items())


def memory_tokens(memory):
    return count_tokens("\n".join(f"- {key}: {value}" for key, value in memory.items()))


def load_memory(path):
    try:
        with open(path) as file:
            data = json.load(file)
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}
