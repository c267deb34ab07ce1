"""The adversarial gallery: inputs that look like something they are not. Each must get a sensible
reply or the honest fallback, never confident nonsense (a phone number taken for a name or a sum,
"I love you" stored as a like, a date computed, a negation stored as its opposite)."""
import pytest
from test_teaching_corpus import ARITHMETIC, TEXT, Memory, loop

import agentloop

NO_SUM = r"(?:=|answer is)"


def said(phrase, shape="lines"):
    """Say it to an agent with arithmetic, text and memory tools; return (reply, calls, memory)."""
    memory = Memory(shape)
    tools = {**ARITHMETIC, **TEXT, **memory.tools()}
    answer, calls, _ = loop(phrase, tools, memory.system())
    return answer, calls, memory


def arithmetic_called(calls):
    return any(name in ARITHMETIC for name, _ in calls)


NOT_A_SUM = ["Is 2024-5-1 a Monday?", "what happened on 12/25/2020?", "How did the 2023-2024 season go?",
             "Call me at 555-1234 please", "Call 555-1234 if you need me", "My number is +1 555 123 4567",
             "I'm using Python 3.11", "What's new in Python 3.12?", "Meet me at 3:30", "the train leaves at 10:45",
             "Is 7 a prime number?", "My ISBN is 978-3-16-148410-0", "I scored 3/4 on the test",
             "What's on 5-3-2016?", "version 2.0.1 is out", "Room 12-B is where we meet"]


@pytest.mark.parametrize("phrase", NOT_A_SUM)
def test_dates_times_phones_and_versions_are_never_sums(phrase):
    answer, calls, _ = said(phrase)
    assert not arithmetic_called(calls)
    assert not agentloop.teaching.arithmetic.expression(phrase)
    assert "=" not in answer and "answer is" not in answer


NOT_A_NAME = ["Call me at 555-1234 please", "call me later", "Call me back tomorrow", "I'm tired", "I'm not Ada",
              "My name isn't Bob", "I am fine thanks", "call me when you're free", "I'm going home", "Im hungry",
              "I'm Ada's friend", "call me a taxi"]


@pytest.mark.parametrize("phrase", NOT_A_NAME)
def test_what_only_looks_like_a_name_is_not_stored_as_one(phrase):
    answer, calls, memory = said(phrase)
    assert "name" not in memory.facts, memory.facts
    assert "Nice to meet you" not in answer and "your name is" not in answer.lower()


@pytest.mark.parametrize("phrase, name", [("Call me Will", "Will"), ("My name is Mark", "Mark"),
                                          ("I'm Sue", "Sue"), ("Hi, I'm Grace", "Grace"), ("call me Bill", "Bill")])
def test_names_that_are_also_words_are_names(phrase, name):
    _, _, memory = said(phrase)
    assert memory.facts == {"name": name}


@pytest.mark.parametrize("phrase", ["I love you", "I like it", "I love that", "I like this", "I love it when you do that",
                                    "I don't like tea", "I do not like cold weather", "I'd like to know more",
                                    "I would love to help", "I'm in love"])
def test_pronouns_wishes_and_negations_are_not_stored_as_likes(phrase):
    answer, calls, memory = said(phrase)
    assert "likes" not in memory.facts, memory.facts
    assert "you like" not in answer.lower()


def test_a_negation_is_remembered_as_what_it_says():
    memory = Memory("lines")
    memory.chat("I don't like tea")
    assert memory.facts == {"dislikes": "tea"}
    answer, _ = memory.chat("What do I like?")
    assert "tea" not in answer and "don't know" in answer


@pytest.mark.parametrize("shape", ["lines", "json", "store"])
@pytest.mark.parametrize("question", ["What's my cat's name?", "when is my birthday?", "Where do I work?",
                                      "what am I allergic to?"])
def test_questions_about_facts_never_stated_are_not_guessed(shape, question):
    memory = Memory(shape)
    memory.chat("My name is Ada and I live in Paris")
    answer, _ = memory.chat(question)
    assert "don't know" in answer and "Ada" not in answer and "Paris" not in answer


def test_tool_choice_null_means_auto():
    request = {"model": "teaching-model", "messages": [{"role": "user", "content": "Hello"}],
               "tools": [s for s, _ in ARITHMETIC.values()], "tool_choice": None}
    message = agentloop.teaching.respond(request)["choices"][0]["message"]
    assert "tool_calls" not in message and message["content"].startswith("Hello!")


@pytest.mark.parametrize("phrase", ["Summarise the plot of Hamlet", "Who wrote Hamlet?", "What is the capital of Peru?",
                                    "Tell me about black holes", "What's the weather like?"])
def test_no_world_knowledge_is_invented(phrase):
    answer, calls, _ = said(phrase)
    assert not calls
    assert any(marker in answer for marker in ("can't", "don't know", "no world knowledge", "no rule"))


@pytest.mark.parametrize("phrase", ["Forget it", "Remember me?", "never mind", "shout", "reverse", "?", "12", "3 +"])
def test_fragments_and_idioms_do_nothing_to_memory_or_tools(phrase):
    answer, calls, memory = said(phrase)
    assert not calls and not memory.facts and answer


def test_a_no_after_a_question_does_not_complete_the_fact():
    memory = [{"role": "user", "content": "Remember it's my birthday on Jan 20th"},
              {"role": "assistant", "content": "Which year?"}, {"role": "user", "content": "no"}]
    request = {"model": "teaching-model", "messages": memory, "tools": [s for s, _ in Memory("lines").tools().values()]}
    message = agentloop.teaching.respond(request)["choices"][0]["message"]
    assert "tool_calls" not in message


@pytest.mark.parametrize("shape", ["lines", "json", "store", "lookup"])
def test_an_empty_memory_is_never_read_as_a_memory(shape):
    """A lookup tool answering "unknown" (or a search finding nothing) is not a fact about the user."""
    answer, _, _ = said("what do you know about me?", shape)
    assert "unknown" not in answer.lower() and "Here is what I know" not in answer, answer


@pytest.mark.parametrize("phrase", ["I'm a vegetarian", "I'm vegan"])
def test_a_diet_is_not_a_job(phrase):
    answer, _, memory = said(phrase)
    assert "job" not in memory.facts and "work as" not in answer, (answer, memory.facts)


@pytest.mark.parametrize("phrase", ["flip a coin", "mirror my screen", "the e2e test took 3 minutes"])
def test_words_of_a_text_tool_or_a_number_in_other_senses_are_not_commands(phrase):
    answer, calls, _ = said(phrase)
    assert not calls and ("can't" in answer or "no rule" in answer), (answer, calls)


@pytest.mark.parametrize("phrase, wrong", [("I live in fear", "lives_in"), ("I'm from the future", "from"),
                                           ("i love u", "likes"), ("I live in denial", "lives_in")])
def test_figures_of_speech_are_not_facts(phrase, wrong):
    _, _, memory = said(phrase)
    assert wrong not in memory.facts, memory.facts


@pytest.mark.parametrize("phrase", ["I'm thinking of a number between 1 and 10", "pick a number between 3 and 4"])
def test_a_range_is_not_a_sum(phrase):
    answer, calls, _ = said(phrase)
    assert not arithmetic_called(calls) and "answer is" not in answer, (answer, calls)
