"""Per-turn overhead of agentloop.ask(): the teaching model in-process, then over local HTTP.

    python bench/ask_overhead.py [calls]

One "turn" is one ask() on a small conversation (system, user, the assistant's tool call,
the tool's result) with two tools offered: what an agent loop does on every step. The
in-process figure is the cost of the course's machinery (JSON round trip, validation,
the rules, tracing); the HTTP figure adds a real socket to 127.0.0.1 and the server.
"""
import platform
import statistics
import sys
import time

from agentloop import llm, teaching, trace
from agentloop.server import serve_in_thread

TOOLS = [
    {"type": "function", "function": {
        "name": "add", "description": "Add two numbers.",
        "parameters": {"type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}},
                       "required": ["a", "b"]}}},
    {"type": "function", "function": {
        "name": "get_weather", "description": "The current weather in a city.",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}},
]


def conversation() -> list:
    """A system prompt, a question, the model's tool call and its result: the model answers next."""
    llm.use()
    messages = [{"role": "system", "content": "You are a helpful assistant. Use tools for arithmetic."},
                {"role": "user", "content": "What is 2 + 3?"}]
    call = llm.ask(messages, tools=TOOLS)
    messages += [call, {"role": "tool", "tool_call_id": call["tool_calls"][0]["id"], "content": "5"}]
    assert llm.ask(messages, tools=TOOLS)["content"], "the model should answer, not call again"
    return messages


def timings(call, calls: int) -> list[float]:
    """Microseconds per call, after a warm-up."""
    for _ in range(min(200, calls)):
        call()
    spent = []
    for _ in range(calls):
        start = time.perf_counter_ns()
        call()
        spent.append((time.perf_counter_ns() - start) / 1000)
        trace.clear()  # outside the timed part: a long run should not measure a growing list
    return spent


def report(label: str, spent: list[float]) -> None:
    p95 = statistics.quantiles(spent, n=20)[18]
    print(f"  {label:<38} median {statistics.median(spent):8.1f} µs   p95 {p95:8.1f} µs")


def main(calls: int = 3000) -> None:
    messages = conversation()
    request = {"model": teaching.MODEL_NAME, "messages": messages, "tools": TOOLS}
    print(f"ask() per turn: {len(messages)} messages, {len(TOOLS)} tools, {calls} calls, "
          f"{platform.python_implementation()} {platform.python_version()}")
    report("teaching.respond() alone", timings(lambda: teaching.respond(request), calls))
    llm.use()
    report("ask(), in-process", timings(lambda: llm.ask(messages, tools=TOOLS), calls))
    server, url = serve_in_thread()
    try:
        llm.use(url, timeout=10)
        report("ask(), HTTP to 127.0.0.1 (our server)", timings(lambda: llm.ask(messages, tools=TOOLS), calls))
    finally:
        server.stop()
        llm.use()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3000)
