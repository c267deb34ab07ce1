"""Connect to a model: a small form for the base URL, the model and the API key, with presets.

    agentloop.connect()

Pick a provider (or type a URL), paste a key, press "Test connection": it sends two tiny
requests and shows the model's answer, or the exact problem (the named error's message).
"Use" switches `ask()` to that model without a test.

The key: it is read from the password field when a button is pressed and the field is emptied
at once, so it lives only in this kernel's memory (in `agentloop.backend()`). It is never
printed, never written to a file, and never part of an output or of the widget's saved state.
A restarted kernel has forgotten it.
"""
import html
import time
from dataclasses import dataclass

from . import errors, llm


@dataclass(frozen=True)
class Preset:
    base_url: str  # "" = the teaching model in this process
    model: str
    key: str       # where a key comes from, or "" if none is needed
    browser: str   # the caveat for the browser site (JupyterLite)
    headers: tuple = ()  # extra headers, as (name, value) pairs


LOCAL_NETWORK = ("Chrome 142+ asks whether this site may reach your local network (Local Network Access): "
                 "allow it, or the request fails as a network error.")
PRESETS = {
    "Teaching model (offline)": Preset("", "teaching-model", "",
                                       "Works everywhere: it runs inside the kernel, no network."),
    "OpenAI": Preset("https://api.openai.com/v1", "gpt-4o-mini", "platform.openai.com/api-keys",
                     "Works from the browser site: OpenAI allows cross-origin requests (CORS)."),
    "OpenRouter": Preset("https://openrouter.ai/api/v1", "openai/gpt-4o-mini", "openrouter.ai/keys",
                         "Works from the browser as long as only Authorization and Content-Type headers are "
                         "sent, which is all agentloop sends."),
    "Groq": Preset("https://api.groq.com/openai/v1", "llama-3.1-8b-instant", "console.groq.com/keys",
                   "Not checked by this course from the browser; if the test says network error, it is CORS: "
                   "use local Jupyter."),
    "Gemini (OpenAI-compatible)": Preset(
        "https://generativelanguage.googleapis.com/v1beta/openai", "gemini-2.5-flash", "aistudio.google.com/apikey",
        "Users have reported CORS errors from browsers on this endpoint; if the test says network error, "
        "use local Jupyter. The free tier's rate limits show up as 429s, which are retried."),
    "Anthropic (OpenAI-compatible)": Preset(
        "https://api.anthropic.com/v1", "claude-haiku-4-5", "console.anthropic.com/settings/keys",
        "From the browser Anthropic wants the header anthropic-dangerous-direct-browser-access: true (this "
        "preset sends it), and an organisation may switch browser access off.",
        (("anthropic-dangerous-direct-browser-access", "true"),)),
    "Ollama": Preset("http://localhost:11434/v1", "llama3.2", "",
                     "Ollama answers only pages from localhost: start it with OLLAMA_ORIGINS set to this "
                     "site's origin (e.g. OLLAMA_ORIGINS=http://127.0.0.1:8000 ollama serve). " + LOCAL_NETWORK),
    "LM Studio": Preset("http://localhost:1234/v1", "the id of the loaded model", "",
                        "Switch on CORS in LM Studio's server settings. " + LOCAL_NETWORK),
    "llama.cpp server": Preset("http://localhost:8080/v1", "any name (one model is loaded)", "",
                               "llama-server allows every origin by default. " + LOCAL_NETWORK),
    "vLLM": Preset("http://localhost:8000/v1", "the model you served", "",
                   "vLLM allows every origin by default (--allowed-origins). Port 8000 is also the course "
                   "site's: start one of them on another port. " + LOCAL_NETWORK),
    "Teaching model over HTTP": Preset("http://127.0.0.1:8080/v1", "teaching-model", "",
                                       "python -m agentloop serve allows every origin. " + LOCAL_NETWORK),
}
PRESET_HEADERS = {name for preset in PRESETS.values() for name, _ in preset.headers}
HELLO = [{"role": "user", "content": "Say hello in five words."}]
ADD = {"type": "function", "function": {"name": "add", "description": "Add two numbers.", "parameters": {
    "type": "object", "properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]}}}


class Connect:
    """The form. `connect()` displays one; tests drive it with `.test.click()`."""

    def __init__(self, preset: str = "Teaching model (offline)"):
        import ipywidgets as widgets  # here, so importing agentloop never needs ipywidgets
        wide = widgets.Layout(width="34em")
        self.preset = widgets.Dropdown(options=list(PRESETS), value=preset, description="provider", layout=wide)
        self.base_url = widgets.Text(description="base URL", placeholder="(in this process)", layout=wide)
        self.model = widgets.Text(description="model", layout=wide)
        self.key = widgets.Password(description="API key", placeholder="kept in this kernel's memory only",
                                    layout=wide)
        self.note = widgets.HTML()
        self.use = widgets.Button(description="Use", tooltip="ask() goes to this model from now on")
        self.test = widgets.Button(description="Test connection", button_style="primary",
                                   tooltip="send two tiny requests and show what came back")
        self.status = widgets.HTML()
        self.preset.observe(lambda _: self.choose(), names="value")
        self.use.on_click(lambda _: self.apply())
        self.test.on_click(lambda _: self.check())
        self.box = widgets.VBox([self.preset, self.base_url, self.model, self.key, self.note,
                                 widgets.HBox([self.use, self.test]), self.status])
        self.choose()

    def choose(self) -> None:
        chosen = PRESETS[self.preset.value]
        self.base_url.value, self.model.value = chosen.base_url, chosen.model
        where = f"Key from {chosen.key}. " if chosen.key else "No key needed. "
        self.note.value = f"<small>{html.escape(where)}In the browser: {html.escape(chosen.browser)}</small>"

    def apply(self) -> llm.Backend | None:
        """Switch ask() to the form's settings (None if refused); the key field is emptied whatever happens."""
        key, self.key.value = self.key.value.strip(), ""  # from here on, only the kernel holds it
        base_url = self.base_url.value.strip() or None
        before = llm.backend()
        if not key and base_url and before.base_url == base_url.rstrip("/"):
            key = before.api_key or ""  # pressed again without retyping: keep the key already set
        chosen = PRESETS.get(self.preset.value)
        # What was set earlier with use() stays (timeout, retries, options, headers), except another
        # preset's headers: they belong to that provider.
        headers = {name: value for name, value in before.headers.items() if name not in PRESET_HEADERS}
        if chosen and chosen.base_url == (base_url or ""):
            headers.update(chosen.headers)
        try:
            backend = llm.use(base_url, key or None, self.model.value.strip() or None, timeout=before.timeout,
                              retries=before.retries, backoff=before.backoff, headers=headers, **before.options)
        except errors.LLMError as error:  # a key no header can carry: refused, and not shown
            self.show(f"❌ {error}")
            return None
        self.show(f"Using {backend.describe()}.")
        return backend

    def check(self) -> None:
        """Use the settings, then ask twice: a hello, and a question that needs a tool."""
        backend = self.apply()
        if backend is None:
            return
        started = time.monotonic()
        try:
            answer = llm.ask(HELLO)
            took = time.monotonic() - started
            reply = llm.ask([{"role": "user", "content": "What is 2 + 3? Use the add tool."}], tools=[ADD])
        except errors.LLMError as error:
            self.show(f"❌ {error}", backend)
            return
        except Exception as error:  # a bug, not a connection problem: say so, without the key
            self.show(f"❌ Unexpected {type(error).__name__}: {error}", backend)
            return
        calls = [f"{c['function']['name']}({c['function']['arguments']})" for c in reply.get("tool_calls") or []]
        tools = (f"✅ tools: it called {', '.join(calls)}" if calls else
                 "⚠️ tools: it answered in text instead of calling the tool; the lessons' loops need tool calls")
        self.show(f"✅ {backend.model} answered in {took:.1f} s: {(answer.get('content') or '').strip()!r}\n{tools}",
                  backend)

    def show(self, text: str, backend: llm.Backend | None = None) -> None:
        text = errors.redact(text, backend.api_key if backend else None)
        self.status.value = f'<pre style="white-space:pre-wrap; margin:0">{html.escape(text, quote=False)}</pre>'

    def summary(self) -> str:
        return f"connect: {self.preset.value} · model {self.model.value} · {llm.backend().describe()}"

    def _repr_mimebundle_(self, **kwargs):
        # text/plain is what a notebook shows where widgets cannot render (and what nbval compares)
        return {**(self.box._repr_mimebundle_(**kwargs) or {}), "text/plain": self.summary()}

    def __repr__(self):
        return self.summary()


def connect(preset: str = "Teaching model (offline)") -> None:
    """Show the connect form (in Jupyter; elsewhere, a line saying which model is in use)."""
    try:
        from IPython.display import display
        form = Connect(preset)
    except ImportError:  # no Jupyter, or no ipywidgets
        print(f"connect: {llm.backend().describe()} (the form needs Jupyter and ipywidgets; call use(...) instead)")
        return
    display(form)
