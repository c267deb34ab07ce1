"""The trace view in the browser site: lesson 5's run drawn as it happened (one box per model call
and per tool call, in order, with their token counts, read from the page), stepped by keyboard and
played, the JSON folded until asked for; nothing fetched from another host."""
import json
from pathlib import Path

LESSON = Path(__file__).resolve().parents[2] / "lessons" / "05_state_and_tracing.ipynb"
RESPONSES = """import json, agentloop
print(json.dumps([[e.payload["usage"]["prompt_tokens"], e.payload["usage"]["completion_tokens"],
                   [c["function"]["name"] for c in e.payload["choices"][0]["message"].get("tool_calls") or []]]
                  for e in agentloop.trace.events if e.kind == "response"]))"""
DRAWN = r"""[...document.querySelectorAll('.al-trace .al-call, .al-trace .al-tool')].map(box =>
    box.classList.contains('al-call') ? ['call', +box.dataset.in, +box.dataset.out, +box.innerText.match(/model call (\d+)/)[1]]
                                      : ['tool', box.dataset.name])"""
CURRENT = "document.querySelector('.al-trace section[aria-current=step]')?.dataset.step"


def lesson_5_up_to_its_trace() -> list[str]:
    """Lesson 5's code cells up to the one that shows the trace, as a student runs them."""
    sources = [c["source"] if isinstance(c["source"], str) else "".join(c["source"])
               for c in json.loads(LESSON.read_text())["cells"] if c["cell_type"] == "code"]
    return sources[:sources.index("agentloop.show_trace()") + 1]


def test_lesson_5s_run_is_drawn_call_by_call_and_steps_by_keyboard(lab):
    cells = lab.scratch("trace-view.ipynb", lesson_5_up_to_its_trace() + [RESPONSES])["cells"]
    responses = json.loads("".join(cells[-1]["outputs"][0]["text"]))
    page = lab.page
    page.locator(".al-trace .al-call").first.wait_for()

    expected = [box for n, (tokens_in, tokens_out, tools) in enumerate(responses, 1)
                for box in [["call", tokens_in, tokens_out, n]] + [["tool", name] for name in tools]]
    assert page.evaluate(DRAWN) == expected  # each tool call after the model call that asked for it
    assert len(responses) >= 3 and sum(len(tools) for *_, tools in responses) >= 2

    assert page.evaluate(CURRENT) == "1"
    page.get_by_role("button", name="Next ▶").focus()
    page.keyboard.press("Enter")  # a button takes Enter, as it takes a click
    page.wait_for_function(f"{CURRENT} === '2'")
    handle = page.locator(".widget-slider .noUi-handle")
    handle.focus()
    page.keyboard.press("ArrowRight")  # the slider's own keys
    page.wait_for_function(f"{CURRENT} === '3'")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"{CURRENT} === '2'")
    assert "What the request added since model call 1" in page.locator(".al-detail").inner_text()

    folded = page.locator(".al-detail details")
    assert not folded.evaluate("d => d.open") and not folded.locator("pre").is_visible()
    folded.locator("summary").focus()
    page.keyboard.press("Enter")  # one key (or click) away
    assert folded.evaluate("d => d.open") and '"usage"' in folded.locator("pre").inner_text()
    page.get_by_role("button", name="◀ Previous").click()
    page.wait_for_function(f"{CURRENT} === '1'")
    page.locator(".widget-play button").first.click()  # Play: through every call to the last
    page.wait_for_function(f"{CURRENT} === '{len(responses)}'", timeout=30_000)
    assert not lab.outside(), f"requests left the machine: {lab.outside()}"
