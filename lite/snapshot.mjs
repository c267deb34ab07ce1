// Takes the kernel's snapshot for the site: `node lite/snapshot.mjs STAGE` (lite/build.py runs it).
// Boots Pyodide from STAGE with the kernel's packages, keeps their installed files, imports what the
// kernel and the lessons import first, and writes Python's memory; then restores both as the browser
// will (STAGE/boot.mjs) and checks that the kernel and a lesson's first imports work. Failing exits 1.
import { readFileSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { gzipSync, gunzipSync } from "node:zlib";
const stage = process.argv[2];
const { loadPyodide, version } = await import(`${stage}/pyodide.mjs`);
const { restore, install, MANIFEST } = await import(`${stage}/boot.mjs`);
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
const packed = packFiles(installer.FS, sitePackages), loaded = { ...installer.loadedPackages };
await installer.runPythonAsync(IMPORTS);
const normal = seconds(start);
// What Python and its modules find as they start stays as they found it, so this is made to look like
// the kernel's worker, not Node: the program's name a browser gives (the environment's `_`); and for
// pyodide-http, which patches urllib only where `js.XMLHttpRequest` exists (the browser's one after
// the restore), `crossOriginIsolated` as on a static host (no COOP/COEP headers).
const python = await loadPyodide({ indexURL: `${stage}/`, _makeSnapshot: true, _sysExecutable: "./this.program", ...quiet });
install(python, packed, sitePackages);
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
const snapshot = python.makeMemorySnapshot({ serializer });
const hash = createHash("sha256").update(snapshot).update(packed).digest("hex").slice(0, 16);
const manifest = { pyodide: version, packages, sitePackages, loaded,
  files: { snapshot: `kernel-${hash}.snapshot.gz`, packages: `kernel-${hash}.packages.gz` },
  bytes: { snapshot: snapshot.length, packages: packed.length } };
writeFileSync(`${stage}/${manifest.files.snapshot}`, gzipSync(snapshot));
writeFileSync(`${stage}/${manifest.files.packages}`, gzipSync(packed));
writeFileSync(`${stage}/${MANIFEST}`, JSON.stringify(manifest));

const read = (name) => gunzipSync(readFileSync(`${stage}/${name}`));  // the site's own files, as boot.mjs gets them
const files = { manifest: JSON.parse(readFileSync(`${stage}/${MANIFEST}`)), snapshot: read(manifest.files.snapshot), packages: read(manifest.files.packages) };
start = performance.now();
const restored = await restore({ indexURL: `${stage}/`, packages, ...quiet }, files);
const fromSnapshot = seconds(start);
const check = restored.runPython(`
import sys, IPython.display, ipywidgets.widgets.widget_int, agentloop
from pyodide_kernel import kernel_instance
type(kernel_instance).__name__, eval("6 * 7"), "agentloop" in sys.modules`).toJs();
if (check.join() !== "PyodideKernel,42,true") throw new Error(`the restored kernel answered ${check}`);
const size = (name) => `${(readFileSync(`${stage}/${name}`).length / 1e6).toFixed(1)} MB`;
console.log(`  kernel snapshot: Python's memory ${(snapshot.length / 1e6).toFixed(1)} MB (${size(manifest.files.snapshot)} gzipped), ` +
  `its packages' files ${(packed.length / 1e6).toFixed(1)} MB (${size(manifest.files.packages)}): restored and checked; ` +
  `in Node, Python with the packages and the imports: ${normal} from nothing, ${fromSnapshot} from the snapshot`);

// The format boot.mjs's install() reads: u32 length of a JSON [[path, size], ...], the JSON, the bytes.
function packFiles(FS, root) {
  const files = [], chunks = [];
  const walk = (dir) => {
    for (const name of FS.readdir(dir).filter((n) => n !== "." && n !== "..").sort()) {
      const path = `${dir}/${name}`;
      if (FS.isDir(FS.stat(path).mode)) walk(path);
      else { const bytes = FS.readFile(path); files.push([path.slice(root.length + 1), bytes.length]); chunks.push(bytes); }
    }
  };
  walk(root);
  const index = new TextEncoder().encode(JSON.stringify(files)), length = new Uint8Array(4);
  new DataView(length.buffer).setUint32(0, index.length, true);
  return Buffer.concat([length, index, ...chunks]);
}
