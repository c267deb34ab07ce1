"""Build the offline course site into _output/: `python lite/build.py [--force]` (or `make site`).

The kernel package only points at Pyodide's CDN, so a default build hangs in a browser with
no internet. This script stages everything the kernel loads next to the site:
  1. the Pyodide runtime from npm (pinned to the version the kernel package expects),
  2. the wheels it preloads, plus our agentloop wheel, and a pyodide-lock.json for exactly them,
  3. a snapshot of the kernel's Python after its imports, which boot.mjs restores (snapshot.mjs),
     brotli-packed, with a brotli decoder from npm (browsers unpack only gzip on their own),
then runs `jupyter lite build` (settings in jupyter_lite_config.json and lite/jupyter-lite.json).
Downloads are cached in .cache/; the whole build is skipped when no input changed.
"""
import gzip
import hashlib
import json
import re
import shutil
import subprocess
import sys
import tarfile
import time
from pathlib import Path

from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION

sys.path.insert(0, str(Path(__file__).parent))
import home  # noqa: E402
import lock  # noqa: E402
import offline  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
LITE, CACHE, OUT = ROOT / "lite", ROOT / ".cache", ROOT / "_output"
STAGE = LITE / "static" / "pyodide"  # where the build looks for a local Pyodide (ignored by git)
KERNEL_WHEELS = Path(sys.prefix, "share/jupyter/labextensions/@jupyterlite/pyodide-kernel-extension/static/pypi")
RUNTIME = ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip"]
# Brotli packs the snapshot a third smaller than gzip; browsers cannot unpack it themselves (only gzip),
# so boot.mjs does, with this decoder (Rust's brotli as 208 KB of wasm, MIT/Apache-2.0).
BROTLI = ("brotli-dec-wasm", "2.3.2", {"package/pkg/brotli_dec_wasm.js": "brotli_dec_wasm.js",
                                       "package/pkg/brotli_dec_wasm_bg.wasm": "brotli_dec_wasm_bg.wasm.gz",
                                       "package/LICENSE-MIT.txt": "brotli_dec_wasm.LICENSE.txt"})
# Not inputs: caches, the staging folder, and what lessons write when run (the site skips it too).
NOT_INPUT = re.compile(r"__pycache__|\.ipynb_checkpoints|\.egg-info|\.pyc$|^lite/static/|^lessons/.*\.json[^/]*$")


def digest(*paths: Path) -> str:
    """A hash of every input file under `paths` (names and bytes)."""
    h = hashlib.sha256(PYODIDE_VERSION.encode())
    for top in paths:
        for path in sorted([top] if top.is_file() else top.rglob("*")):
            if path.is_file() and not NOT_INPUT.search(path.relative_to(ROOT).as_posix()):
                h.update(str(path.relative_to(ROOT)).encode() + path.read_bytes())
    return h.hexdigest()


def run(*cmd, echo=False, **kw) -> None:
    """Run a step quietly (or `echo` what it printed); on failure show its output and stop the build."""
    done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    if echo:
        print(done.stdout, end="")
    if done.returncode:
        sys.exit(f"{done.stdout[-3000:]}{done.stderr[-3000:]}\nlite/build.py: failed: {' '.join(map(str, cmd))}")


def npm_tarball(name: str, version: str) -> Path:
    tarball = CACHE / "npm" / f"{name}-{version}.tgz"
    if not tarball.exists():
        tarball.parent.mkdir(parents=True, exist_ok=True)
        run("npm", "pack", f"{name}@{version}", "--pack-destination", tarball.parent)
    return tarball


def stage_brotli() -> None:
    """The decoder next to boot.mjs; its wasm gzipped, since static hosts send wasm as it is."""
    name, version, files = BROTLI
    with tarfile.open(npm_tarball(name, version)) as tar:
        for member, staged in files.items():
            data = tar.extractfile(member).read()
            (STAGE / staged).write_bytes(gzip.compress(data, 9, mtime=0) if staged.endswith(".gz") else data)


def agentloop_wheel() -> Path:
    """Our package as a wheel, rebuilt whenever src/ or pyproject.toml changed."""
    out = CACHE / "agentloop" / digest(ROOT / "src", ROOT / "pyproject.toml")[:16]
    if not list(out.glob("*.whl")):
        run(sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", out, ROOT)
    return next(out.glob("agentloop-*.whl"))


def precompiled(wheels: dict[str, Path]) -> dict[str, Path]:
    """Every wheel but ours with bytecode for source, made by Pyodide itself: the kernel starts
    seconds sooner. agentloop keeps its source, for the students' tracebacks (and it is small)."""
    out = CACHE / f"wheels-pyc-{digest(LITE / 'compile_wheels.py', LITE / 'compile_wheels.mjs')[:12]}"
    out.mkdir(parents=True, exist_ok=True)
    chosen = {name: path if name == "agentloop" else out / path.name for name, path in wheels.items()}
    todo = [str(p) for name, path in wheels.items() if not chosen[name].exists() for p in (path, chosen[name])]
    if todo:
        run("node", LITE / "compile_wheels.mjs", STAGE, *todo)
    return chosen


def stage_pyodide() -> None:
    shutil.rmtree(STAGE, ignore_errors=True)
    STAGE.mkdir(parents=True)
    with tarfile.open(npm_tarball("pyodide", PYODIDE_VERSION)) as tar:
        for name in [*RUNTIME, "pyodide-lock.json"]:  # this lock only until ours replaces it below
            (STAGE / name).write_bytes(tar.extractfile(f"package/{name}").read())
    upstream = json.loads((STAGE / "pyodide-lock.json").read_text())
    config = json.loads((LITE / "jupyter-lite.json").read_text())["jupyter-config-data"]
    seeds = config["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]["loadPyodideOptions"]["packages"]
    wheels = lock.resolve(seeds, upstream, [agentloop_wheel(), *KERNEL_WHEELS.glob("*.whl")], CACHE / "wheels")
    wheels = precompiled(wheels)
    lock.check_platforms(list(wheels.values()), upstream["info"])
    for path in wheels.values():
        shutil.copy2(path, STAGE / path.name)
    (STAGE / "pyodide-lock.json").write_text(json.dumps(lock.write_lock(wheels, upstream["info"]), indent=1))
    print(f"  staged Pyodide {PYODIDE_VERSION} and {len(wheels)} wheels: {', '.join(sorted(wheels))}")
    shutil.copy2(LITE / "boot.mjs", STAGE / "boot.mjs")
    stage_brotli()
    run("node", LITE / "snapshot.mjs", STAGE, echo=True)


def check_contents(site: Path) -> None:
    """The site ships exactly the course's files under lessons/, none that git ignores (run leftovers)."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "lessons"], cwd=ROOT, capture_output=True, text=True)
    if listed.returncode:
        return  # not a git checkout: nothing to compare with
    want = {line.removeprefix("lessons/") for line in listed.stdout.splitlines()}
    have = {p.relative_to(site / "files").as_posix() for p in (site / "files").rglob("*") if p.is_file()}
    if want != have:
        sys.exit(f"lite/build.py: the site's files differ from lessons/ less what git ignores: shipped but "
                 f"ignored {sorted(have - want)}, missing {sorted(want - have)}; see extra_ignore_contents")


def forget_tasks() -> None:
    for db in ROOT.glob(".jupyterlite.doit.db*"):
        db.unlink()


def build_site(site: Path) -> None:
    """`jupyter lite build` into `site` (always a clean build: no stale lesson survives), then checked."""
    # Run from the root so jupyter_lite_config.json is found. Its task database would skip work
    # remembered from an earlier (perhaps interrupted) build, so it lives only for this build.
    forget_tasks()
    try:
        run(sys.executable, "-m", "jupyterlite_core", "build", "--output-dir", site, cwd=ROOT)
    finally:
        forget_tasks()
    check_contents(site)
    home.write(site)  # the site's address opens the course's home page, not a redirect to the file list
    for font in (site / "build").glob("fa-*"):  # Font Awesome in old formats: every browser takes woff2
        if font.suffix != ".woff2":
            font.unlink()
    config = json.loads((site / "jupyter-lite.json").read_text())
    kernel = config["jupyter-config-data"]["litePluginSettings"]["@jupyterlite/pyodide-kernel-extension:kernel"]
    if kernel.get("pyodideUrl") != "./static/pyodide/pyodide.mjs":
        sys.exit("lite/build.py: the built site does not point the kernel at the local Pyodide")
    kernel["pyodideUrl"] = "./static/pyodide/boot.mjs"  # the same loadPyodide, from the snapshot when it can
    (site / "jupyter-lite.json").write_text(json.dumps(config, indent=2))


def swap_in(new: Path, out: Path) -> None:
    """Replace `out` by `new` with two renames, so `out` is never a half-written site."""
    old = out.with_name(out.name + ".old")
    shutil.rmtree(old, ignore_errors=True)
    if out.exists():
        out.rename(old)
    new.rename(out)
    shutil.rmtree(old, ignore_errors=True)


def main(out: Path = OUT) -> None:
    inputs = digest(ROOT / "lessons", ROOT / "src", LITE, ROOT / "jupyter_lite_config.json",
                    ROOT / "pyproject.toml", ROOT / "requirements.txt", ROOT / "README.md")
    stamp = ".build-inputs"
    if "--force" not in sys.argv and (out / stamp).exists() and (out / stamp).read_text() == inputs:
        print(f"site up to date: {out}")
        return
    start = time.time()
    stage_pyodide()
    # Built next to the site and swapped in only when complete: a failed build leaves the last good
    # site serving (and the failed one is removed).
    new = out.with_name(out.name + ".new")
    shutil.rmtree(new, ignore_errors=True)
    try:
        build_site(new)
        offline.add(new)  # after every other step: it lists (and the browser keeps) every file built
        (new / stamp).write_text(inputs)
        swap_in(new, out)
    finally:
        shutil.rmtree(new, ignore_errors=True)
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    print(f"built {out} in {time.time() - start:.0f} s: {size / 1e6:.1f} MB")

if __name__ == "__main__":
    main()
