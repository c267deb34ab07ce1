"""The site kept by the browser after a first visit: JupyterLite's service worker, given offline.js
and the list of every file of the build (with a hash of each), so it keeps them all in one cache."""
import hashlib
import json
from pathlib import Path

SERVICE_WORKER = "service-worker.js"  # JupyterLite's, at the site's root: its scope is the whole site
SCRIPT = Path(__file__).with_name("offline.js")
END = "/* end of the course's offline cache; JupyterLite's service worker follows */\n"
NOT_KEPT = {SERVICE_WORKER, ".build-inputs"}  # the browser keeps the worker itself; the build's stamp


def manifest(site: Path) -> dict:
    """{"build": an id of this build's files, "files": {path from the site's root: its hash}}."""
    files = {path.relative_to(site).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()[:16]
             for path in sorted(site.rglob("*")) if path.is_file() and path.name not in NOT_KEPT}
    return {"build": hashlib.sha256(json.dumps(files).encode()).hexdigest()[:16], "files": files}


def add(site: Path) -> dict:
    """Put the offline cache in front of JupyterLite's service worker; a new build changes its bytes,
    so the browser installs it (again: it replaces an earlier one). Returns the manifest."""
    worker = site / SERVICE_WORKER
    jupyterlite = worker.read_text().split(END)[-1]
    kept = manifest(site)
    worker.write_text(f"const COURSE = {json.dumps(kept)};\n{SCRIPT.read_text()}{END}{jupyterlite}")
    return kept
