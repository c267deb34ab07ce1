"""Reference solutions for lesson 8's exercises.

They extend the lesson's agent, so they use its names (queue, QUEUE_FILE, save_json, add_task, due_tasks,
guarded_agent, state): run them in the lesson's namespace, as the exercise cells do. Lesson 9 carries
these answers where lesson 8's exercise cells stood."""
from datetime import datetime, timedelta


def cancel(task):
    words = task.lower()
    kept = [queued for queued in queue if words not in queued["task"].lower()]
    gone = len(queue) - len(kept)
    if not gone:
        return f"Nothing scheduled matches '{task}'."
    queue[:] = kept
    save_json(QUEUE_FILE, queue)
    return f"Cancelled {gone} task(s) matching '{task}'."


def drain_tokens(limit):
    used = 0
    for task in due_tasks():
        if used >= limit:  # the budget is spent, stop before this task
            break
        queue.remove(task)
        before = state["prompt_tokens"] + state["completion_tokens"]
        guarded_agent(f"Scheduled task: {task['task']}", [])
        used += state["prompt_tokens"] + state["completion_tokens"] - before  # what this task cost
    save_json(QUEUE_FILE, queue)
    return used


def remind_before(days):
    for task in list(queue):
        if task["task"] == "wish the user a happy birthday":
            due = datetime.fromisoformat(task["due"]) - timedelta(days=days)
            text = f"buy a present: the user's birthday is in {days} days"
            if not any(queued["task"] == text and queued["due"] == due.isoformat(timespec="minutes") for queued in queue):
                add_task(text, due)
