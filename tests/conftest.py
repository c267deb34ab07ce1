"""Fixtures shared by the package tests: servers on 127.0.0.1 and a clean backend."""
import pytest
from fault_server import FaultServer

from agentloop import llm, trace
from agentloop.server import serve_in_thread


@pytest.fixture(scope="module")
def server_url():
    """The teaching model over HTTP, on a free port of 127.0.0.1."""
    server, url = serve_in_thread()
    yield url
    server.stop()


@pytest.fixture
def fault():
    """A server that answers what the test scripts (see fault_server.py)."""
    with FaultServer() as server:
        yield server


@pytest.fixture
def fresh_backend(monkeypatch):
    """No backend chosen, no LLM_* variables, an empty trace; all put back after the test."""
    monkeypatch.setattr(llm, "_current", None)
    monkeypatch.setattr(trace, "events", [])
    for name in ("LLM_BASE_URL", "LLM_API_KEY", "LLM_MODEL"):
        monkeypatch.delenv(name, raising=False)
