"""The browser tier: the built site, served from 127.0.0.1 under /course/, in headless Chromium.

One browser for the session; each test gets a fresh context (empty browser storage, no restored
tabs) whose every request is logged, and any request to another host is aborted and reported.
"""
import os
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "lite"))
import build  # noqa: E402
import serve  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
from lab import Lab  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="session")
def site() -> Path:
    """The built site (built now if missing or out of date: a no-op after `make site`)."""
    build.main()
    return build.OUT


@pytest.fixture(scope="session")
def site_url(site) -> str:
    server, url = serve.start(site, prefix="/course/")  # a sub-path, as on a teacher's static host
    yield url
    server.shutdown()


@pytest.fixture(scope="session")
def browser():
    if not Path(CHROMIUM).exists():
        message = "no Chromium: apt-get install chromium (the browser tests use Debian's build)"
        pytest.fail(message) if os.environ.get("CI") else pytest.skip(message)
    from playwright.sync_api import sync_playwright
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, timeout=60_000)
        yield chromium
        chromium.close()


@pytest.fixture
def new_lab(browser, site_url):
    """Open the site in a fresh browser context: `new_lab()` or `new_lab(other_url)`."""
    labs = []

    def open_lab(url: str = site_url) -> Lab:
        labs.append(Lab(browser, url))
        return labs[-1]
    yield open_lab
    for lab in labs:
        lab.close()


@pytest.fixture
def lab(new_lab) -> Lab:
    return new_lab()


@pytest.fixture
def served_copy(site, tmp_path) -> tuple[Path, str, serve.Server]:
    """A private copy of the site, served on its own origin, that a test may change or stop serving."""
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    server, url = serve.start(copy, prefix="/course/")
    yield copy, url, server
    server.shutdown()
    server.server_close()


@pytest.fixture
def site_copy(served_copy) -> tuple[Path, str]:
    return served_copy[:2]
