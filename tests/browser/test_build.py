"""The site build itself (no browser): the wheels it ships, the files its service worker keeps, and a
failed build never breaks the site."""
import hashlib
import json
import shutil
import tarfile
from pathlib import Path

import build
import lock
import offline
import pytest

WHEELS = build.CACHE / "wheels"


def pyodide_info() -> dict:
    """The `info` of the lock inside the pinned Pyodide package (what the build reads)."""
    with tarfile.open(build.npm_tarball("pyodide", build.PYODIDE_VERSION)) as tar:
        return json.load(tar.extractfile("package/pyodide-lock.json"))["info"]


def test_markers_come_from_pyodides_lock():
    info = pyodide_info()
    env = lock.pyodide_env(info)
    assert env["python_full_version"] == info["python"]
    assert info["python"].startswith(env["python_version"] + ".")
    assert env["sys_platform"] == "emscripten" and env["platform_machine"] == info["arch"]
    # Another Pyodide's lock gives other markers: nothing is hard-coded.
    assert lock.pyodide_env({**info, "python": "3.13.2"})["python_version"] == "3.13"


def test_pure_and_pyodide_wheels_pass(tmp_path):
    info = pyodide_info()
    wheels = [tmp_path / "pure-1.0-py3-none-any.whl", tmp_path / "old-1.0-py2.py3-none-any.whl",
              tmp_path / f"fast-1.0-cp314-cp314-pyodide_{info['abi_version']}_{info['arch']}.whl"]
    lock.check_platforms(wheels, info)  # no SystemExit


@pytest.mark.parametrize("name", ["fast-1.0-cp314-cp314-manylinux_2_17_x86_64.manylinux2014_x86_64.whl",
                                  "fast-1.0-cp314-cp314-win_amd64.whl",
                                  "fast-1.0-cp314-cp314-pyodide_2024_0_wasm32.whl",  # another Pyodide's ABI
                                  "fast-1.0-py3-abi3-macosx_11_0_arm64.whl"])
def test_a_wheel_for_another_platform_is_a_build_error(tmp_path, name):
    info = pyodide_info()
    with pytest.raises(SystemExit) as error:
        lock.check_platforms([tmp_path / "pure-1.0-py3-none-any.whl", tmp_path / name], info)
    assert name in str(error.value) and "pure-1.0" not in str(error.value)


def test_every_wheel_the_site_ships_is_pure_or_for_pyodide(site):
    shipped = sorted((site / "static" / "pyodide").glob("*.whl"))
    assert len(shipped) > 10, shipped
    lock.check_platforms(shipped, json.loads((site / "static" / "pyodide" / "pyodide-lock.json").read_text())["info"])


def test_a_failed_build_leaves_the_last_good_site(tmp_path, monkeypatch):
    out = tmp_path / "_output"
    out.mkdir()
    (out / "index.html").write_text("the last good site")
    (out / ".build-inputs").write_text("older inputs")
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*")}
    monkeypatch.setattr(build, "stage_pyodide", lambda: None)

    def half_then_fail(*cmd, **kw):  # `jupyter lite build` writes part of a site, then fails
        site = Path(cmd[cmd.index("--output-dir") + 1])
        site.mkdir(parents=True)
        (site / "index.html").write_text("half a site")
        raise SystemExit("lite/build.py: failed: jupyter lite build")
    monkeypatch.setattr(build, "run", half_then_fail)
    with pytest.raises(SystemExit):
        build.main(out)
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*")} == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["_output"]  # no half-built folder left behind


def test_a_good_build_replaces_the_site(tmp_path):
    out, new = tmp_path / "_output", tmp_path / "_output.new"
    out.mkdir()
    (out / "stale.html").write_text("old")
    new.mkdir()
    (new / "index.html").write_text("new")
    build.swap_in(new, out)
    assert [p.name for p in out.iterdir()] == ["index.html"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["_output"]


def test_the_service_worker_keeps_every_file_of_the_site(site, tmp_path):
    worker = (site / offline.SERVICE_WORKER).read_text()
    kept = offline.manifest(site)
    first, rest = worker.split("\n", 1)
    # The manifest and a hash of the rest of the script, build and script first: a navigation reads them
    # from the server's copy to tell a new build (lite/offline.js, newerBuild).
    assert first.startswith(f'const COURSE = {{"build": "{kept["build"]}", "script": "')
    course = json.loads(first.removeprefix("const COURSE = ").removesuffix(";"))
    assert course == {**kept, "script": hashlib.sha256(rest.encode()).hexdigest()[:16]}
    built = {p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()}
    assert set(kept["files"]) == built - {offline.SERVICE_WORKER, ".build-inputs", "static/pyodide/pyodide.asm.wasm.gz"}
    copy = shutil.copytree(site, tmp_path / "site")
    offline.add(copy)  # the same files again: the same worker, JupyterLite's part once
    assert (copy / offline.SERVICE_WORKER).read_text() == worker
