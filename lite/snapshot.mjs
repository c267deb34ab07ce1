// Takes the kernel's snapshot for the site: `node lite/snapshot.mjs STAGE` (lite/build.py runs it).
// Boots Pyodide from STAGE with the kernel's packages, keeps their installed files, imports what the
// kernel and the lessons import first, and writes Python's memory; then restores both as the browser
// will (STAGE/boot.mjs) and checks that the kernel and a lesson's first imports work. Failing exits 1.
import { readFileSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { brotliCompressSync, constants, gunzipSync } from "node:zlib";
const stage = process.argv[2];
const { loadPyodide, version } = await import(`${stage}/pyodide.mjs`);
const { restore, install, brotli, MANIFEST } = await import(`${stage}/boot.mjs`);
const unpack = brotli(await import(`${stage}/brotli_dec_wasm.js`), gunzipSync(readFileSync(`${stage}/brotli_dec_wasm_bg.wasm.gz`)));
const config = JSON.parse(readFileSync(new URL("./jupyter-lite.json", import.meta.url)));
const { packages } = config["jupyter-config-data"].litePluginSettings["@jupyterlite/pyodide-kernel-extension:kernel"].loadPyodideOptions;
const quiet = { stdout: () => {}, stderr: () => {}, messageCallback: () => {} };
// What the kernel's worker imports while it starts (piplite, pyodide_kernel), and what a lesson imports
// in its first cells; the rest of a package still imports on demand, from the reinstalled files.
// Pyodide puts "" first on sys.path as it starts, and again after a restore: it is taken out here.
const IMPORTS = `import piplite.piplite, pyodide_kernel, ipywidgets, agentloop, agentloop.trace_widget
import gc, sys
sys.path.remove("")
gc.collect()`;

// Pyodide installs the packages once, in an instance of its own, and their files are kept; a fresh
// instance gets them as the browser will (so its memory holds what Python made, not the unzipping).
const seconds = (start) => `${((performance.now() - start) / 1000).toFixed(1)} s`;
let start = performance.now();
const installer = await loadPyodide({ indexURL: `${stage}/`, packages, ...quiet });
const sitePackages = installer.runPython("import sysconfig; sysconfig.get_path('purelib')").replace(/^\/+/, "/");
// What Python reads of them from the start: the course's package (its source, for the students'
// tracebacks) and every package's metadata; the rest is in memory once imported, and fetched later.
const early = (path) => /^agentloop\/|^[^/]+\.dist-info\//.test(path);
const packed = { early: packFiles(installer.FS, sitePackages, early), later: packFiles(installer.FS, sitePackages, (path) => !early(path)) };
const loaded = { ...installer.loadedPackages };
await installer.runPythonAsync(IMPORTS);
const normal = seconds(start);
// What Python and its modules find as they start stays as they found it, so this is made to look like
// the kernel's worker, not Node: the program's name a browser gives (the environment's `_`); and for
// pyodide-http, which patches urllib only where `js.XMLHttpRequest` exists (the browser's one after
// the restore), `crossOriginIsolated` as on a static host (no COOP/COEP headers).
const python = await loadPyodide({ indexURL: `${stage}/`, _makeSnapshot: true, _sysExecutable: "./this.program", ...quiet });
install(python, packed.early, sitePackages);
install(python, packed.later, sitePackages);
globalThis.XMLHttpRequest ??= class XMLHttpRequest {};
globalThis.crossOriginIsolated ??= false;
await python.runPythonAsync(IMPORTS);
// Python holds a few of Pyodide's own JS functions; each is recorded by its name, for the restore.
const members = (object, root) => {
  const names = new Set();
  for (let o = object; o && o !== Object.prototype; o = Object.getPrototypeOf(o)) Object.getOwnPropertyNames(o).forEach((n) => names.add(n));
  return [...names].flatMap((key) => { try { return [[{ root, key }, object[key]]]; } catch { return []; } });
};
const places = [[{ root: "public" }, python], ...members(python, "public"), ...members(python._api, "API")];
const serializer = (object) => {
  const place = places.find(([, value]) => value === object);
  if (!place) throw new Error(`Python holds a JS object the snapshot cannot name: ${object?.name ?? typeof object}`);
  return place[0];
};
const parts = { snapshot: python.makeMemorySnapshot({ serializer }), ...packed };
const hash = Object.values(parts).reduce((h, bytes) => h.update(bytes), createHash("sha256")).digest("hex").slice(0, 16);
const manifest = { pyodide: version, packages, sitePackages, loaded, files: {}, bytes: {} };
for (const [part, bytes] of Object.entries(parts)) {  // brotli at its best: 72 s for the snapshot, done once a build
  manifest.files[part] = `kernel-${hash}.${part}.brotli`;  // no extension a host would send as Content-Encoding
  manifest.bytes[part] = bytes.length;
  writeFileSync(`${stage}/${manifest.files[part]}`, brotliCompressSync(bytes, { params: {
    [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }));
}
writeFileSync(`${stage}/${MANIFEST}`, JSON.stringify(manifest));

// The site's own files, as boot.mjs gets them; the packages' other files only once an import needs them.
const made = JSON.parse(readFileSync(`${stage}/${MANIFEST}`));
const read = (part) => unpack(readFileSync(`${stage}/${made.files[part]}`), made.bytes[part]);
let fetchedLater = 0;
const later = { now: () => { fetchedLater++; return read("later"); }, soon: () => new Promise(() => {}) };
start = performance.now();
const restored = await restore({ indexURL: `${stage}/`, packages, ...quiet }, { manifest: made, snapshot: read("snapshot"), early: read("early"), later });
const fromSnapshot = seconds(start);
const check = restored.runPython(`
import os, sys, IPython.display, ipywidgets.widgets.widget_int, agentloop
from pyodide_kernel import kernel_instance
jedi_before = os.path.exists(os.path.dirname(sys.modules["jedi"].__file__))
import IPython.lib.demo  # not imported for the snapshot: its file comes with the packages' others
type(kernel_instance).__name__, eval("6 * 7"), "agentloop" in sys.modules, jedi_before, os.path.exists(sys.modules["jedi"].__file__)`).toJs();
if (check.join() !== "PyodideKernel,42,true,false,true" || fetchedLater !== 1) throw new Error(`the restored kernel answered ${check}, fetched later ${fetchedLater}`);
const size = (part) => `${(made.bytes[part] / 1e6).toFixed(1)} MB (${(readFileSync(`${stage}/${made.files[part]}`).length / 1e6).toFixed(1)} MB packed)`;
console.log(`  kernel snapshot: Python's memory ${size("snapshot")}, the packages' files it reads from the start ${size("early")} ` +
  `and later ${size("later")}: restored and checked; in Node, Python with the packages and the imports: ${normal} from nothing, ${fromSnapshot} from the snapshot`);
process.exit(0);  // the restored Python's timer for the packages' files is not waited for

// The format boot.mjs's install() reads: u32 length of a JSON [[path, size], ...], the JSON, the bytes.
function packFiles(FS, root, wanted) {
  const files = [], chunks = [];
  const walk = (dir) => {
    for (const name of FS.readdir(dir).filter((n) => n !== "." && n !== "..").sort()) {
      const path = `${dir}/${name}`;
      if (FS.isDir(FS.stat(path).mode)) walk(path);
      else if (wanted(path.slice(root.length + 1))) { const bytes = FS.readFile(path); files.push([path.slice(root.length + 1), bytes.length]); chunks.push(bytes); }
    }
  };
  walk(root);
  const index = new TextEncoder().encode(JSON.stringify(files)), length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, index.length, true);
  return Buffer.concat([length, index, ...chunks]);
}
