"""Reference solutions for lesson 8's exercises."""
import re
from collections import deque
from datetime import date

QUEUE = deque()


def schedule_task(task, when):
    QUEUE.append({"task": task, "when": when})
    return f"Scheduled: {task} ({when})"


def drain_queue(queue, run, budget):
    ran = []
    while queue and len(ran) < budget:
        task = queue.popleft()
        run(task)
        ran.append(task)
    return ran


MONTHS = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]


def next_birthday(text, today):
    month = next(i for i, name in enumerate(MONTHS, 1) if re.search(rf"\b{name}", text, re.IGNORECASE))
    day = int(re.search(r"\b(\d{1,2})(?:st|nd|rd|th)?\b", text).group(1))
    this_year = date(today.year, month, day)
    return this_year if this_year >= today else date(today.year + 1, month, day)
