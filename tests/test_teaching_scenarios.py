"""The teaching model's exact replies, only where the words matter to a lesson's story.

Each scenario is a step a lesson shows (its prose quotes the reply, or its loop depends on the exact
call). Everything else is checked by oracles: tests/test_teaching_corpus.py and
tests/test_teaching_adversarial.py. A reply is the assistant's text or its (name, arguments) calls.
"""
import json

import pytest
from tools_for_tests import *  # noqa: F403 (the tool schemas)

from agentloop import teaching


def U(text): return {"role": "user", "content": text}
def S(text): return {"role": "system", "content": text}
def A(text): return {"role": "assistant", "content": text}
def T(i, result): return {"role": "tool", "tool_call_id": f"call_{i}", "content": result}


def calls_msg(*calls):
    """An assistant message that made these (name, arguments) calls, ids call_0, call_1..."""
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": f"call_{i}", "type": "function", "function": {"name": n, "arguments": json.dumps(a)}}
        for i, (n, a) in enumerate(calls)]}


def calls(*pairs):
    return list(pairs)


SCENARIOS = [  # (name, messages, tools, tool_choice, the exact reply)
 ("greeting", [U("Hello!")], None, None,
     "Hello! I'm the teaching model, a rule-based stand-in for an LLM. Ask me some arithmetic, give me tools, or tell me about yourself."),
 ("capital", [U("What is the capital of France?")], None, None,
     'The capital of France is Paris.'),
 ("fallback", [U("Explain quantum physics")], None, None,
     'I\'m the teaching model, a rule-based stand-in, and I have no rule for "Explain quantum physics". I can do arithmetic, remember facts you state in this conversation, and answer from memory.'),
 ("arithmetic without tools", [U("What is 2 + 3?")], None, None,
     '2 + 3 = 5'),
 ("arithmetic in words", [U("What is 12 times 7?")], None, None,
     '12 * 7 = 84'),
 ("add tool", [U("What is 2 + 3?")], [ADD], None,
     calls(('add', {'a': 2, 'b': 3}))),
 ("plus tool named differently", [U("What is 20 plus 22?")], [PLUS], None,
     calls(('plus', {'x': 20, 'y': 22}))),
 ("multi-step first call", [U("What is (3 + 4) * 5?")], [ADD, MULTIPLY], None,
     calls(('add', {'a': 3, 'b': 4}))),
 ("multi-step second call", [U("What is (3 + 4) * 5?"), calls_msg(("add",{"a":3,"b":4})), T(0,"7")], [ADD, MULTIPLY], None,
     calls(('multiply', {'a': 7, 'b': 5}))),
 ("multi-step final", [U("What is (3 + 4) * 5?"), calls_msg(("add",{"a":3,"b":4})), T(0,"7"), calls_msg(("multiply",{"a":7,"b":5})), {"role":"tool","tool_call_id":"call_0","content":"35"}], [ADD, MULTIPLY], None,
     'The answer is 35.'),
 ("uses the tool's answer even if wrong", [U("What is 2 + 3?"), calls_msg(("add",{"a":2,"b":3})), T(0,"6")], [ADD], None,
     'The answer is 6.'),
 ("tool error is reported", [U("What is 1 / 0?"), calls_msg(("divide",{"a":1,"b":0})), T(0,"Error: ZeroDivisionError: division by zero")], [DIVIDE], None,
     "The tool failed with: Error: ZeroDivisionError: division by zero. So I can't finish the calculation."),
 ("tool_choice none", [U("What is 2 + 3?")], [ADD], "none",
     '2 + 3 = 5'),
 ("tool_choice required on chit-chat", [U("Hello")], [ADD], "required",
     calls(('add', {'a': 0, 'b': 0}))),
 ("tool_choice named", [U("What is 6 * 7?")], [ADD, MULTIPLY], {"type":"function","function":{"name":"multiply"}},
     calls(('multiply', {'a': 6, 'b': 7}))),
 ("letters without tool (the famous slip)", [U("How many r's are in strawberry?")], None, None,
     "There are 2 r's in strawberry."),
 ("letters with tool", [U("How many r's are in strawberry?")], [COUNT_LETTERS], None,
     calls(('count_letters', {'word': 'strawberry', 'letter': 'r'}))),
 ("letters after tool", [U("How many r's are in strawberry?"), calls_msg(("count_letters",{"word":"strawberry","letter":"r"})), T(0,"3")], [COUNT_LETTERS], None,
     "There are 3 r's in strawberry."),
 ("weather parallel calls", [U("What's the weather in Paris and London?")], [WEATHER], None,
     calls(('get_weather', {'city': 'Paris'}), ('get_weather', {'city': 'London'}))),
 ("facts without tool", [U("My name is Ada, I prefer tea")], None, None,
     "Nice to meet you, Ada! You said you prefer tea; I have no memory tool, so I'll know it only in this conversation."),
 ("remember key/value, parallel", [U("My name is Ada, I prefer tea")], [REMEMBER], None,
     calls(('remember', {'key': 'name', 'value': 'Ada'}), ('remember', {'key': 'prefers', 'value': 'tea'}))),
 ("remember content+importance", [U("My name is Ada and I live in Paris")], [REMEMBER_CONTENT], None,
     calls(('remember', {'content': "The user's name is Ada", 'importance': 'medium'}), ('remember', {'content': 'The user lives in Paris', 'importance': 'medium'}))),
 ("remember confirmed", [U("My name is Ada"), calls_msg(("remember",{"key":"name","value":"Ada"})), T(0,"saved")], [REMEMBER], None,
     "Got it. I'll remember that your name is Ada."),
 ("relays a clarifying question", [U("Remember it's my birthday on Jan 20th"), calls_msg(("remember",{"key":"birthday","value":"Jan 20th"})), T(0,"Not stored: the date has no year. Ask the user: which year were you born?")], [REMEMBER], None,
     'Which year were you born?'),
 ("completes the fact after the answer", [U("Remember it's my birthday on Jan 20th"), A("Which year were you born?"), U("1990")], [REMEMBER], None,
     calls(('remember', {'key': 'birthday', 'value': 'Jan 20th 1990'}))),
 ("answer from system prompt", [S("You are helpful.\nKnown facts about the user:\n- name: Ada\n- prefers: tea"), U("What is my name?")], None, None,
     'Your name is Ada.'),
 ("answer from earlier in the conversation", [U("My name is Ada"), A("Nice to meet you, Ada!"), U("What is my name?")], None, None,
     'Your name is Ada.'),
 ("recall tool when not in prompt", [U("What is my name?")], [RECALL], None,
     calls(('recall', {'query': 'name', 'limit': 5}))),
 ("answer from recall result", [U("What is my name?"), calls_msg(("recall",{"query":"name","limit":5})), T(0,'[{"id": "m1", "content": "The user\'s name is Ada"}]')], [RECALL], None,
     'Your name is Ada.'),
 ("what do you know about me", [S("- name: Ada\n- lives_in: Paris"), U("What do you know about me?")], None, None,
     'Here is what I know: your name is Ada; you live in Paris.'),
 ("forget by key", [U("Forget my birthday")], [FORGET], None,
     calls(('forget', {'key': 'birthday'}))),
 ("forget by id: search first", [U("Forget my birthday")], [MEMORY_SEARCH, MEMORY_DELETE], None,
     calls(('memory_search', {'query': 'birthday', 'limit': 5}))),
 ("forget by id: delete found id", [U("Forget my birthday"), calls_msg(("memory_search",{"query":"birthday","limit":5})), T(0,'[{"id": "mem_7", "content": "The user\'s birthday is Jan 20th 1990"}]')], [MEMORY_SEARCH, MEMORY_DELETE], None,
     calls(('memory_delete', {'memory_id': 'mem_7'}))),
 ("sensitive refused under policy", [S("Never store passwords or card numbers."), U("My card number is 4111 1111 1111 1111")], [REMEMBER], None,
     "I won't store that: it looks like a card number, and sensitive data must not go into memory."),
 ("sensitive stored without policy (the gate's job)", [U("My password is hunter2")], [REMEMBER], None,
     calls(('remember', {'key': 'password', 'value': 'hunter2'}))),
 ("reminder", [U("Remind me to call mum tomorrow")], [SCHEDULE], None,
     calls(('schedule', {'task': 'call mum', 'when': 'tomorrow'}))),
 ("recurring task requeues itself", [U("Check the news every hour")], [SCHEDULE], None,
     calls(('schedule', {'task': 'Check the news every hour', 'when': 'in 1 hour'}))),
 ("research plan without search tool", [U("Research the history of tea")], [SCHEDULE], None,
     calls(('schedule', {'task': 'find sources on the history of tea', 'when': 'next'}), ('schedule', {'task': 'take notes on the history of tea', 'when': 'next'}), ('schedule', {'task': 'write a summary of the history of tea', 'when': 'next'}))),
 ("research with search", [U("Research the history of tea")], [WEB_SEARCH, MEMORY_WRITE, DECIDE], None,
     calls(('web_search', {'query': 'the history of tea'}))),
 ("research stores findings and logs a decision", [U("Research the history of tea"), calls_msg(("web_search",{"query":"the history of tea"})), T(0,"Tea was first drunk in China.")], [WEB_SEARCH, MEMORY_WRITE, DECIDE], None,
     calls(('memory_write', {'scope': 'user:42', 'content': 'Finding about the history of tea: Tea was first drunk in China.', 'metadata': {'topic': 'the history of tea'}}), ('decide', {'decision': 'store what I found about the history of tea', 'reasoning': 'it answers the research question and others can reuse it'}))),
 ("summarise from memory", [U("Summarise what we know about tea")], [MEMORY_SEARCH], None,
     calls(('memory_search', {'query': 'tea', 'limit': 5}))),
 ("summary of results", [U("Summarise what we know about tea"), calls_msg(("memory_search",{"query":"tea","limit":5})), T(0,'[{"id": "m1", "content": "Tea was first drunk in China."}, {"id": "m2", "content": "Tea reached Europe in the 1600s."}]')], [MEMORY_SEARCH], None,
     'Summary: Tea was first drunk in China. Tea reached Europe in the 1600s.'),
 ("content parts", [{"role":"user","content":[{"type":"text","text":"What is 2 + 3?"}]}], None, None,
     '2 + 3 = 5'),
 ("parallel_tool_calls false", [U("What's the weather in Paris and London?")], [WEATHER], "single",
     calls(('get_weather', {'city': 'Paris'}))),
 # lessons 7-9: memory gates, expiry, the task queue
 ("a place this week is a fact", [U("I'm in Paris this week")], [REMEMBER], None,
     calls(('remember', {'key': 'location', 'value': 'Paris this week'}))),
 ("where am I, from memory", [S("- location: Paris this week (until 2026-01-11)"), U("Where am I?")], None, None,
     'You are in Paris this week (until 2026-01-11).'),
 ("a memory gate's refusal is passed on", [U("My password is hunter2"), calls_msg(("remember",{"key":"password","value":"hunter2"})), T(0,"Not stored: it looks like a password, and secrets never go into memory.")], [REMEMBER], None,
     "I didn't store that. It looks like a password, and secrets never go into memory."),
 ("nothing to forget is passed on", [U("Forget my shoe size"), calls_msg(("forget",{"key":"shoe_size"})), T(0,"Nothing is stored under shoe_size.")], [FORGET], None,
     "I couldn't forget that. Nothing is stored under shoe_size."),
 ("research with a queue plans even with search", [U("Research the history of tea")], [SCHEDULE, WEB_SEARCH, REMEMBER], None,
     calls(('schedule', {'task': 'find sources on the history of tea', 'when': 'next'}), ('schedule', {'task': 'take notes on the history of tea', 'when': 'next'}), ('schedule', {'task': 'write a summary of the history of tea', 'when': 'next'}))),
 ("step: find sources searches", [U("Scheduled task (due next): find sources on the history of tea")], [SCHEDULE, WEB_SEARCH, REMEMBER], None,
     calls(('web_search', {'query': 'the history of tea'}))),
 ("step: find sources saves them", [U("find sources on the history of tea"), calls_msg(("web_search",{"query":"the history of tea"})), T(0,"Tea was first drunk in China. It reached Europe in the 1600s.")], [WEB_SEARCH, REMEMBER], None,
     calls(('remember', {'key': 'sources on the history of tea', 'value': 'Tea was first drunk in China. It reached Europe in the 1600s.'}))),
 ("step: find sources done", [U("find sources on the history of tea"), calls_msg(("web_search",{"query":"the history of tea"})), T(0,"Tea was first drunk in China."), calls_msg(("remember",{"key":"sources on the history of tea","value":"Tea was first drunk in China."})), T(0,"Remembered")], [WEB_SEARCH, REMEMBER], None,
     'Found sources on the history of tea and saved them: Tea was first drunk in China.'),
 ("step: notes from the sources in memory", [S("- sources on the history of tea: Tea was first drunk in China. It reached Europe in the 1600s."), U("take notes on the history of tea")], [REMEMBER], None,
     calls(('remember', {'key': 'notes on the history of tea', 'value': 'Tea was first drunk in China; It reached Europe in the 1600s'}))),
 ("step: summary from the notes in memory", [S("- notes on the history of tea: Tea was first drunk in China; It reached Europe in the 1600s"), U("write a summary of the history of tea")], None, None,
     'Summary of the history of tea: Tea was first drunk in China. It reached Europe in the 1600s.'),
 ("a scheduled task no skill takes is a reminder", [U("Scheduled task (due tomorrow): call mum")], [SCHEDULE], None,
     'Reminder: call mum.'),
 ("a scheduled birthday greets by name", [S("- name: Ada"), U("Scheduled task (due Jan 20th): wish the user a happy birthday")], None, None,
     'Happy birthday, Ada!'),
 ("a scheduled recurring task requeues itself", [U("Scheduled task (due in 1 hour): Check the news every hour")], [SCHEDULE], None,
     calls(('schedule', {'task': 'Check the news every hour', 'when': 'in 1 hour'}))),
]


def reply_of(messages, tools, choice):
    request = {"model": "teaching-model", "messages": messages}
    if tools:
        request["tools"] = tools
    if choice == "single":
        request["parallel_tool_calls"] = False
    elif choice:
        request["tool_choice"] = choice
    message = teaching.respond(request)["choices"][0]["message"]
    if message.get("tool_calls"):
        return [(c["function"]["name"], json.loads(c["function"]["arguments"])) for c in message["tool_calls"]]
    return message["content"]


@pytest.mark.parametrize("name, messages, tools, choice, expected", SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_scenario(name, messages, tools, choice, expected):
    assert reply_of(messages, tools, choice) == expected
