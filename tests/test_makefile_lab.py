"""`make lab` starts Jupyter as root too (a container, a cloud workspace), with a one-line warning."""
import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def dry_run_lab(tmp_path, uid: int) -> list:
    fake = tmp_path / "bin"  # an `id` that answers as the user we want to be
    fake.mkdir()
    (fake / "id").write_text(f"#!/bin/sh\necho {uid}\n")
    (fake / "id").chmod(0o755)
    env = {**os.environ, "PATH": f"{fake}{os.pathsep}{os.environ['PATH']}"}
    result = subprocess.run(["make", "-n", "lab"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=30)
    assert result.returncode == 0, result.stderr
    return [line for line in result.stdout.splitlines() if "jupyter lab" in line or "Warning" in line]


@pytest.mark.skipif(shutil.which("make") is None, reason="needs make")
@pytest.mark.parametrize("uid", [0, 1000])
def test_make_lab_adds_allow_root_only_for_root(tmp_path, uid):
    lines = dry_run_lab(tmp_path, uid)
    start = [line for line in lines if "jupyter lab" in line]
    assert len(start) == 1 and "--notebook-dir=lessons" in start[0]
    assert ("--allow-root" in start[0]) == (uid == 0)
    warnings = [line for line in lines if "Warning" in line]
    assert len(warnings) == (1 if uid == 0 else 0)
