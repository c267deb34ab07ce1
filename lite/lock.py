"""Choose the wheels the browser kernel needs and write a pyodide-lock.json for exactly them.

Pyodide's own lock lists ~350 packages whose wheels live only on its CDN. We ship a closure:
start from the packages the kernel preloads (jupyter-lite.json), follow each wheel's own
Requires-Dist (markers evaluated as Pyodide would), and take every version from, in order:
our local wheels (agentloop, the kernel extension's bundled wheels), the widget packages
installed here (they must match the widget front end in the build), Pyodide's lock, or EXTRA.
Anything else is an error: the site would hang in the browser, so the build fails instead.
"""
import email.parser
import hashlib
import subprocess
import sys
import zipfile
from importlib.metadata import version as installed_version
from pathlib import Path

from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name, parse_wheel_filename

# Must match the widget front end (@jupyter-widgets/jupyterlab-manager) this build ships.
FROM_BUILD_ENV = ["comm", "ipywidgets", "jupyterlab-widgets"]
# Needed by a shipped wheel but absent from Pyodide's lock: pinned here.
EXTRA = {"ipython-pygments-lexers": "1.1.1"}


def pyodide_env(info: dict) -> dict:
    """The environment markers of the Pyodide whose lock `info` is given (its Python, on wasm32)."""
    return {**default_environment(), "sys_platform": "emscripten", "platform_system": "Emscripten",
            "platform_machine": info["arch"], "os_name": "posix", "python_version": python_version(info),
            "python_full_version": info["python"], "implementation_name": "cpython",
            "platform_python_implementation": "CPython", "extra": ""}


def python_version(info: dict) -> str:
    return ".".join(info["python"].split(".")[:2])


def check_platforms(wheels: list[Path], info: dict) -> None:
    """Every wheel is pure Python or built for this Pyodide: anything else would fail in the browser."""
    ours = {f"pyodide_{info['abi_version']}_{info['arch']}", f"{info['platform']}_{info['arch']}"}
    wrong = [path.name for path in wheels
             if not all((tag.abi == "none" and tag.platform == "any") or tag.platform in ours
                        for tag in parse_wheel_filename(path.name)[3])]
    if wrong:
        sys.exit(f"lite/lock.py: not pure Python and not built for Pyodide ({' or '.join(sorted(ours))}): "
                 f"{', '.join(wrong)}")


def wheel_info(path: Path, env: dict) -> tuple[list[Requirement], list[str]]:
    """The wheel's runtime requirements in `env` (Pyodide's markers), and its top-level import names."""
    with zipfile.ZipFile(path) as wheel:
        names = wheel.namelist()
        meta = next(n for n in names if n.endswith(".dist-info/METADATA"))
        headers = email.parser.Parser().parsestr(wheel.read(meta).decode())
    reqs = [Requirement(r) for r in headers.get_all("Requires-Dist") or []]
    reqs = [r for r in reqs if not r.marker or r.marker.evaluate(env)]
    tops = {n.split("/")[0].removesuffix(".py") for n in names if not n.split("/")[0].endswith((".dist-info", ".data"))}
    return reqs, sorted(t for t in tops if t.isidentifier())


def resolve(seeds: list[str], upstream: dict, local: list[Path], cache: Path) -> dict[str, Path]:
    """Every wheel needed by `seeds`, as {canonical name: wheel path}; downloads what is missing.
    `upstream` is Pyodide's whole lock: its `info` says which Python and platform to resolve for."""
    info, env = upstream["info"], pyodide_env(upstream["info"])
    local_by_name = {}
    for path in sorted(local, key=lambda p: parse_wheel_filename(p.name)[1]):
        local_by_name[canonicalize_name(parse_wheel_filename(path.name)[0])] = path  # highest wins
    versions = {canonicalize_name(k): v["version"] for k, v in upstream["packages"].items()}
    versions |= EXTRA | {name: installed_version(name) for name in FROM_BUILD_ENV}
    chosen: dict[str, Path] = {}
    wanted = [canonicalize_name(s) for s in seeds]
    while wanted:
        missing = [n for n in wanted if n not in local_by_name and n not in versions]
        if missing:
            sys.exit(f"lite/lock.py: no wheel source for {missing} (add a pin to EXTRA)")
        paths = {n: local_by_name.get(n) or cached_wheel(cache, n, versions[n]) for n in wanted}
        download(cache, [f"{n}=={versions[n]}" for n, p in paths.items() if p is None], python_version(info))
        nxt = []
        for name in wanted:
            chosen[name] = path = paths[name] or cached_wheel(cache, name, versions[name])
            if path is None:
                sys.exit(f"lite/lock.py: pip did not fetch {name}=={versions[name]}")
            for req in wheel_info(path, env)[0]:
                dep = canonicalize_name(req.name)
                if dep not in chosen and dep not in wanted and dep not in nxt:
                    nxt.append(dep)
        wanted = nxt
    for name, path in chosen.items():  # every shipped version must satisfy every requirement
        for req in wheel_info(path, env)[0]:
            have = str(parse_wheel_filename(chosen[canonicalize_name(req.name)].name)[1])
            if not req.specifier.contains(have, prereleases=True):
                sys.exit(f"lite/lock.py: {name} needs {req}, but the site ships {have}")
    return chosen


def cached_wheel(cache: Path, name: str, version: str) -> Path | None:
    for path in cache.glob("*.whl"):
        wname, wversion, *_ = parse_wheel_filename(path.name)
        if canonicalize_name(wname) == name and str(wversion) == version:
            return path
    return None


def download(cache: Path, specs: list[str], python: str) -> None:
    if specs:
        print(f"  downloading {len(specs)} wheels from PyPI: {' '.join(specs)}")
        done = subprocess.run([sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
                               "--python-version", python, "-d", str(cache), *specs], capture_output=True, text=True)
        if done.returncode:
            sys.exit(f"{done.stdout}{done.stderr}\nlite/lock.py: pip could not download {' '.join(specs)}")


def write_lock(chosen: dict[str, Path], upstream_info: dict) -> dict:
    """The lock for exactly the shipped wheels (file names relative to the lock itself)."""
    packages = {}
    for name, path in sorted(chosen.items()):
        reqs, imports = wheel_info(path, pyodide_env(upstream_info))
        packages[name] = {
            "name": name, "version": str(parse_wheel_filename(path.name)[1]), "file_name": path.name,
            "install_dir": "site", "package_type": "package", "imports": imports,
            "depends": sorted({canonicalize_name(r.name) for r in reqs}),
            "sha256": hashlib.sha256(path.read_bytes()).hexdigest(), "unvendored_tests": False}
    return {"info": upstream_info, "packages": packages}
