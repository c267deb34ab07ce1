"""The real-model tier: a real language model (SmolLM2-135M) behind llama-cpp-python's
OpenAI-compatible server on 127.0.0.1, started once per session.

Select it with `pytest -m realmodel`, leave it out with `-m "not realmodel"`. The first run on a
machine builds llama-cpp-python (see prepare.py; several minutes); later runs take seconds. The
timings are printed at the end of the session.
"""
import socket
import subprocess
import time
import urllib.request

import pytest

from prepare import prepare, server_command

TIMINGS: dict = {}  # what took how long, printed in the summary


def pytest_configure(config):
    config.addinivalue_line("markers", "realmodel: needs the real local model (builds llama-cpp-python once)")


def pytest_terminal_summary(terminalreporter):
    if TIMINGS:
        terminalreporter.section("real model timings")
        for what, value in TIMINGS.items():
            terminalreporter.write_line(f"{what}: {value}")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_ready(url: str, process: subprocess.Popen, log, limit: float = 180) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the model server exited ({process.returncode}):\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url + "/models", timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
            time.sleep(0.25)
    raise RuntimeError(f"the model server was not ready within {limit:g} s:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="session")
def timings():
    """Write figures here: they are printed at the end of the session."""
    return TIMINGS


@pytest.fixture(scope="module")
def real_model(tmp_path_factory):
    """The base URL of a running llama-cpp-python server with SmolLM2 (tools via chatml-function-calling),
    stopped when the module's tests are done (so it does not sit through the rest of the suite)."""
    started = time.monotonic()
    try:
        python, model = prepare()
    except Exception as error:
        pytest.fail(f"Could not set up the real model: {error}\n(needs cmake and a C++ compiler the "
                    "first time; leave this tier out with -m 'not realmodel')", pytrace=False)
    TIMINGS["prepare (build/install or cache hit)"] = f"{time.monotonic() - started:.1f} s"
    log = tmp_path_factory.mktemp("realmodel") / "server.log"
    port = free_port()
    started = time.monotonic()
    with open(log, "w") as out:
        process = subprocess.Popen(server_command(python, model, port), stdout=out, stderr=subprocess.STDOUT,
                                   stdin=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/v1"
    try:
        wait_ready(url, process, log)
        TIMINGS["server start"] = f"{time.monotonic() - started:.1f} s"
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)
