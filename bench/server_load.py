"""A class against one teaching-model server: N clients at once, each asking over its own connection.

    python bench/server_load.py [N ...]     (default: 50 100 200)

Starts `python -m agentloop serve` on 127.0.0.1 (a free port), then for each N starts N threads that
wait at a barrier and each send REQUESTS questions, one connection per question, as curl or a fresh
SDK client would. Prints the answered share (HTTP 200 within TIMEOUT s; a reset, a refusal or a
timeout is not answered) and the latency of the answered ones, p50 and p99. Nothing leaves 127.0.0.1.
"""
import http.client
import json
import re
import statistics
import subprocess
import sys
import threading
import time

REQUESTS = 2  # per client
TIMEOUT = 10  # seconds a client waits for one answer
QUESTION = json.dumps({"model": "teaching-model", "messages": [{"role": "user", "content": "What is 12 times 7?"}]})


def start_server():
    server = subprocess.Popen([sys.executable, "-m", "agentloop", "serve", "--port", "0"],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    port = int(re.search(r":(\d+)/v1", server.stdout.readline()).group(1))
    return server, port


def ask(port: int) -> float | None:
    """Seconds one question took to be answered, or None if it was not."""
    started = time.perf_counter()
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=TIMEOUT)
    try:
        connection.request("POST", "/v1/chat/completions", QUESTION, {"Content-Type": "application/json"})
        reply = connection.getresponse()
        reply.read()
        return time.perf_counter() - started if reply.status == 200 else None
    except OSError:  # reset, refused, timed out
        return None
    finally:
        connection.close()


def burst(port: int, clients: int) -> list:
    """The latencies (None: not answered) of `clients` clients starting at once."""
    results, barrier = [], threading.Barrier(clients)

    def client():
        barrier.wait()
        for _ in range(REQUESTS):
            results.append(ask(port))

    threads = [threading.Thread(target=client) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT * REQUESTS + 5)
    return results


def main(sizes: list) -> None:
    server, port = start_server()
    try:
        print(f"{'clients':>7}  {'answered':>14}  {'p50 ms':>7}  {'p99 ms':>7}  {'wall s':>6}")
        for clients in sizes:
            started = time.perf_counter()
            results = burst(port, clients)
            wall = time.perf_counter() - started
            answered = sorted(r for r in results if r is not None)
            p50 = statistics.median(answered) * 1000 if answered else float("nan")
            p99 = answered[min(len(answered) - 1, int(0.99 * len(answered)))] * 1000 if answered else float("nan")
            share = f"{len(answered)}/{clients * REQUESTS} ({100 * len(answered) // (clients * REQUESTS)}%)"
            print(f"{clients:>7}  {share:>14}  {p50:7.1f}  {p99:7.1f}  {wall:6.1f}")
    finally:
        server.terminate()
        server.wait(10)


if __name__ == "__main__":
    main([int(n) for n in sys.argv[1:]] or [50, 100, 200])
