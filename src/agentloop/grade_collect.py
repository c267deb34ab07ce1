"""Collecting a class's notebooks for grading: from folders, zips and files, named by student.

Only regular files are read, and each at most MAX_NOTEBOOK bytes (a zip member is inflated only
that far, whatever its header says). A symbolic link, a device, a FIFO, a folder named `.ipynb`,
a member the zip cannot give back, or a file over the cap becomes a Submission with a `problem`,
so it gets its row in the CSV and the rest of the class is graded.
"""
import os
import re
import stat
import zipfile
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from . import bounded_json

MAX_NOTEBOOK = bounded_json.MAX_BYTES  # a notebook with its outputs, pictures included, is far smaller
LESSON_IN_NAME = re.compile(r"(?:lesson[ _-]?)?(\d{1,2})(?:[ _-]|\.ipynb)", re.I)
KINDS = [(stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a FIFO (named pipe)"),
         (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"), (stat.S_ISSOCK, "a socket")]


@dataclass
class Submission:
    student: str
    name: str  # the notebook's file name
    raw: bytes
    problem: str = ""  # why it cannot be graded, if it cannot


def _named(parts: list, top: int, folder: str, raw: bytes, problem: str = "") -> Submission:
    """Student = the folder under the root; for a notebook named like a lesson at the root, the root's
    own name (`alice/` or `alice.zip` holding `03_the_loop.ipynb`); else the file's stem."""
    if len(parts) > top + 1:
        student = parts[top]
    elif folder and LESSON_IN_NAME.match(parts[-1]):
        student = folder
    else:
        student = PurePosixPath(parts[-1]).stem
    return Submission(student, parts[-1], raw, problem)


def _wanted(parts) -> bool:
    return parts[-1].endswith(".ipynb") and not any(p.startswith((".", "__MACOSX")) for p in parts)


def not_regular(mode: int) -> str:
    """Why a file of this mode is not graded, or "" for a regular file."""
    kind = next((name for test, name in KINDS if test(mode)), "" if stat.S_ISREG(mode) else "not a regular file")
    return f"not graded: {kind}, not a regular file (it is never followed or opened)" if kind else ""


def read_file(path: Path) -> tuple:
    """(bytes, problem) of a notebook on disk: a regular file only, never followed, never blocking."""
    try:
        problem = not_regular(os.lstat(path).st_mode)
        if problem:
            return b"", problem
        # O_NOFOLLOW and O_NONBLOCK: a file swapped for a link or a FIFO since lstat neither leads
        # elsewhere nor hangs; fstat then checks what was really opened.
        handle = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(handle, "rb") as file:
            problem = not_regular(os.fstat(file.fileno()).st_mode)
            return (b"", problem) if problem else (bounded_json.read(file, MAX_NOTEBOOK), "")
    except bounded_json.TooLarge:
        return b"", f"not graded: the file is over {MAX_NOTEBOOK // 2**20} MB"
    except OSError as error:
        return b"", f"not graded: the file cannot be read ({error.strerror or error})"


def read_member(archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> tuple:
    """(bytes, problem) of a zip member: a regular file only, inflated at most MAX_NOTEBOOK bytes."""
    mode = info.external_attr >> 16
    if stat.S_IFMT(mode) and not_regular(mode):  # zips made on Unix keep the file's type
        return b"", not_regular(mode).replace("a regular file", "a regular file in the zip")
    try:
        with archive.open(info) as member:
            return bounded_json.read(member, MAX_NOTEBOOK), ""
    except bounded_json.TooLarge:
        return b"", f"not graded: it inflates to over {MAX_NOTEBOOK // 2**20} MB"
    except Exception as error:  # a hostile zip's decompressor can raise almost anything: that notebook's row says so
        return b"", f"not graded: the zip cannot give it back ({type(error).__name__}: {error})"


def from_folder(path: Path) -> list:
    files = [f.relative_to(path).parts for f in sorted(path.rglob("*.ipynb"))]
    return [_named(list(p), 0, path.resolve().name, *read_file(path.joinpath(*p))) for p in files if _wanted(p)]


def from_zip(path: Path) -> list:
    try:
        with zipfile.ZipFile(path) as archive:
            infos = [i for i in archive.infolist() if not i.is_dir() and _wanted(PurePosixPath(i.filename).parts)]
            parts = [PurePosixPath(i.filename).parts for i in infos]
            shared = os.path.commonprefix([p[:-1] for p in parts])  # e.g. the "submissions/" around it all
            folder = shared[-1] if shared else path.stem
            return [_named(list(p), len(shared), folder, *read_member(archive, i)) for i, p in zip(infos, parts)]
    except (zipfile.BadZipFile, OSError, ValueError) as error:
        return [Submission(path.stem, path.name, b"", f"not graded: the zip cannot be read ({error})")]


def collect(paths: list) -> list:
    """Every notebook in the folders, zips and files given, with its student's name."""
    found = []
    for path in map(Path, paths):
        if path.is_dir():
            found += from_folder(path)
        elif path.is_file() and zipfile.is_zipfile(path):  # is_file first: is_zipfile would open a FIFO
            found += from_zip(path)
        elif os.path.lexists(path):
            found.append(_named([path.name], 0, path.resolve().parent.name, *read_file(path)))
        else:
            raise SystemExit(f"{path}: no such folder, zip or notebook")
    return sorted(found, key=lambda s: (s.student, s.name))
