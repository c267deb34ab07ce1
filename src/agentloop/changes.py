"""Show what a lesson changed in a function: the lines that went and came, with a line of context."""
import difflib
import html
import inspect


def show_changes(before, after):
    """Compare two versions of a function (or two source strings); the result prints as a diff."""
    name = getattr(after, "__name__", "the code")
    try:
        old, new = _source(before), _source(after)
    except (OSError, TypeError):  # code run by exec (a grader, a script) keeps no source to read
        return Changes(f"{name}: no diff to show, as its source is not kept where this code ran", [])
    return diff(name, old, new)


def _source(code):
    return code if isinstance(code, str) else inspect.getsource(code)


def diff(name, before, after):
    old, new = before.rstrip("\n").splitlines(), after.rstrip("\n").splitlines()
    rows = []  # (mark, line): "-" went, "+" came, " " context, "..." lines left out
    gone = came = 0
    for group in difflib.SequenceMatcher(None, old, new, autojunk=False).get_grouped_opcodes(1):
        if rows:
            rows.append(("...", ""))
        for op, i1, i2, j1, j2 in group:
            if op == "equal":
                rows += [(" ", line) for line in old[i1:i2]]
                continue
            rows += [("-", line) for line in old[i1:i2]] + [("+", line) for line in new[j1:j2]]
            gone, came = gone + i2 - i1, came + j2 - j1
    if not rows:
        return Changes(f"{name}: no change", [])
    # counted as the lessons' change notes count: "N lines changed", then what else came or went
    changed, more = (gone, f"{came - gone} added") if came >= gone else (came, f"{gone - came} removed")
    return Changes(f"{name}: {changed} line{'s' * (changed != 1)} changed, {more}", rows)


class Changes:
    def __init__(self, summary, rows):
        self.summary, self.rows = summary, rows

    def __repr__(self):
        return "\n".join([self.summary] + [f"{mark} {line}" if mark != "..." else "..." for mark, line in self.rows])

    def _repr_html_(self):
        colours = {"-": "background:#fde2e1;text-decoration:line-through", "+": "background:#dcf5dc", " ": "", "...": "color:#888"}
        lines = [f'<span style="{colours[mark]}">{html.escape(mark if mark == "..." else f"{mark} {line}")}</span>'
                 for mark, line in self.rows]
        return f"<b>{html.escape(self.summary)}</b><pre style=\"margin:0\">{chr(10).join(lines)}</pre>"
