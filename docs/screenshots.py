"""The README's pictures, as a student sees them: `python docs/screenshots.py` (builds the site if needed).

docs/img/home.png: the course's home page after the student passed lesson 1's exercises.
docs/img/trace.png: lesson 6's trace view, at its second model call (the memory just injected).
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "lite"), str(ROOT / "tests" / "browser")]
import build  # noqa: E402
import serve  # noqa: E402
from conftest import ARGS, CHROMIUM  # noqa: E402
from lab import Lab  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402
from test_home import PASS  # noqa: E402

IMAGES = ROOT / "docs" / "img"


def main() -> None:
    build.main()
    server, url = serve.start(build.OUT, prefix="/course/")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        lab = Lab(browser, url)
        lab.page.set_viewport_size({"width": 1100, "height": 1000})
        lab.visit("01_agent_function.ipynb")
        lab.kernel_run(PASS)
        lab.page.goto(url)
        lab.page.wait_for_function("document.querySelector('#overall').textContent.includes(' of ')")
        lab.page.screenshot(path=IMAGES / "home.png")

        lab.visit("06_memory_across_runs.ipynb")
        lab.run_all("06_memory_across_runs.ipynb")
        lab.page.get_by_role("button", name="Next ▶").click()
        lab.page.wait_for_selector(".al-trace section[aria-current=step][data-step='2']")
        view = lab.page.locator(".jp-OutputArea-output", has=lab.page.locator(".al-trace")).first
        view.scroll_into_view_if_needed()
        view.screenshot(path=IMAGES / "trace.png")
        assert not lab.outside(), lab.outside()
        lab.close()
        browser.close()
    server.shutdown()
    print(f"wrote {IMAGES / 'home.png'} and {IMAGES / 'trace.png'}")


if __name__ == "__main__":
    main()
