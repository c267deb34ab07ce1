// The kernel's worker as the lesson page starts it, before the app (lite/early.js): JupyterLite's own
// worker script, unchanged, and Python restored from its snapshot at once. The kernel, when the app
// creates it, takes this worker and its Python (boot.mjs). The build fills in the two names below.
import "../../extensions/@jupyterlite/pyodide-kernel-extension/static/COMLINK_WORKER";
import { startEarly } from "./boot.mjs";

startEarly({ indexURL: new URL("./", import.meta.url).href, ...LOAD_PYODIDE_OPTIONS });
