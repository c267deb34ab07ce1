"""The site kept by the browser after a first visit: JupyterLite's service worker, given offline.js
and the list of every file of the build (with a hash of each), so it keeps them all in one cache."""
import gzip
import hashlib
import json
from pathlib import Path

SERVICE_WORKER = "service-worker.js"  # JupyterLite's, at the site's root: its scope is the whole site
SCRIPT = Path(__file__).with_name("offline.js")
END = "/* end of the course's offline cache; JupyterLite's service worker follows */\n"
NOT_KEPT = {SERVICE_WORKER, ".build-inputs"}  # the browser keeps the worker itself; the build's stamp
# Binary files static hosts send as they are: the worker fetches a gzipped copy (a third of the wasm).
PACKED = ["static/pyodide/pyodide.asm.wasm"]


def manifest(site: Path) -> dict:
    """{"build": an id of this build's files, "files": {path from the site's root: its hash}, "packed"}."""
    skipped = NOT_KEPT | {f"{path}.gz" for path in PACKED}  # a gzipped copy is a way to fetch a file
    paths = {p.relative_to(site).as_posix(): p for p in sorted(site.rglob("*")) if p.is_file()}
    files = {path: hashlib.sha256(p.read_bytes()).hexdigest()[:16] for path, p in paths.items() if path not in skipped}
    return {"build": hashlib.sha256(json.dumps(files).encode()).hexdigest()[:16], "files": files, "packed": PACKED}


def add(site: Path) -> dict:
    """Put the offline cache in front of JupyterLite's service worker (and write the gzipped copies); a
    new build changes its bytes, so the browser installs it (again: it replaces an earlier one).
    Returns the manifest."""
    for path in PACKED:
        (site / f"{path}.gz").write_bytes(gzip.compress((site / path).read_bytes(), 9, mtime=0))
    worker = site / SERVICE_WORKER
    jupyterlite = worker.read_text().split(END)[-1]
    kept = manifest(site)
    script = f"{SCRIPT.read_text()}{END}{jupyterlite}"
    # The build's files, and the rest of this script: a navigation compares both with the server's (offline.js).
    course = {"build": kept["build"], "script": hashlib.sha256(script.encode()).hexdigest()[:16], **kept}
    worker.write_text(f"const COURSE = {json.dumps(course)};\n{script}")
    return kept
