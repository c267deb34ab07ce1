"""Reject malformed requests the way the OpenAI API does (its messages, a 400 over HTTP).

Students meet these errors for real when a loop forgets a step, so the teaching model
raises them too: a tool result with no tool call before it, a tool call left without
its result, a tool name a real API would refuse.
"""
import json
import re

ROLES = ("system", "developer", "user", "assistant", "tool")


class InvalidRequest(ValueError):
    """The request is malformed; the message is what a real API would say."""


def type_name(value) -> str:
    """A JSON value's type as OpenAI's messages name it."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, (int, float)):
        return "a number"
    return {str: "a string", list: "an array", dict: "an object", type(None): "null"}.get(type(value), "a value")


def wrong_type(where: str, expected: str, value) -> InvalidRequest:
    return InvalidRequest(f"Invalid type for '{where}': expected {expected}, but got {type_name(value)} instead.")


def request(body) -> None:
    if not isinstance(body, dict):
        raise InvalidRequest("The request body must be a JSON object.")
    if not body.get("model"):
        raise InvalidRequest("You must provide a model parameter.")
    if not isinstance(body["model"], str):
        raise wrong_type("model", "a string", body["model"])
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        raise InvalidRequest("'messages' must be a non-empty array of message objects.")
    tools(body.get("tools"), body.get("tool_choice"))
    waiting: list[str] = []  # tool_call ids that still need a tool message
    for i, message in enumerate(messages):
        if not isinstance(message, dict) or message.get("role") not in ROLES:
            raise InvalidRequest(f"Invalid value for 'messages[{i}].role': supported values are "
                                 "'system', 'developer', 'user', 'assistant' and 'tool'.")
        role, content = message["role"], message.get("content")
        if not (content is None or isinstance(content, (str, list))):
            raise InvalidRequest(f"Invalid type for 'messages[{i}].content': expected a string, "
                                 "an array of content parts, or null.")
        if role == "tool":
            if message.get("tool_call_id") not in waiting:
                raise InvalidRequest(f"Invalid parameter: 'messages[{i}]' with role 'tool' must be a "
                                     "response to a preceding message with 'tool_calls'.")
            waiting.remove(message["tool_call_id"])
            continue
        if waiting:
            raise unanswered(waiting)
        if role == "user" and content is None:
            raise InvalidRequest(f"Invalid value for 'messages[{i}].content': a user message needs content.")
        if role == "assistant":
            calls = message.get("tool_calls") or []
            if not isinstance(calls, list) or not all(isinstance(call, dict) for call in calls):
                raise wrong_type(f"messages[{i}].tool_calls", "an array of objects", calls)
            waiting = [call.get("id") for call in calls]
    if waiting:
        raise unanswered(waiting)


def unanswered(waiting: list) -> InvalidRequest:
    return InvalidRequest("An assistant message with 'tool_calls' must be followed by tool messages "
                          "responding to each 'tool_call_id'. The following tool_call_ids did not "
                          f"have response messages: {', '.join(map(str, waiting))}")


def tools(offered, choice) -> None:
    if offered is None:
        if choice not in (None, "none"):
            raise InvalidRequest("Invalid value for 'tool_choice': 'tool_choice' is only allowed "
                                 "when 'tools' are specified.")
        return
    if not isinstance(offered, list):
        raise InvalidRequest("Invalid type for 'tools': expected an array of tool objects.")
    names = []
    for i, tool in enumerate(offered):
        function = tool.get("function") if isinstance(tool, dict) else None
        if not isinstance(function, dict) or tool.get("type") != "function":
            raise InvalidRequest(f"Invalid 'tools[{i}]': expected {{\"type\": \"function\", "
                                 "\"function\": {\"name\": ..., \"parameters\": ...}}.")
        name = function.get("name")
        if not isinstance(name, str) or not re.fullmatch(r"[a-zA-Z0-9_-]{1,64}", name):
            raise InvalidRequest(f"Invalid 'tools[{i}].function.name': {name!r} does not match "
                                 "the pattern '^[a-zA-Z0-9_-]{1,64}$'.")
        if not isinstance(function.get("description", ""), str):
            raise wrong_type(f"tools[{i}].function.description", "a string", function["description"])
        parameters = function.get("parameters", {})
        if not isinstance(parameters, dict):
            raise InvalidRequest(f"Invalid 'tools[{i}].function.parameters': expected a JSON schema object.")
        schema(name, parameters)
        names.append(name)
    if isinstance(choice, dict):
        function = choice.get("function")
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            raise wrong_type("tool_choice.function", "an object with a 'name'", function)
        if function["name"] not in names:
            raise InvalidRequest(f"Invalid value for 'tool_choice': no tool named {function['name']!r} was offered.")
    elif choice not in (None, "auto", "none", "required"):
        raise InvalidRequest("Invalid value for 'tool_choice': expected 'none', 'auto', 'required' "
                             "or {\"type\": \"function\", \"function\": {\"name\": ...}}.")


def schema(name: str, parameters: dict) -> None:
    """The parts of a function's JSON schema the model reads: properties, their types and enums, required."""
    def invalid(context: tuple, value, expected: str) -> InvalidRequest:
        return InvalidRequest(f"Invalid schema for function '{name}': In context={context!r}, "
                              f"{json.dumps(value)[:80]} is not of type {expected}.")
    properties = parameters.get("properties") or {}
    if not isinstance(properties, dict):
        raise invalid(("properties",), properties, "'object'")
    for key, spec in properties.items():
        if not isinstance(spec, dict):
            raise invalid(("properties", key), spec, "'object'")
        kind = spec.get("type", "string")
        if not (isinstance(kind, str) or isinstance(kind, list) and all(isinstance(k, str) for k in kind)):
            raise invalid(("properties", key, "type"), kind, "'string', 'array' (of type names)")
        enum = spec.get("enum", ["a value"])
        if not (isinstance(enum, list) and enum and all(isinstance(v, (str, int, float, type(None))) for v in enum)):
            raise invalid(("properties", key, "enum"), enum, "'array' (of strings, numbers or null, at least one)")
    required = parameters.get("required", [])
    if not isinstance(required, list) or not all(isinstance(item, str) for item in required):
        raise invalid(("required",), required, "'array' of strings")
