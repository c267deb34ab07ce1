"""Tests never reach a real provider: the autouse fixture in conftest.py clears LLM_BASE_URL,
LLM_API_KEY, LLM_MODEL and any backend a test chose, whatever the student exported."""
import os
import subprocess
import sys
from pathlib import Path

from agentloop import llm

HERE = Path(__file__).resolve()
PROVIDER = {"LLM_BASE_URL": "http://127.0.0.2:9/v1", "LLM_API_KEY": "sk-proj-" + "Exp0rtedK3y" * 4,
            "LLM_MODEL": "gpt-4o-mini"}


def test_each_test_starts_on_the_teaching_model():
    """Run alone (below) with a provider exported, and after a test that chose a backend."""
    assert not set(PROVIDER) & set(os.environ)
    chosen = llm.backend()
    assert chosen.base_url is None and chosen.api_key is None and chosen.model == llm.TEACHING_MODEL
    assert llm.ask([{"role": "user", "content": "Hello!"}])["content"]


def test_a_backend_chosen_by_a_test_does_not_outlive_it():
    llm.use("http://127.0.0.2:9/v1", api_key=PROVIDER["LLM_API_KEY"])  # no clean-up on purpose


def test_the_backend_chosen_above_is_gone():
    test_each_test_starts_on_the_teaching_model()


def test_an_exported_provider_is_cleared_for_every_test():
    result = subprocess.run(
        [sys.executable, "-m", "pytest", f"{HERE}::test_each_test_starts_on_the_teaching_model",
         "-o", "addopts=", "-q", "-p", "no:cacheprovider"],
        env={**os.environ, **PROVIDER}, cwd=HERE.parent.parent, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "1 passed" in result.stdout, result.stdout[-2000:]
