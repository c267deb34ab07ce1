"""The exercise checks, one module per lesson: `from agentloop.exercises import lesson01`."""
