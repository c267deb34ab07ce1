"""Tool schemas and implementations shared by the tests, in the shapes the lessons use."""
import json


def tool(name: str, description: str, **params) -> dict:
    """A chat-completions tool schema; params are name=json_type (all required)."""
    properties = {}
    for param, kind in params.items():
        properties[param] = kind if isinstance(kind, dict) else {"type": kind}
    return {"type": "function", "function": {
        "name": name, "description": description,
        "parameters": {"type": "object", "properties": properties, "required": list(params)}}}


ADD = tool("add", "Add two numbers.", a="number", b="number")
PLUS = tool("plus", "Return x plus y.", x="integer", y="integer")
MULTIPLY = tool("multiply", "Multiply two numbers.", a="number", b="number")
SUBTRACT = tool("subtract", "Subtract b from a.", a="number", b="number")
DIVIDE = tool("divide", "Divide a by b.", a="number", b="number")
CALCULATOR = tool("calculator", "Evaluate an arithmetic expression.", expression="string")
COUNT_LETTERS = tool("count_letters", "Count how often a letter occurs in a word.", word="string", letter="string")
WORD_COUNT = tool("word_count", "Count the words in a text.", text="string")
SHOUT = tool("shout", "Return the text in upper case.", text="string")
WEATHER = tool("get_weather", "Current weather for a city.", city="string")
CLOCK = tool("get_time", "The current date and time.")
REMEMBER = tool("remember", "Remember a fact about the user.", key="string", value="string")
REMEMBER_CONTENT = tool("remember", "Store a memory.", content="string",
                        importance={"type": "string", "enum": ["low", "medium", "high"]})
RECALL = tool("recall", "Search memories.", query="string", limit="integer")
FORGET = tool("forget", "Forget a fact about the user.", key="string")
MEMORY_SEARCH = tool("memory_search", "Search memories by keyword.", query="string", limit="integer")
MEMORY_DELETE = tool("memory_delete", "Delete one memory by id.", memory_id="string")
MEMORY_WRITE = tool("memory_write", "Write a memory.", scope={"type": "string", "default": "user:42"},
                    content="string", metadata="object")
MEMORY_LIST = tool("memory_list", "List memories in a scope.", scope="string", limit="integer")
SCHEDULE = tool("schedule", "Add a task to the queue.", task="string", when="string")
WEB_SEARCH = tool("web_search", "Search the web.", query="string")
DECIDE = tool("decide", "Log a decision and its reasoning.", decision="string", reasoning="string")

IMPLEMENTATIONS = {
    "add": lambda a, b: a + b,
    "plus": lambda x, y: x + y,
    "multiply": lambda a, b: a * b,
    "subtract": lambda a, b: a - b,
    "divide": lambda a, b: a / b,
    "count_letters": lambda word, letter: word.count(letter),
    "word_count": lambda text: len(text.split()),
    "get_weather": lambda city: {"Paris": "18°C, sunny", "London": "12°C, rain"}.get(city, "unknown"),
}


def run_tool(call: dict, implementations: dict = IMPLEMENTATIONS) -> str:
    """Run one tool call the way the lessons do: errors become the result text."""
    function = call["function"]
    try:
        return str(implementations[function["name"]](**json.loads(function["arguments"])))
    except Exception as error:  # a tool error is a result, not a crash
        return f"Error: {type(error).__name__}: {error}"
