"""The teaching model (being written): a deterministic, rule-based stand-in for an LLM."""

MODEL_NAME = "teaching-model"


class InvalidRequest(ValueError):
    """The request is malformed, as a real API would say with a 400."""


def respond(request: dict) -> dict:
    raise NotImplementedError("the teaching model is being written")
