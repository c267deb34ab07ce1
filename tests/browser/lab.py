"""`Lab`: JupyterLab (the built site) in one fresh browser context, driven the way a student would.

Everything goes through JupyterLab's own commands and services (`window.jupyterapp`, exposed by
lite/jupyter-lite.json), and every wait has a time limit, so a broken site fails, never hangs.
"""
import json
from urllib.parse import urlparse

KERNELSPEC = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}


def leaves_machine(url: str) -> bool:
    """True for a request that would go to another host (data: and blob: URLs stay in the page)."""
    parts = urlparse(url)
    return parts.scheme not in ("data", "blob", "about") and parts.hostname != "127.0.0.1"


def text(value) -> str:
    return "".join(value) if isinstance(value, list) else value


class Lab:
    def __init__(self, browser, url: str):
        self.url, self.requests, self.blocked, self.errors = url, [], [], []
        self.context = browser.new_context()
        self.context.on("request", lambda request: self.requests.append(request.url))
        # Anything for another host is recorded and aborted: the test reports it, nothing is sent.
        self.context.route(leaves_machine, lambda route: (self.blocked.append(route.request.url), route.abort()))
        self.page = self.context.new_page()
        self.page.set_default_timeout(60_000)
        self.page.on("websocket", lambda socket: self.requests.append(socket.url))
        self.page.on("console", lambda message: message.type == "error" and self.errors.append(message.text))
        self.page.on("pageerror", lambda error: self.errors.append(str(error)))
        self.start()

    def start(self) -> None:
        self.page.goto(self.url + "lab/index.html")
        self.page.wait_for_function("window.jupyterapp")
        self.js("await app.restored")

    def visit(self, path: str = "", app: str = "notebooks") -> None:
        """Open the site as a link does (`notebooks/index.html?path=...`, the course's links), in this tab:
        a new page, same browser storage. `app="tree"` is the lesson list, `app="lab"` JupyterLab."""
        self.page.goto(self.url + f"{app}/index.html" + (f"?path={path}" if path else ""))
        self.page.wait_for_function("window.jupyterapp")
        self.js("await app.restored")
        if path:
            # Shown, and its session settled (the kernel's name in the toolbar): a run before that is lost.
            self.js("""while (app.shell.currentWidget?.context?.path !== arg) await sleep(50);
                await app.shell.currentWidget.sessionContext.ready;""", path)

    def kernels(self) -> int:
        """How many kernels are running in this page."""
        return self.js("await app.serviceManager.kernels.refreshRunning(); return [...app.serviceManager.kernels.running()].length")

    def reload(self) -> None:
        self.page.reload()
        self.page.wait_for_function("window.jupyterapp")
        self.js("await app.restored")

    def js(self, body: str, arg=None, timeout: float = 60):
        """Run async JavaScript with `app` and `arg` in scope; raise after `timeout` seconds."""
        return self.page.evaluate("""async ([body, arg, ms]) => {
            const app = window.jupyterapp, sleep = t => new Promise(ok => setTimeout(ok, t));
            const work = new Function('app', 'arg', 'sleep', `return (async () => { ${body} })()`);
            const late = new Promise((_, no) => setTimeout(() => no(new Error(`timed out after ${ms / 1000} s`)), ms));
            return await Promise.race([work(app, arg, sleep), late]);
        }""", [body, arg, timeout * 1000])

    def open(self, path: str) -> None:
        """Open a notebook and make it the current tab, its kernel started (no dialog in the way)."""
        self.js("""const panel = await app.commands.execute('docmanager:open', {path: arg});
            let ready = false;
            Promise.all([panel.context.ready, panel.sessionContext.ready]).then(() => ready = true);
            while (!ready) {
                const dialog = document.querySelector('.jp-Dialog');
                if (dialog) throw new Error(`a dialog interrupts: ${dialog.innerText.replace(/\\s+/g, ' ')}`);
                await sleep(50);
            }
            if (!panel.sessionContext.session?.kernel) await panel.sessionContext.startKernel();  // a restored tab
            app.shell.activateById(panel.id);
            while (app.shell.currentWidget !== panel) await sleep(50);""", path)

    def run_all(self, path: str, timeout: float = 180) -> dict:
        """Run All in the open notebook `path`, wait for the kernel to be idle; the notebook's JSON."""
        return self.js("""const panel = app.shell.currentWidget;
            if (panel?.context?.path !== arg) throw new Error(`the current tab is ${panel?.context?.path}, not ${arg}`);
            await app.commands.execute('notebook:run-all-cells');
            const status = () => panel.sessionContext.session?.kernel?.status;
            while (status() !== 'idle') { if (status() === 'dead') throw new Error('the kernel died'); await sleep(100); }
            return panel.context.model.toJSON();""", path, timeout)

    def kernel_run(self, code: str, timeout: float = 60) -> str:
        """Run code in the current notebook's kernel (not in a cell); its stdout, or raise its error."""
        return self.js("""const kernel = app.shell.currentWidget.sessionContext.session.kernel;
            const future = kernel.requestExecute({code: arg, store_history: false});
            let out = '', error = null;
            future.onIOPub = msg => {
                if (msg.header.msg_type === 'stream') out += msg.content.text;
                if (msg.header.msg_type === 'error') error = `${msg.content.ename}: ${msg.content.evalue}`;
            };
            await future.done;
            if (error) throw new Error(error);
            return out;""", code, timeout)

    def scratch(self, path: str, sources: list[str], timeout: float = 180) -> dict:
        """Write a notebook with these code cells into browser storage, open it, Run All."""
        cells = [{"cell_type": "code", "source": s, "metadata": {}, "outputs": [], "execution_count": None}
                 for s in sources]
        notebook = {"cells": cells, "metadata": {"kernelspec": KERNELSPEC}, "nbformat": 4, "nbformat_minor": 5}
        self.save(path, notebook)
        self.open(path)
        return self.run_all(path, timeout)

    def save(self, path: str, notebook: dict) -> None:
        self.js("await app.serviceManager.contents.save(arg[0], {type: 'notebook', format: 'json', content: arg[1]})",
                [path, notebook])

    def read(self, path: str) -> dict:
        """A notebook as the student would get it: the stored copy if any, else the course's."""
        return self.js("return (await app.serviceManager.contents.get(arg, {content: true})).content", path)

    def files_survive_reload(self, names, folder: str = "") -> tuple[dict, dict]:
        """Read files in the current kernel; reload the page; read them in a new kernel. Both reads."""
        code = f"import json\nprint(json.dumps({{n: open(n, errors='replace').read() for n in {sorted(names)!r}}}))"
        before = json.loads(self.kernel_run(code))
        self.js("""const documents = () => [...app.shell.widgets('main')].filter(w => w.context);
            for (const w of documents()) { w.context.model.dirty = false; w.close(); }
            while (documents().length) await sleep(50);
            await sleep(1000);""")  # so the reload restores no notebook (and starts no second kernel)
        self.reload()
        cell = self.scratch(f"{folder}/reload-check.ipynb".lstrip("/"), [code])["cells"][0]
        shown = "".join(text(out.get("text", out.get("evalue", ""))) for out in cell["outputs"])
        try:
            return before, json.loads(shown)
        except ValueError:
            return before, {"the new kernel said": shown}

    def outside(self) -> list[str]:
        return sorted({url for url in self.requests + self.blocked if leaves_machine(url)})

    def off_prefix(self) -> list[str]:
        """Local requests outside the site's sub-path: the browser's own /favicon.ico aside, and JupyterLite's
        service-worker heartbeat (every 20 s, to an absolute path its own service worker answers)."""
        return sorted({u for u in self.requests if not leaves_machine(u) and urlparse(u).scheme.startswith("http")
                       and not u.startswith(self.url)
                       and urlparse(u).path not in ("/favicon.ico", "/api/service-worker-heartbeat")})

    def diagnostics(self) -> str:
        return "browser console errors:\n  " + "\n  ".join(self.errors[-8:]) if self.errors else "no console errors"

    def close(self) -> None:
        self.context.close()
