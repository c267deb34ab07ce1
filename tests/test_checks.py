"""Exercise checks: two-step hints, the pinned teaching model, the call cap, the time guard, recording."""
import json
import socket
import threading
import time

import pytest

import agentloop
from agentloop import checks, llm


@pytest.fixture(autouse=True)
def own_registry(monkeypatch, tmp_path, fresh_backend):
    """Each test's exercises vanish after it; the progress file is the test's own."""
    monkeypatch.setattr(checks, "registry", dict(getattr(checks, "registry", {})), raising=False)
    monkeypatch.setattr(checks, "_failed_runs", {}, raising=False)
    monkeypatch.chdir(tmp_path)


def closed_port() -> int:
    """A port on 127.0.0.1 where nothing listens: bound, then closed."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_the_first_miss_nudges_and_a_later_miss_gives_the_fix(capsys):
    @checks.exercise("98.1 Say hello")
    def check_greet(greet):
        checks.expect(greet() == "hello", "what does greet() return?", fix="return 'hello'")

    def greet():
        return "hi"

    assert not check_greet(greet)
    first = capsys.readouterr().out
    assert "what does greet() return?" in first and "return 'hello'" not in first
    assert not check_greet(greet)
    second = capsys.readouterr().out
    assert "what does greet() return?" in second and "return 'hello'" in second
    assert check_greet(lambda: "hello")
    assert "✅ 98.1 Say hello: passed." in capsys.readouterr().out


def test_running_the_unfilled_cell_does_not_spend_the_nudge(capsys):
    """Run All runs every exercise cell with its `...` holes: that miss is not the student's first answer, so their
    first real wrong answer still gets the nudge; the same mistake made twice gets the fix (review 7)."""
    @checks.exercise("98.2 Say goodbye")
    def check_bye(bye):
        checks.expect(bye() is not None, "bye() returned None: return a string", fix="return 'bye'")
        checks.expect(bye() == "bye", "what does bye() return?", fix="return 'bye'")

    def unfilled():
        ...

    assert not check_bye(unfilled)  # Run All, holes still in
    capsys.readouterr()
    assert not check_bye(lambda: "ciao")  # the first real answer: a nudge, not the fix
    first = capsys.readouterr().out
    assert "what does bye() return?" in first and "return 'bye'" not in first
    assert not check_bye(lambda: "ciao")  # the same mistake again: now the fix
    assert "return 'bye'" in capsys.readouterr().out


def test_a_cell_with_its_holes_still_in_never_shows_the_fix(capsys):
    """Review 17: running the shipped cell twice (Run All, then the cell) printed the fix, the whole answer, before
    the student wrote anything. A miss counts towards the fix only once the `...` holes are filled."""
    @checks.exercise("98.3 Say hi")
    def check_hi(hi):
        checks.expect(hi() == "hi", "what does hi() return?", fix="return 'hi'")

    def hi():
        return ...  # your code here

    for _ in range(3):
        assert not check_hi(hi)
        assert "return 'hi'" not in capsys.readouterr().out

    def hi():  # noqa: F811 (the student's own try, the same miss twice)
        return "hello"

    assert not check_hi(hi) and "return 'hi'" not in capsys.readouterr().out
    assert not check_hi(hi) and "return 'hi'" in capsys.readouterr().out


def test_the_registry_knows_each_exercise_by_id_with_the_students_names():
    @checks.exercise("98.2 Trim the history")
    def check_trim(trim_history, max_messages):
        pass

    entry = checks.registry["98.2"]
    assert (entry.id, entry.title, entry.lesson) == ("98.2", "98.2 Trim the history", 98)
    assert entry.names == ["trim_history", "max_messages"]
    assert entry.run is check_trim


def test_a_check_runs_on_the_teaching_model_whatever_backend_the_student_chose(capsys):
    @checks.exercise("98.3 Ask once")
    def check_answer(answer):
        checks.expect("5" in answer("What is 2 + 3?"), "the teaching model adds")

    unreachable = agentloop.use(f"http://127.0.0.1:{closed_port()}/v1", api_key="sk-test", model="m")
    student = lambda question: agentloop.ask([{"role": "user", "content": question}])["content"]  # noqa: E731
    with pytest.raises(agentloop.LLMError):  # the student's own backend really is unreachable
        student("What is 2 + 3?")
    assert check_answer(student), capsys.readouterr().out
    assert llm.backend() is unreachable  # given back after the check


def test_an_endless_loop_that_calls_the_model_stops_at_the_cap_with_a_hint(capsys):
    calls = []

    @checks.exercise("98.4 Loop")
    def check_loop(run_agent):
        run_agent("What is 2 + 3?")

    @checks.exercise("98.5 Loop with a small cap", max_calls=3)
    def check_small(run_agent):
        run_agent("What is 2 + 3?")

    def run_agent(question):  # forgets max_turns and never stops
        while True:
            calls.append(agentloop.ask([{"role": "user", "content": question}]))

    answer = checks.transport.answer
    assert not check_loop(run_agent)
    assert "your loop made more than 50 model calls: is max_turns missing?" in capsys.readouterr().out
    assert len(calls) == 50
    assert not check_small(run_agent)
    assert "more than 3 model calls" in capsys.readouterr().out
    assert len(calls) == 53
    assert checks.transport.answer is answer  # unwrapped after the check


def test_a_loop_that_catches_every_exception_still_stops_at_the_cap(capsys):
    @checks.exercise("98.6 Stubborn", max_calls=5)
    def check_stubborn(run_agent):
        run_agent()

    def run_agent():
        for _ in range(1000):
            try:
                agentloop.ask([{"role": "user", "content": "Hello"}])
            except Exception:  # a student's "never crash" loop
                pass

    assert not check_stubborn(run_agent)
    assert "more than 5 model calls" in capsys.readouterr().out


def endless():
    while True:
        pass


def test_an_endless_loop_without_model_calls_stops_at_the_time_limit(capsys):
    @checks.exercise("98.7 Spin", time_limit=0.5)
    def check_spin(spin):
        spin()

    started = time.monotonic()
    assert not check_spin(endless)
    assert time.monotonic() - started < 5
    printed = capsys.readouterr().out
    assert "your code ran for more than 0.5 s" in printed and "never ends" in printed
    # the alarm is off again: a later slow but finite step is not stopped
    time.sleep(0.7)


def test_the_time_limit_holds_where_there_are_no_signals(capsys):
    """Off the main thread (as in Pyodide, which has no signals) a clock-watching trace stops it."""
    @checks.exercise("98.8 Spin in a thread", time_limit=0.5)
    def check_spin(spin):
        spin()

    verdicts = []
    worker = threading.Thread(target=lambda: verdicts.append(check_spin(endless)), daemon=True)
    worker.start()
    worker.join(10)
    assert not worker.is_alive() and verdicts and not verdicts[0]
    assert "your code ran for more than 0.5 s" in capsys.readouterr().out


def test_every_run_is_recorded_for_progress(tmp_path, capsys):
    @checks.exercise("98.9 Recorded")
    def check_recorded(value):
        checks.expect(value == 1, "one")

    check_recorded(0)
    saved = json.loads((tmp_path / ".agentloop_progress.json").read_text())
    assert saved["98.9"]["passed"] is False and saved["98.9"]["title"] == "98.9 Recorded"
    check_recorded(1)
    saved = json.loads((tmp_path / ".agentloop_progress.json").read_text())
    assert saved["98.9"]["passed"] is True and saved["98.9"]["when"]


@pytest.mark.parametrize("damage", ["corrupt", "unwritable"])
def test_a_broken_progress_file_never_breaks_a_check(tmp_path, capsys, damage):
    @checks.exercise("98.10 Robust")
    def check_robust(value):
        checks.expect(value == 1, "one")

    target = tmp_path / ".agentloop_progress.json"
    if damage == "corrupt":
        target.write_text('{"98.10": {"passed": tru')
    else:
        target.mkdir()  # a folder where the file should be: neither readable nor writable as a file
    assert check_robust(1)
    assert "✅ 98.10 Robust: passed." in capsys.readouterr().out


def test_a_check_inside_an_outer_time_limit_gives_it_back_what_is_left(capsys):
    """A check run inside a guarded cell (as the grader's) must not switch the cell's alarm off."""
    @checks.exercise("98.11 Quick")
    def check_quick(value):
        pass

    started = time.monotonic()
    with pytest.raises(checks.Stopped):
        with checks.TimeLimit(1):
            check_quick(1)
            endless()
    assert time.monotonic() - started < 5
