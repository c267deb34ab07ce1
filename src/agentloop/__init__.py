"""agentloop: the helpers for the course 'Build an LLM agent from scratch'.

The package supplies model access, a teaching model, tracing, checks, storage and a real restart.
The agent itself (the loop, tool dispatch, memory) is written in the lessons.
"""
from . import trace
from .changes import show_changes
from .connect import connect
from .errors import LLMError
from .llm import ask, backend, complete, use
from .progress import progress
from .restart import in_a_new_process
from .tokens import count_tokens
from .trace_run import totals as trace_totals
from .trace_widget import show_trace

__all__ = ["ask", "backend", "complete", "use", "connect", "trace", "show_trace", "trace_totals",
           "count_tokens", "LLMError", "progress", "show_changes", "in_a_new_process", "openai_client"]
__version__ = "0.1.0"


def __getattr__(name):
    # agentloop.openai_client(): loaded when first asked for, as it imports httpx (a third of import time)
    if name == "openai_client":
        from .sdk import openai_client
        return openai_client
    raise AttributeError(f"module 'agentloop' has no attribute {name!r}")
