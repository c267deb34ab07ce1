"""Storage: keep a dict (the agent's memory) in a JSON file that survives a restart.

`save_json(path, data)` never leaves a half-written file: it writes a temporary file
next to the real one, flushes it to disk, and then swaps it in with `os.replace`, which
is atomic. Whoever reads the file sees the old version or the new one, never a mix,
even if the kernel dies mid-save or several processes save at once. The version it
replaces is kept as `<path>.bak`. Saved files get the permissions a plain `open` would
give, and a temporary file left by a writer that was killed is removed by the next save.

`load_json(path, default)` never stops a lesson: a missing file gives a copy of
`default`; a broken one (truncated, mistyped by hand, not JSON) is moved aside to
`<path>.corrupt` and the `.bak` is loaded instead, with one sentence saying so. So is one over
`MAX_FILE` (64 MB) or nested more than 128 deep (see `bounded_json`), which could not be read safely.

Standard library only, so it runs the same in CPython and in Pyodide (the browser).
"""
import copy
import json
import os
import re

from . import bounded_json

MAX_FILE = bounded_json.MAX_BYTES  # bytes a saved file may have: a bigger one is moved aside


def save_json(path, data) -> None:
    """Write `data` as JSON to `path` atomically, keeping the previous version as .bak."""
    path = os.fspath(path)
    # Serialize first: data that is not JSON, or that load_json could not read back, fails here,
    # before any file is touched.
    try:
        text = bounded_json.check(json.dumps(data, ensure_ascii=False, indent=2, allow_nan=False), MAX_FILE)
    except RecursionError:  # json.dumps, on lists or dicts nested thousands deep
        raise bounded_json.TooDeep(f"nests lists and dicts more than {bounded_json.MAX_DEPTH} deep") from None
    raw = text.encode("utf-8")
    try:
        previous = _read(path)
    except (OSError, ValueError):
        previous = None  # no file yet, or a broken one: nothing good to back up
    if previous is not None:
        _write_atomically(path + ".bak", previous[1])
    _write_atomically(path, raw + b"\n")
    _remove_dead_writers_temps(path)


def load_json(path, default=None):
    """Read JSON from `path`. Missing: a copy of `default`. Broken: the .bak, else `default`.

    If `default` is given, the data must be of its type (a dict when default is {}).
    """
    path = os.fspath(path)
    try:
        return _check(_read(path)[0], default)
    except FileNotFoundError:
        return copy.deepcopy(default)  # the first run: nothing saved yet, nothing to say
    except ValueError as error:
        problem = error
    kept = move_aside(path)
    try:
        data, raw = _read(path + ".bak")
        _check(data, default)
        _write_atomically(path, raw)  # put it back, so the next load finds it too
        instead = f"the previous version was restored from {path}.bak"
    except (OSError, ValueError):
        data, instead = copy.deepcopy(default), f"the default, {default!r}, was loaded"
    where = f"moved to {kept}" if kept else "already moved aside"
    print(f"{path} {problem}, so it was {where} and {instead} instead.")
    return data


def _read(path):
    """(data, raw bytes) of a JSON file; ValueError with a plain reason if it is broken."""
    with open(path, "rb") as file:
        raw = bounded_json.read(file, MAX_FILE)  # TooLarge: a ValueError, so the file is moved aside
    if not raw.strip():
        raise ValueError("is empty")
    try:
        return bounded_json.loads(raw.decode("utf-8-sig")), raw  # -sig: Windows editors add a BOM
    except UnicodeDecodeError:
        raise ValueError("is not UTF-8 text") from None
    except bounded_json.TooDeep as error:
        raise ValueError(str(error)) from None
    except ValueError as error:  # json.JSONDecodeError
        raise ValueError(f"is not valid JSON ({error})") from None


_KINDS = {dict: "an object", list: "an array", str: "a string", int: "a number",
          float: "a number", bool: "true or false", type(None): "null"}


def _check(data, default):
    """A JSON array where the lesson expects an object is as broken as a typo."""
    if default is not None and not isinstance(data, type(default)):
        expected = _KINDS.get(type(default), type(default).__name__)
        raise ValueError(f"holds {_KINDS[type(data)]} where {expected} was expected")
    return data


def _write_atomically(path, raw: bytes) -> None:
    folder, name = os.path.split(os.path.abspath(path))
    # A unique name per writer, so concurrent saves never write into the same temp file; the
    # process id in it tells a later save whether its writer died. The leading dot hides it in
    # file browsers for the instant it exists. Mode 0o666 lets the umask decide, as open() does.
    while True:
        temp = os.path.join(folder, f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
        try:
            handle = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
            break
        except FileExistsError:
            continue
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(raw)
            file.flush()
            os.fsync(file.fileno())  # the bytes are on disk before the name points at them
        os.replace(temp, path)
    except BaseException:
        try:
            os.remove(temp)
        except OSError:
            pass
        raise
    _sync_folder(folder)


def _remove_dead_writers_temps(path) -> None:
    """Delete the temp files of `path` and its .bak whose writer was killed mid-save."""
    folder, name = os.path.split(os.path.abspath(path))
    pattern = re.compile(rf"\.{re.escape(name)}(\.bak)?\.(\d+)\.[0-9a-f]+\.tmp")
    for entry in os.listdir(folder):
        match = pattern.fullmatch(entry)
        if match and not _alive(int(match.group(2))):
            try:
                os.remove(os.path.join(folder, entry))
            except OSError:
                pass  # another save removed it first


def _alive(pid: int) -> bool:
    # Only POSIX can ask whether a process exists (on Windows os.kill would end it); when we
    # cannot tell, or it is us (another thread may be saving), the file is kept.
    if os.name != "posix" or pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, AttributeError):
        pass
    return True


def _sync_folder(folder) -> None:
    # Make the rename itself durable on POSIX; Windows and the browser's file system
    # cannot open a folder, and do not need to, so a failure here is fine.
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(handle)
    except OSError:
        pass
    finally:
        os.close(handle)


def move_aside(path):
    """Rename a broken file to the first free <path>.corrupt, .corrupt.1, ...; None if gone."""
    for number in range(1000):
        target = f"{path}.corrupt" + (f".{number}" if number else "")
        if not os.path.exists(target):
            try:
                os.rename(path, target)
            except FileNotFoundError:
                return None  # another process moved it first
            return target
    raise OSError(f"too many broken copies of {path}")
