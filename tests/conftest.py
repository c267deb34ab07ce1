"""Fixtures shared by the package tests: servers on 127.0.0.1 and a clean backend."""
import pytest
from fault_server import FaultServer

from agentloop import llm, trace, transport
from agentloop.server import serve_in_thread

PROVIDER_SETTINGS = ("LLM_BASE_URL", "LLM_API_KEY", "LLM_MODEL")


@pytest.fixture(autouse=True)
def no_real_provider(monkeypatch):
    """Every test starts on the teaching model: a student who exported LLM_* for local Jupyter
    (or a test that called use()) must not send the tests' traffic, with a key, to a provider."""
    monkeypatch.setattr(llm, "_current", None)
    monkeypatch.setattr(transport, "learnt", {})
    for name in PROVIDER_SETTINGS:
        monkeypatch.delenv(name, raising=False)


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
    """No backend chosen, no LLM_* variables (see no_real_provider), an empty trace."""
    monkeypatch.setattr(trace, "events", [])
