// Can the kernel boot from a Pyodide memory snapshot? `node bench/pyodide_snapshot.mjs $PWD/lite/static/pyodide`
// (after `make site`). Boots Pyodide with the kernel's packages, imports what the kernel imports,
// snapshots, restores in a second instance and times both. Not used by the site: see README.
import { gzipSync, brotliCompressSync, constants } from "node:zlib";
const dir = process.argv[2];
const { loadPyodide } = await import(dir + "/pyodide.mjs");
const { default: createPyodideModule } = await import(dir + "/pyodide.asm.mjs");
const packages = ["micropip", "piplite", "ipykernel", "comm", "pyodide-kernel", "jedi", "ipython", "ipywidgets", "pyodide-http", "agentloop"];
const KERNEL_IMPORTS = "import piplite.piplite, pyodide_kernel, ipywidgets, agentloop";
const quiet = { stdout: () => {}, stderr: () => {}, messageCallback: () => {} };
const ms = (start) => `${(performance.now() - start).toFixed(0)} ms`;

let start = performance.now();
const first = await loadPyodide({ indexURL: dir + "/", packages, _makeSnapshot: true, ...quiet });
console.log(`normal start: loadPyodide with the packages ${ms(start)}`);
start = performance.now();
await first.runPythonAsync(KERNEL_IMPORTS);
console.log(`normal start: the kernel's imports ${ms(start)}`);

// Workaround 1: hiwire slot 6 is Pyodide's loadedPackages, which the snapshot check wants empty;
// emptied, the restored instance installs the wheels' files again (the file system is not in the snapshot).
const loaded = first._module.__hiwire_get(6);
const names = { ...loaded };
for (const name of Object.keys(loaded)) delete loaded[name];
// Workaround 2: the imports keep 6 references to Pyodide's own JS API, which it cannot serialize.
const refs = [];
const snapshot = first.makeMemorySnapshot({ serializer: (obj) => (refs.push(obj), { ref: refs.length - 1 }) });
Object.assign(loaded, names);
const kinds = refs.map((obj) => (obj === first ? "the pyodide API" : `pyodide.${Object.keys(first).find((k) => first[k] === obj) ?? obj.name ?? "?"}`));
console.log(`snapshot: ${(snapshot.length / 1e6).toFixed(1)} MB, gzip -6 ${(gzipSync(snapshot, { level: 6 }).length / 1e6).toFixed(1)} MB, ` +
  `brotli -5 ${(brotliCompressSync(snapshot, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }).length / 1e6).toFixed(1)} MB; ` +
  `JS references it cannot serialize: ${kinds.join(", ")}`);

// Workaround 3: the wasm module exports its own memory, so the INITIAL_MEMORY that loadPyodide sets
// for a snapshot is ignored and restoring a heap bigger than the initial 30 MiB fails
// ("RangeError: offset is out of bounds"): grow the heap by allocating before the restore.
let module;
const growing = async (arg) => {
  module = await createPyodideModule(arg);
  const heap = snapshot.length - new Uint32Array(snapshot.buffer, snapshot.byteOffset, 4)[1];
  while (module.HEAP8.length < heap) module._malloc(Math.min(heap - module.HEAP8.length, 16 << 20));
  return module;
};
const fromPublicApi = ({ ref }) => { const api = module.API.public_api, old = refs[ref];
  if (old === first) return api;
  const key = Object.keys(first).find((k) => first[k] === old);
  return key ? api[key] : () => { throw new Error("a JS reference the snapshot could not keep"); }; };
start = performance.now();
const second = await loadPyodide({ indexURL: dir + "/", packages, _loadSnapshot: snapshot, createPyodideModule: growing,
  _snapshotDeserializer: fromPublicApi, ...quiet });
console.log(`from the snapshot: loadPyodide with the packages ${ms(start)}`);
start = performance.now();
await second.runPythonAsync(KERNEL_IMPORTS);
console.log(`from the snapshot: the kernel's imports ${ms(start)}`);
console.log("from the snapshot, a lazy import and the kernel:", second.runPython(`
import sys, IPython.display, ipywidgets.widgets.widget_int
from pyodide_kernel import kernel_instance
str((len(sys.modules), type(kernel_instance).__name__, eval('6 * 7')))`));
