"""storage: atomic JSON saves that survive crashes, concurrent writers and broken files.

The crash tests kill a real Python process with SIGKILL in the middle of a save; the
concurrency tests run real processes that save at the same time. No mocks.
"""
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentloop import storage
from agentloop.storage import load_json, save_json

SRC = str(Path(__file__).resolve().parents[1] / "src")
needs_sigkill = pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="needs POSIX signals")


def start(script: str, *args) -> subprocess.Popen:
    """A child Python that imports agentloop from this checkout."""
    env = {**os.environ, "PYTHONPATH": SRC + os.pathsep + os.environ.get("PYTHONPATH", "")}
    return subprocess.Popen([sys.executable, "-c", script, *map(str, args)], env=env,
                            stdout=subprocess.PIPE, text=True)


def names(folder) -> set:
    return set(os.listdir(folder))


# --- the ordinary path ------------------------------------------------------------------

text = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=20)  # no lone surrogates: not UTF-8
scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | text
values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
                      max_leaves=12)
memories = st.dictionaries(text, values, max_size=6)


@settings(max_examples=60, deadline=None)
@given(memories, memories)
def test_round_trip_and_backup_of_any_json_dict(first, second):
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "memory.json")
        save_json(path, first)
        assert load_json(path, {}) == first
        save_json(path, second)
        assert load_json(path, {}) == second
        assert load_json(path + ".bak", {}) == first  # the previous version is kept
        assert names(folder) == {"memory.json", "memory.json.bak"}  # no temp files left behind


def test_the_file_is_readable_json(tmp_path):
    path = tmp_path / "memory.json"  # a pathlib.Path works as well as a str
    save_json(path, {"name": "Zoë", "likes": ["tea"]})
    assert json.loads(path.read_text(encoding="utf-8")) == {"name": "Zoë", "likes": ["tea"]}
    assert "Zoë" in path.read_text(encoding="utf-8")  # readable by a student, not \u-escaped


def test_missing_file_gives_a_copy_of_default_silently(tmp_path, capsys):
    default = {"facts": []}
    loaded = load_json(tmp_path / "memory.json", default)
    assert loaded == default and loaded is not default
    loaded["facts"].append("x")
    assert default == {"facts": []}  # a deep copy: the caller's default is untouched
    assert load_json(tmp_path / "memory.json") is None
    assert capsys.readouterr().out == ""
    assert names(tmp_path) == set()  # loading creates nothing


def deep_list(levels: int) -> list:
    nested = []
    for _ in range(levels - 1):
        nested = [nested]
    return nested


def test_data_nested_as_deep_as_load_json_reads_round_trips(tmp_path):
    save_json(tmp_path / "memory.json", {"x": deep_list(127)})  # 128 levels with the dict around it
    assert load_json(tmp_path / "memory.json", {}) == {"x": deep_list(127)}


def test_data_that_is_not_json_fails_before_touching_the_file(tmp_path):
    path = tmp_path / "memory.json"
    save_json(path, {"version": 1})
    for bad in ({"when": object()}, {"x": float("nan")}, {"x": deep_list(100_000)}, {"x": deep_list(128)}):
        with pytest.raises((TypeError, ValueError)):
            save_json(path, bad)
    assert load_json(path, {}) == {"version": 1}
    assert names(tmp_path) == {"memory.json"}  # no backup made, no temp file left


@pytest.mark.parametrize("umask", [0o022, 0o077, 0o002], ids=["022", "077", "002"])
def test_saved_files_get_the_permissions_a_plain_open_gives(tmp_path, umask):
    previous = os.umask(umask)
    try:
        (tmp_path / "reference").write_text("{}")  # what any other program would create
        save_json(tmp_path / "memory.json", {"version": 1})
        save_json(tmp_path / "memory.json", {"version": 2})  # and a backup
    finally:
        os.umask(previous)
    expected = (tmp_path / "reference").stat().st_mode
    assert expected & 0o777 == 0o666 & ~umask
    for name in ("memory.json", "memory.json.bak"):
        assert (tmp_path / name).stat().st_mode == expected


def temps(folder) -> list:
    return [name for name in names(folder) if name.endswith(".tmp")]


def test_a_disk_full_mid_save_leaves_no_temp_file_and_the_old_version(tmp_path, monkeypatch):
    path = tmp_path / "memory.json"
    save_json(path, {"version": 1})
    def disk_full(handle):
        raise OSError(28, "No space left on device")
    monkeypatch.setattr(os, "fsync", disk_full)
    with pytest.raises(OSError, match="No space"):
        save_json(path, {"version": 2})
    monkeypatch.undo()
    assert temps(tmp_path) == [] and load_json(path, {}) == {"version": 1}


def test_a_save_that_cannot_swap_leaves_no_temp_file(tmp_path):
    (tmp_path / "memory.json").mkdir()  # a folder where the file should be: the rename fails
    with pytest.raises(OSError):
        save_json(tmp_path / "memory.json", {"version": 1})
    assert temps(tmp_path) == []


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root may write anywhere")
def test_a_save_into_a_read_only_folder_fails_cleanly(tmp_path):
    folder = tmp_path / "locked"
    folder.mkdir()
    folder.chmod(0o555)
    try:
        with pytest.raises(PermissionError):
            save_json(folder / "memory.json", {"version": 1})
        assert names(folder) == set()
    finally:
        folder.chmod(0o755)


# --- broken files -----------------------------------------------------------------------

BROKEN = {
    "truncated": b'{"name": "Ada", "likes": ["te',
    "hand-edited": b"{'name': 'Ada',}\n",  # Python, not JSON
    "garbage": bytes(range(256)) * 4,
    "not UTF-8": '{"name": "Zoë"}'.encode("latin-1"),
    "empty": b"",
    "an array, not an object": b'["Ada", "tea"]',
    "nested 100,000 deep": b'{"likes": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
}


@pytest.mark.parametrize("content", BROKEN.values(), ids=BROKEN.keys())
def test_broken_file_loads_the_backup_and_keeps_the_bad_file(tmp_path, capsys, content):
    path = tmp_path / "memory.json"
    save_json(path, {"version": 1})
    save_json(path, {"version": 2})
    path.write_bytes(content)  # a crash of some other program, or a typo by hand

    assert load_json(path, {}) == {"version": 1}  # the last good version, from .bak
    message = capsys.readouterr().out
    assert message.count("\n") == 1 and message.rstrip().endswith(".")  # one sentence
    assert str(path) in message and "memory.json.corrupt" in message and "memory.json.bak" in message
    assert (tmp_path / "memory.json.corrupt").read_bytes() == content  # kept, for a human to look at
    assert load_json(path, {}) == {"version": 1}  # restored: the next load (a new kernel) finds it
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("content", BROKEN.values(), ids=BROKEN.keys())
def test_broken_file_without_backup_loads_the_default(tmp_path, capsys, content):
    path = tmp_path / "memory.json"
    path.write_bytes(content)
    assert load_json(path, {}) == {}
    message = capsys.readouterr().out
    assert message.count("\n") == 1 and "default, {}" in message
    assert names(tmp_path) == {"memory.json.corrupt"}


def test_a_broken_backup_is_not_trusted(tmp_path, capsys):
    path = tmp_path / "memory.json"
    path.write_bytes(b"{oops")
    (tmp_path / "memory.json.bak").write_bytes(b'{"half": ')
    assert load_json(path, {}) == {}
    assert "default" in capsys.readouterr().out


def test_broken_copies_never_overwrite_each_other(tmp_path, capsys):
    path = tmp_path / "memory.json"
    for number, content in enumerate([b"{first", b"{second", b"{third"]):
        path.write_bytes(content)
        assert load_json(path, {}) == {}
    assert (tmp_path / "memory.json.corrupt").read_bytes() == b"{first"
    assert (tmp_path / "memory.json.corrupt.1").read_bytes() == b"{second"
    assert (tmp_path / "memory.json.corrupt.2").read_bytes() == b"{third"
    assert "memory.json.corrupt.2" in capsys.readouterr().out.splitlines()[-1]


def test_a_broken_file_is_never_backed_up(tmp_path, capsys):
    path = tmp_path / "memory.json"
    save_json(path, {"version": 1})
    save_json(path, {"version": 2})
    path.write_bytes(b"{typo")
    save_json(path, {"version": 3})  # saving over a broken file: the good .bak must survive
    assert load_json(path.with_name("memory.json.bak"), {}) == {"version": 1}
    assert load_json(path, {}) == {"version": 3}


# --- real crashes -----------------------------------------------------------------------

PAUSE_BEFORE_REPLACE = r"""
import os, sys, time
from agentloop.storage import save_json
path, pause_on = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
real_replace = os.replace
def replace_slowly(source, target):
    if os.path.abspath(target) == pause_on:  # the new bytes are written and synced, not yet in place
        print("written", flush=True)
        time.sleep(60)
    real_replace(source, target)
os.replace = replace_slowly
save_json(path, {"version": 2, "note": "this save never finishes"})
"""


@needs_sigkill
@pytest.mark.parametrize("pause_on", ["memory.json", "memory.json.bak"])
def test_sigkill_in_the_middle_of_a_save_keeps_the_previous_version(tmp_path, capsys, pause_on):
    path = tmp_path / "memory.json"
    save_json(path, {"version": 1})
    child = start(PAUSE_BEFORE_REPLACE, path, tmp_path / pause_on)
    assert child.stdout.readline() == "written\n"  # the child is inside save_json now
    child.kill()  # SIGKILL: no cleanup, no finally, no flush, like a dead kernel
    assert child.wait(10) == -signal.SIGKILL

    leftovers = [name for name in names(tmp_path) if name.endswith(".tmp")]
    assert len(leftovers) == 1  # proof that it died mid-save, with the temp file complete
    assert load_json(path, {}) == {"version": 1}
    assert capsys.readouterr().out == ""  # nothing broken, nothing to report
    save_json(path, {"version": 3})  # and life goes on
    assert load_json(path, {}) == {"version": 3}
    assert temps(tmp_path) == []  # the dead writer's temp file went with the next save


@needs_sigkill
def test_a_save_keeps_the_temp_files_of_writers_still_alive(tmp_path):
    path = tmp_path / "memory.json"
    save_json(path, {"version": 1})
    child = start(PAUSE_BEFORE_REPLACE, path, path)
    try:
        assert child.stdout.readline() == "written\n"  # alive, between its write and its swap
        [alive] = temps(tmp_path)
        save_json(path, {"version": 2})
        assert temps(tmp_path) == [alive]  # not ours to remove: it is about to be renamed
    finally:
        child.kill()
        child.wait(10)
    save_json(path, {"version": 3})
    assert temps(tmp_path) == []


KEEP_SAVING = r"""
import sys
from agentloop.storage import save_json
path, version = sys.argv[1], int(sys.argv[2])
while True:
    version += 1
    save_json(path, {"version": version, "padding": "x" * 4_000_000, "end": version})
    if version == int(sys.argv[2]) + 1:
        print("saving", flush=True)  # from now on the child does nothing but save
"""


@needs_sigkill
def test_sigkill_at_any_moment_leaves_a_complete_version(tmp_path, capsys):
    path = tmp_path / "memory.json"
    save_json(path, {"version": 0, "end": 0})
    seen = 0
    for round in range(24):  # kills spread over about one save (serialize, back up, write, swap)
        child = start(KEEP_SAVING, path, seen)
        assert child.stdout.readline() == "saving\n"
        time.sleep(round * 0.002)
        child.kill()
        child.wait(10)
        for name in ("memory.json", "memory.json.bak"):
            data = load_json(tmp_path / name, {})  # a torn file would print and move aside
            assert data["version"] == data["end"]  # one version, from start to end
        latest = load_json(path, {})["version"]
        assert latest > seen  # the child's first save stuck, and nothing went backwards
        seen = latest
    assert capsys.readouterr().out == ""
    assert not [name for name in names(tmp_path) if "corrupt" in name]
    save_json(path, {"version": seen + 1, "end": seen + 1})
    assert names(tmp_path) == {"memory.json", "memory.json.bak"}  # no temp file outlives its dead writer


# --- several writers at once ------------------------------------------------------------

WRITER = r"""
import sys
from agentloop.storage import save_json
path, writer = sys.argv[1], sys.argv[2]
for version in range(40):
    tag = f"{writer}-{version}"
    save_json(path, {"tag": tag, "items": [tag] * 20_000})
print("done", flush=True)
"""


def test_concurrent_writers_never_mix_versions(tmp_path, capsys):
    path = tmp_path / "memory.json"
    save_json(path, {"tag": "start", "items": ["start"]})
    writers = [start(WRITER, path, f"w{number}") for number in range(4)]
    reads = 0
    while any(writer.poll() is None for writer in writers):
        data = load_json(path, {})  # read while they write
        assert data["items"] == [data["tag"]] * len(data["items"])
        reads += 1
    assert [writer.stdout.read() for writer in writers] == ["done\n"] * 4
    assert [writer.returncode for writer in writers] == [0] * 4
    assert reads > 0
    for name in ("memory.json", "memory.json.bak"):
        data = load_json(tmp_path / name, {})
        assert data["tag"].endswith("-39") or name.endswith(".bak")
        assert data["items"] == [data["tag"]] * 20_000
    assert capsys.readouterr().out == ""
    assert names(tmp_path) == {"memory.json", "memory.json.bak"}  # no temp files, nothing corrupt


def test_a_file_over_the_size_cap_is_moved_aside_unread(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(storage, "MAX_FILE", 1000)
    path = tmp_path / "memory.json"
    path.write_text(json.dumps({"notes": "x" * 2000}))
    assert load_json(path, {}) == {}
    assert "over the limit of 1,000 bytes" in capsys.readouterr().out
    assert names(tmp_path) == {"memory.json.corrupt"}
