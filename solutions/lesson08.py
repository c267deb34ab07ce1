"""Reference solutions for lesson 8's exercises.

They extend the lesson's agent, so they use its names (queue, QUEUE_FILE, save_json, add_task, due_tasks,
guarded_agent, state, trace, NOW): run them in the lesson's namespace, as the exercise cells do. Lesson 9 carries
these answers where lesson 8's exercise cells stood (and makes 8.2's drain_within its drain)."""
import re
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


def drain_within(budget, tokens=None):
    ran, start = [], state["prompt_tokens"] + state["completion_tokens"]  # spent before this drain
    for task in due_tasks()[:budget]:
        if tokens and state["prompt_tokens"] + state["completion_tokens"] - start >= tokens:
            break  # the tasks run have spent the budget: the rest wait for the next drain
        queue.remove(task)
        ran.append(task)
        trace.record("task", {"content": f"{task['task']} (due {task['due']})"})
        print(f"[{task['due']}] {task['task']}")
        print("  ->", guarded_agent(f"Scheduled task: {task['task']}", []))
        if task["every"]:  # a task that repeats goes back on the queue, due one interval from now
            add_task(task["task"], NOW + timedelta(minutes=task["every"]), task["every"])
    save_json(QUEUE_FILE, queue)
    print(f"{NOW:%a %d %b %H:%M}: ran {len(ran)} task(s), {len(queue)} queued")


def remind_before(days):
    for task in list(queue):
        wish = re.fullmatch(r"wish (.+) a happy birthday", task["task"], re.IGNORECASE)  # the user's, or Bea's
        if wish:
            due = datetime.fromisoformat(task["due"]) - timedelta(days=days)
            text = f"buy a present for {wish[1]}: birthday on {task['due'][:10]}"  # whose, so two never clash
            if not any(queued["task"] == text and queued["due"] == due.isoformat(timespec="minutes") for queued in queue):
                add_task(text, due)  # add_task saves the queue
