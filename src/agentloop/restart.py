"""A restart, for real: a notebook's agent code run in a new Python process, with nothing but what is on disk."""
import json
import os
import subprocess
import sys


def agent_cells(notebook: str, before: str) -> list:
    """The code of the notebook's cells tagged `carried` or `agent` above the cell that starts with `before`."""
    with open(notebook, encoding="utf-8") as file:
        cells = json.load(file)["cells"]
    end = next((i for i, cell in enumerate(cells) if "".join(cell["source"]).startswith(before)), len(cells))
    return ["".join(cell["source"]) for cell in cells[:end]
            if {"carried", "agent"} & set(cell.get("metadata", {}).get("tags", []))]


def in_a_new_process(notebook: str, before: str, then: str) -> str:
    """Run the agent's cells, then `then`, in a new process; say which cells ran and what came out. Where no process
    can start (the browser's Python), the same code runs in a fresh, empty namespace: no variable of this kernel."""
    if not os.path.exists(notebook):  # a copy saved under another name, or run from another folder
        return f"{notebook} is not in this folder: give in_a_new_process this notebook's file name."
    cells = agent_cells(notebook, before)
    said = [f"the agent's code: {len(cells)} cells, which begin"] + [f"    {cell.splitlines()[0]}" for cell in cells]
    code = "\n\n".join(cells) + "\n" + then
    try:
        process = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        said.append("a new Python process answered: " + (process.stdout.strip() or process.stderr.strip()[-500:]))
    except OSError:  # Pyodide: no processes in the browser
        printed = []
        exec(code, {"print": lambda *args: printed.append(" ".join(map(str, args)))})
        said.append("a fresh namespace answered: " + "\n".join(printed))
    return "\n".join(said)
