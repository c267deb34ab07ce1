"""The teaching model's forgetting and keeping rules 328-336 (docs/teaching_model.md), each checked through a real agent
loop in phrasings of our own: what the tools did to the notes we hold, and what the reply says went."""
import re
import pytest

from test_teaching_corpus import loop, schema
from test_teaching_rules_memory import labelled_tools, lines, note_eraser, note_keeper, sentences

from agentloop.teaching.understand import understand


def snippet_eraser(notes: list, name="wipe_text", param="fragment"):
    """A tool that erases every note holding a fragment of text, and says how many went."""
    def erase(**given):
        said, before = str(next(iter(given.values()))).lower(), len(notes)
        notes[:] = [n for n in notes if said not in n.lower()]
        return f"{before - len(notes)} note(s) erased"
    return {name: (schema(name, "Erases every saved note that contains the given text.", **{param: "string"}), erase)}


# 328. A forget matches a note only on the content words of what was named ("that I said" and helping verbs match nothing).
@pytest.mark.parametrize("said, notes, gone", [
    ("please forget that I told you I dislike jazz", ["User dislikes jazz", "User is a morning person"], "User dislikes jazz"),
    ("drop the fact that I mentioned my cat is grey", ["User's cat is grey", "User is left-handed"], "User's cat is grey"),
])
def test_a_reported_fact_to_forget_is_matched_on_its_own_words(said, notes, gone):
    kept = [n for n in notes if n != gone]
    answer, calls, _ = loop(said, note_eraser(notes), sentences(notes))
    assert notes == kept, (calls, answer)
    assert "Done" in answer and "said" not in answer and "told" not in answer, answer


@pytest.mark.parametrize("said, notes", [
    ("forget that I said I'm scared of spiders", ["User is a vegetarian", "User is an early riser"]),
    ("erase that I told you I hate rain", ["User likes snow", "User is a nurse"]),
])
def test_nothing_about_the_thing_named_deletes_nothing(said, notes):  # negative: "is"/"are" is no match
    held = list(notes)
    answer, calls, _ = loop(said, note_eraser(notes), sentences(notes))
    assert calls == [] and notes == held and "nothing" in answer, (calls, answer)
    assert "said" not in answer and "told" not in answer, answer


def line_search(notes: list, name="scan_notes", param="words"):
    """A search that returns the matching notes as bulleted lines (every note when no word matches), no ids."""
    def scan(**given):
        words = [w for w in str(next(iter(given.values()))).lower().split() if len(w) > 2]
        return "\n".join(f"- {n}" for n in [n for n in notes if any(w in n.lower() for w in words)] or notes)
    return {name: (schema(name, "Searches the saved notes about the user.", **{param: "string"}), scan)}


# 329. "Anything that mentions X": every note holding X goes, with one call when the tool erases every note holding it.
@pytest.mark.parametrize("said, word", [
    ("scrub every note that contains Lisbon", "Lisbon"),
    ("delete whatever mentions my cousin Ravi", "Ravi"),
])
def test_every_note_that_mentions_the_word_goes_in_one_call(said, word):
    notes = ["User studied in Lisbon", "User's cousin Ravi lives in Lisbon", "User plays rugby with Ravi", "User keeps bees"]
    kept = [n for n in notes if word not in n]
    answer, calls, _ = loop(said, snippet_eraser(notes), sentences(notes))
    assert notes == kept and calls == [("wipe_text", {"fragment": word})], (calls, answer)
    assert "Done" in answer and answer.count(" and that ") == 1 and "bees" not in answer, answer


def test_a_word_only_one_note_holds_takes_only_that_note():
    notes = ["User plays rugby with Ravi", "User's cousin Ravi lives in Lisbon", "User keeps bees"]
    answer, calls, _ = loop("remove all entries with 'rugby' in your memory", snippet_eraser(notes), sentences(notes))
    assert len(calls) == 1 and notes == ["User's cousin Ravi lives in Lisbon", "User keeps bees"], (calls, answer)
    assert "rugby" in answer and "Ravi lives" not in answer, answer


def test_a_tool_that_erases_one_note_is_called_once_per_note():
    notes = ["User's sister Mia is a vet", "User met Mia in 2001", "User swims"]
    answer, calls, _ = loop("forget anything mentioning Mia", note_eraser(notes), sentences(notes))
    assert notes == ["User swims"] and len(calls) == 2, (calls, answer)


def test_notes_found_by_a_search_are_the_ones_erased():
    notes = ["User rents in Leeds", "User's aunt lives in Leeds", "User is a chef"]
    tools = {**line_search(notes), **snippet_eraser(notes)}
    answer, calls, _ = loop("erase anything that refers to Leeds", tools, "You have a memory of the user.")
    assert notes == ["User is a chef"] and ("wipe_text", {"fragment": "Leeds"}) in calls, (calls, answer)


def test_a_word_no_note_holds_erases_nothing():  # negative: a search that lists everything is no match
    notes = ["User rents in Leeds", "User is a chef"]
    tools = {**line_search(notes), **snippet_eraser(notes)}
    answer, calls, _ = loop("delete everything that mentions Glasgow", tools, "You have a memory of the user.")
    assert len(notes) == 2 and all(name == "scan_notes" for name, _ in calls) and "Glasgow" in answer, (calls, answer)


def numbered_entries(store: dict):
    """Facts kept under numeric ids: a search that returns "[id] text" lines of the matches, a delete by integer id."""
    def seek_facts(words):
        said = [w.lower() for w in words.split() if len(w) > 2]
        return "\n".join(f"[{i}] {t}" for i, t in store.items() if any(w in t.lower() for w in said)) or "No matching facts"

    def strike_fact(fact_id):
        return "Struck." if store.pop(int(fact_id), None) else "No such fact."
    return {"seek_facts": (schema("seek_facts", "Searches stored facts about the user; returns the matches with their ids.",
                                  words="string"), seek_facts),
            "strike_fact": ({"type": "function", "function": {"name": "strike_fact", "description": "Deletes one stored fact by "
                             "its numeric id.", "parameters": {"type": "object", "properties": {"fact_id": {"type": "integer"}},
                                                               "required": ["fact_id"]}}}, strike_fact)}


# 330. Wiping the memory of me clean, a clean slate, starting over: everything goes.
@pytest.mark.parametrize("said", ["Scrub your memory of me completely.", "I'd like a clean slate, please.",
                                  "Let's start afresh - forget all of it.", "reset your notes about me",
                                  "erase whatever you've got on me"])
def test_the_whole_memory_in_other_words_deletes_every_fact(said):
    store = {4: "User speaks Welsh", 9: "User owns a kayak", 12: "User is training for a marathon"}
    answer, calls, _ = loop(said, numbered_entries(store), "You remember facts about the user.")
    assert store == {} and "everything" in answer and "3" in answer, (calls, answer)


@pytest.mark.parametrize("said", ["wipe your memory of my kayak", "let's start over with the sum: 4 + 5",
                                  "reset my router password"])
def test_one_thing_or_another_fresh_start_is_not_everything(said):  # negative
    store = {4: "User speaks Welsh", 9: "User owns a kayak"}
    answer, calls, _ = loop(said, numbered_entries(store), "You remember facts about the user.")
    assert 4 in store, (calls, answer)
    assert "everything" not in answer, answer


# 331. "Everything you saved about my X" is every memory about X, found by searching first: never the whole memory.
@pytest.mark.parametrize("said", ["Please erase everything you've stored about my allotment.",
                                  "delete all you know about my allotment", "get rid of anything you have on my allotment"])
def test_everything_about_a_thing_is_each_hit_of_a_search(said):
    store = {3: "User rents an allotment in Hove", 5: "User's allotment plot number is 14", 8: "User speaks Welsh"}
    answer, calls, _ = loop(said, numbered_entries(store), "You remember facts about the user.")
    assert store == {8: "User speaks Welsh"} and calls[0][0] == "seek_facts", (calls, answer)
    assert "everything" not in answer and "allotment" in answer, answer


def test_everything_about_a_thing_never_held_deletes_nothing():  # negative: searched, then said so
    store = {8: "User speaks Welsh"}
    answer, calls, _ = loop("erase everything you saved about my allotment", numbered_entries(store), "You remember facts about the user.")
    assert store == {8: "User speaks Welsh"} and calls and all(n == "seek_facts" for n, _ in calls), (calls, answer)
    assert "allotment" in answer and "Done" not in answer, answer


def labelled_keeper(store: dict):
    def pin_fact(label, detail):
        store[label] = detail
        return "pinned"
    return {"pin_fact": (schema("pin_fact", "Keeps one lasting fact about the user under a short label.", label="string",
                                detail="string"), pin_fact)}


# 332. "Can you remember my X? It's Y" asks to keep X = Y; 333. a leading "it's" is never part of the value.
@pytest.mark.parametrize("said, value, question", [
    ("could you save my locker code? it is 4471", "4471", "what's my locker code?"),
    ("would you jot down my blood type? that's O negative", "O negative", "what is my blood type?"),
    ("my shoe size? it's 44", "44", "what size shoes do I wear?"),
    ("note my gym: it is FitZone", "FitZone", "what's my gym?"),
])
def test_a_thing_asked_to_be_kept_then_its_value_is_kept_as_said(said, value, question):
    store = {}
    answer, calls, _ = loop(said, labelled_keeper(store), "You are an assistant with long-term memory.")
    assert list(store.values()) == [value], (store, calls)
    assert value in answer and "it's" not in answer.lower().replace(f"it's {value.lower()}", "") and " is it" not in answer, answer
    memory = "You are an assistant with memory.\nMemory:\n" + "\n".join(f"- {k}: {v}" for k, v in store.items())
    assert value in loop(question, {}, memory)[0]


def test_a_secret_asked_to_be_kept_is_refused_only_under_a_rule_against_it():
    store = {}
    answer, _, _ = loop("can u remember my bank pin? it's 9931", labelled_keeper(store), "You keep notes. Never save PINs or passwords.")
    assert store == {} and "9931" not in answer, answer
    answer, _, _ = loop("can u remember my bank pin? it's 9931", labelled_keeper(store), "You keep notes.")
    assert list(store.values()) == ["9931"] and "9931" in answer, (store, answer)


@pytest.mark.parametrize("said", ["can you remember my locker code?", "what's my locker code? it is on the card, right?"])
def test_a_question_about_a_thing_is_not_a_value_to_keep(said):  # negative
    store = {}
    loop(said, labelled_keeper(store), "You are an assistant with long-term memory.")
    assert store == {}, store


# 334. "I moved (again), it's X now" is a move to X: the city held is replaced.
@pytest.mark.parametrize("said, new", [("We relocated - it's Galway now, not Cork.", "Galway"),
                                       ("I've moved house; I live in New Haven now", "New Haven"),
                                       ("so I moved again: now it's Lyon", "Lyon")])
def test_a_move_said_then_its_place_replaces_the_city(said, new):
    store = {"city": "Cork", "job": "baker"}
    answer, calls, _ = loop(said.replace("We relocated", "I relocated"), labelled_tools(store), lines(dict(store)))
    assert store == {"city": new, "job": "baker"}, (calls, answer)
    assert new in answer and "Cork" not in answer.replace("not Cork", ""), answer


def test_a_move_said_in_notes_replaces_the_note():
    notes = ["User lives in Porto", "User plays the cello"]
    tools = {**note_eraser(notes, "unremember", "text", "Delete a saved note, given its text."), **note_keeper(notes)}
    loop("I moved again, it's Valencia now", tools, sentences(list(notes)))
    assert not any("Porto" in n for n in notes) and any("Valencia" in n for n in notes) and len(notes) == 2, notes


@pytest.mark.parametrize("said", ["I moved, it's a bigger flat now", "I moved the meeting, it's Friday now"])
def test_a_move_with_no_place_named_replaces_no_city(said):  # negative
    store = {"city": "Cork", "job": "baker"}
    loop(said, labelled_tools(store), lines(dict(store)))
    assert store["city"] == "Cork", store


# 335. "I told you X, but it's actually Y" corrects X to Y.
@pytest.mark.parametrize("said, key, new", [
    ("I said my cat was Smudge, but she's actually Socks", "cat_name", "Socks"),
    ("I told you earlier that I work at Tesco, but it's really Aldi", "employer", "Aldi"),
    ("I mentioned my bike is a Trek but it is actually a Giant", "bike", "Giant"),
])
def test_what_was_told_then_put_right_is_corrected(said, key, new):
    held = {"cat_name": "Smudge", "employer": "Tesco", "bike": "a Trek"}
    store = dict(held)
    answer, calls, _ = loop(said, labelled_tools(store), lines(held))
    assert new in store[key] and all(store[k] == v for k, v in held.items() if k != key) and len(store) == 3, (calls, answer)
    assert new in answer, answer


@pytest.mark.parametrize("said", ["I told you my secret, but it's safe with you", "I said I would ring Tesco, but it's too late now"])
def test_a_report_with_no_named_value_changes_nothing_held(said):  # negative
    held = {"bike": "a Trek", "employer": "Tesco"}
    store = dict(held)
    loop(said, labelled_tools(store), lines(held))
    assert store["bike"] == "a Trek" and store["employer"] == "Tesco", store


def slot_tools(store: dict, deleting=True):
    tools = {"save_slot": (schema("save_slot", "Saves a fact about the user in a named slot for later chats.", slot="string",
                                  content="string"), lambda slot, content: store.__setitem__(slot, content) or "saved")}
    if deleting:
        tools["clear_slot"] = (schema("clear_slot", "Clears one saved slot, by its name.", slot="string"),
                               lambda slot: f"cleared {slot}" if store.pop(slot, None) else f"no slot {slot}")
    return tools


def two_turns(first, second, store, deleting=True):
    system = "You are an assistant with memory."
    _, _, messages = loop(first, slot_tools(store, deleting), system)
    return loop(second, slot_tools(store, deleting), system, history=messages[1:])


# 358. "Forget that" said alone right after a fact was kept forgets what was just kept.
@pytest.mark.parametrize("first, second", [
    ("please remember my bike lock code is 4471", "hmm, scratch that"),
    ("note that my landlord is called Mr Osei", "oh wait, don't keep that, sorry"),
    ("my favourite band is Low", "on second thought, forget I said that"),
])
def test_forget_that_right_after_storing_forgets_it(first, second):
    store = {"city": "Ghent"}
    answer, calls, _ = two_turns(first, second, store)
    assert store == {"city": "Ghent"}, (store, calls, answer)
    assert "Done" in answer, answer


def test_forget_that_with_no_delete_tool_says_it_cannot():
    store = {}
    answer, calls, _ = two_turns("remember my locker is 31", "actually, forget that", store, deleting=False)
    assert "can't" in answer and calls == [], (calls, answer)


def test_forget_that_after_a_question_forgets_nothing():  # negative: nothing was just kept
    store = {"city": "Ghent"}
    answer, calls, _ = two_turns("where do I live?", "never mind, forget that", store)
    assert store == {"city": "Ghent"} and not any(name == "clear_slot" for name, _ in calls), (calls, answer)


def keyed_dropper(store: dict):
    def drop_topic(topic):
        return f"dropped {topic}" if store.pop(topic, None) else f"nothing under {topic}"
    return {"drop_topic": (schema("drop_topic", "Removes the fact stored under a topic name from memory.", topic="string"),
                           drop_topic)}


# 376. A forget that names a value matches only a memory holding that value; the key's subject alone is no match.
@pytest.mark.parametrize("said, memory", [
    ("forget that I'm allergic to wasps", {"allergy": "pollen", "job": "pilot"}),
    ("please forget that I live in Oslo", {"city": "Bergen", "job": "pilot"}),
])
def test_a_forget_naming_another_value_deletes_nothing(said, memory):
    store = dict(memory)
    answer, calls, _ = loop(said, keyed_dropper(store), lines(store))
    assert store == memory and "forgotten" not in answer.lower(), (calls, answer)


@pytest.mark.parametrize("said, memory, gone", [
    ("forget that I'm allergic to pollen", {"allergy": "pollen", "job": "pilot"}, "allergy"),
    ("please forget that I live in Bergen", {"city": "Bergen", "job": "pilot"}, "city"),
    ("forget my allergy", {"allergy": "pollen", "job": "pilot"}, "allergy"),
])
def test_a_forget_naming_the_held_value_deletes_it(said, memory, gone):  # negative: the value held is a match
    store = dict(memory)
    loop(said, keyed_dropper(store), lines(store))
    assert gone not in store and "job" in store, store


# 380. Common misspellings of the command verbs are read as the verbs.
@pytest.mark.parametrize("said, memory, gone", [
    ("pls foget my locker code", {"locker_code": "3381", "city": "Bonn"}, "locker_code"),
    ("delet my bike lock combo", {"bike_lock_combo": "1234", "city": "Bonn"}, "bike_lock_combo"),
])
def test_a_misspelt_forget_is_a_forget(said, memory, gone):
    store = dict(memory)
    loop(said, keyed_dropper(store), lines(store))
    assert gone not in store and "city" in store, store


def test_i_forgot_is_no_request():  # negative: the past tense is said of the user
    store = {"locker_code": "3381"}
    loop("I forgot my locker code", keyed_dropper(store), lines(store))
    assert store == {"locker_code": "3381"}, store


# 346. "The thing(s) you have about my X", "what you know about X", "anything on X" name the subject X of a forget.
@pytest.mark.parametrize("said", ["remove the stuff you've got about my job", "please erase the things you know about my job",
                                  "scrap the bit you have on my job", "drop anything on my job"])
def test_the_things_held_about_a_subject_are_forgotten_not_cancelled(said):
    store = {3: "User's job is welding at Fenwick", 5: "User has a dog called Rolo"}
    answer, calls, _ = loop(said, numbered_entries(store), "You remember facts about the user.")
    assert store == {5: "User has a dog called Rolo"} and calls[0][0] == "seek_facts", (calls, answer)
    assert "cancel" not in answer and "job" in answer, answer


def test_the_things_held_about_a_subject_never_held_deletes_nothing():  # negative: searched, then said so
    store = {5: "User has a dog called Rolo"}
    answer, calls, _ = loop("remove the stuff you've got about my job", numbered_entries(store), "You remember facts about the user.")
    assert store == {5: "User has a dog called Rolo"} and all(n == "seek_facts" for n, _ in calls), (calls, answer)
    assert "job" in answer and "Done" not in answer, answer


def test_a_named_scheduled_job_is_still_cancelled():  # negative: "the backup job" is scheduled work, not a memory
    assert understand("delete the nightly backup job")[0].kind == "cancel"


def measuring_tools(store: dict):
    """A store of facts by topic beside two text tools: one that measures a text's length, one that reverses it."""
    return {"file_fact": (schema("file_fact", "Files a fact about the user under a topic for later chats.", topic="string",
                                 fact="string"), lambda topic, fact: store.__setitem__(topic, fact) or "filed"),
            "measure": (schema("measure", "Tells how many characters long a piece of text is.", text="string"), lambda text: len(text)),
            "backwards": (schema("backwards", "Writes a text back to front.", text="string"), lambda text: text[::-1])}


# 348. A secret not to be kept, then a request about "it": the request is done on the secret, which is never stored.
@pytest.mark.parametrize("said, call, expected", [
    ("my door code is 58A19QX - please don't store it, I only want to know how many characters it is",
     ("measure", {"text": "58A19QX"}), "7"),
    ("my locker combination is 3141. do not remember that! what is it backwards though?", ("backwards", {"text": "3141"}), "1413"),
    ("our wifi passphrase is blue-otter-77, never save it; how long is it?", ("measure", {"text": "blue-otter-77"}), "13"),
])
def test_a_request_about_a_secret_not_kept_is_done_on_it(said, call, expected):
    store = {}
    answer, calls, _ = loop(said, measuring_tools(store), "You are an assistant with memory.")
    assert store == {} and calls == [call] and expected in answer, (store, calls, answer)


def test_a_secret_not_kept_with_no_request_about_it_is_only_not_kept():  # negative: "it" names nothing asked about
    store = {}
    answer, calls, _ = loop("my bank PIN is 2468, don't save it", measuring_tools(store), "You are an assistant with memory.")
    assert store == {} and calls == [] and "4" not in answer and "won't" in answer, (calls, answer)


# 403. "Remove/delete/strip the X: <text>" edits the text after the colon; it is never a forget (nothing about the user
# or memory is named before the colon).
@pytest.mark.parametrize("said", ["strip the commas: 1,2,3,4", "delete the vowels from this: banana split",
                                  "capitalise this and then drop the dashes: a-b-c"])
def test_removing_something_from_a_given_text_is_no_forget(said):
    store = {"commas": "likes lists", "vowels": "a note", "dashes": "morse"}
    tools = labelled_tools(store)
    tools["shout"] = (schema("shout", "Returns the text in capital letters.", text="string"), lambda text: text.upper())
    answer, calls, _ = loop(said, tools)
    assert not any(name == "unlearn" for name, _ in calls) and len(store) == 3, (said, calls)
    assert not re.search(r"forg[oe]t|unlearn|deleted|removed", answer, re.I), answer


def test_a_forget_with_a_reason_after_a_colon_still_forgets():
    store = {"dog": "Rex", "city": "Leeds"}
    answer, calls, _ = loop("remove my dog: he went to live with my sister", labelled_tools(store))
    assert ("unlearn", {"label": "dog"}) in calls and "dog" not in store, (calls, answer)


# 413. A forget matches a memory only on what it names: "afraid of X" is no "afraid of Y" (same words before the
# preposition, another thing after it); nothing matched deletes nothing and says so, in the user's words.
@pytest.mark.parametrize("said, notes, thing", [
    ("forget that I'm allergic to wasps", ["allergic to penicillin", "likes long walks"], "allergic to wasps"),
    ("please forget that I'm scared of clowns", ["scared of the dark", "owns a kayak"], "scared of clowns"),
])
def test_the_same_words_about_another_thing_are_no_match(said, notes, thing):
    held = list(notes)
    answer, calls, _ = loop(said, snippet_eraser(notes), sentences(notes))
    assert calls == [] and notes == held, (calls, answer)
    assert "nothing" in answer and thing in answer and "Done" not in answer, answer


@pytest.mark.parametrize("said, notes, gone", [
    ("forget that I'm allergic to penicillin", ["allergic to penicillin", "likes long walks"], "allergic to penicillin"),
    ("forget that I'm scared of the dark", ["scared of the dark", "owns a kayak"], "scared of the dark"),
])
def test_the_same_thing_named_is_still_forgotten(said, notes, gone):  # negative: the named object itself matches
    answer, calls, _ = loop(said, snippet_eraser(notes), sentences(notes))
    assert gone not in notes and len(notes) == 1 and "Done" in answer, (calls, answer)


# 414 (with 225/284). A filler after "no longer X" ("btw", "tbh", "lol") is no part of X: the stored X is replaced in
# the same turn as the new fact is kept.
@pytest.mark.parametrize("said, memory, old, new", [
    ("I'm not vegetarian anymore tbh, I eat chicken now", {"diet": "vegetarian", "city": "Oslo"}, "vegetarian", "chicken"),
    ("I don't live in Bergen anymore lol, I live in Tromso", {"city": "Bergen", "job": "welder"}, "Bergen", "Tromso"),
])
def test_what_is_no_longer_so_goes_when_a_filler_follows_it(said, memory, old, new):
    store = dict(memory)
    answer, calls, _ = loop(said, labelled_tools(store), lines(store))
    held = " ".join(store.values())
    assert old not in held and new in held and len(store) == 2, (store, calls, answer)
    assert not re.search(r"\b(?:tbh|lol)\b", held + answer), (store, answer)
