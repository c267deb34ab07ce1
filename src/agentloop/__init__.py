"""agentloop: the helpers for the course 'Build an LLM agent from scratch'.

The package supplies model access, a teaching model, tracing, checks and storage.
The agent itself (the loop, tool dispatch, memory) is written in the lessons.
"""
from . import trace
from .errors import LLMError
from .llm import ask, backend, complete, use

__all__ = ["ask", "backend", "complete", "use", "trace", "LLMError"]
__version__ = "0.1.0"
