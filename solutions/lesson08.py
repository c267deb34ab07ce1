"""Reference solutions for lesson 8's exercises."""
import calendar
import re
from datetime import date


def drain_due(queue, run, today, budget):
    # The lesson's drain takes whatever is at the front. A scheduler runs only what is due: walk the
    # whole queue once, run each due task while the budget lasts, and put the rest back in order.
    ran, waiting = [], []
    while queue:
        task = queue.popleft()
        if len(ran) < budget and date.fromisoformat(task["when"]) <= today:
            run(task)
            ran.append(task)
        else:
            waiting.append(task)
    queue.extend(waiting)
    return ran


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
    this_year = on(today.year, month, day)
    return this_year if this_year >= today else on(today.year + 1, month, day)


def on(year, month, day):
    # Feb 29 exists only in leap years; in the others the birthday is kept on Feb 28.
    if (month, day) == (2, 29) and not calendar.isleap(year):
        return date(year, 2, 28)
    return date(year, month, day)
