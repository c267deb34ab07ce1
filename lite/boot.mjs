// Boots the kernel's Python from the snapshot the site build took after the kernel's imports
// (lite/snapshot.mjs), and falls back to Pyodide's normal start when it is missing or does not fit.
// The kernel loads this file in place of pyodide.mjs (its `pyodideUrl`), so it exports the same call.
import { loadPyodide as loadNormally, version } from "./pyodide.mjs";

// What the snapshot was made from, and the names of its files: Python's memory after the imports, the
// installed files Python reads from the start (the course's package and every package's metadata), and
// the packages' other files, fetched once needed. Named by their hash: a cache never mixes two builds.
export const MANIFEST = "kernel.snapshot.json";
const DECODER = "brotli_dec_wasm_bg.wasm.gz";  // the files are brotli: a third smaller than gzip
// The packages' other files wait until the first output has had its turn; an import needs them sooner.
const LATER_AFTER_MS = 20_000;

export async function loadPyodide(options) {
  const manifest = fetched(MANIFEST).then((bytes) => JSON.parse(new TextDecoder().decode(bytes)));
  const decoder = Promise.all([import("./brotli_dec_wasm.js"), fetched(DECODER)]).then(([module, wasm]) => brotli(module, wasm));
  const file = (part) => Promise.all([manifest, decoder]).then(([m, unpack]) => downloaded(m.files[part]).then((bytes) => unpack(bytes, m.bytes[part])));
  const files = { snapshot: file("snapshot"), early: file("early") };
  try {
    const [made, unpack] = await Promise.all([manifest, decoder]);
    const later = { soon: () => file("later"), now: () => unpack(downloadedNow(made.files.later), made.bytes.later) };
    const python = await restore(options, { manifest: made, ...files, later });
    console.info("course: Python restored from its snapshot");
    return python;
  } catch (error) {
    Object.values(files).forEach((part) => part.catch(() => {}));  // one failure is enough to report
    console.warn(`course: Python starts normally, without its snapshot: ${error.message}`);
    return loadNormally(options);
  }
}

// A file next to this one, gunzipped while it downloads unless the server did it (Content-Encoding).
async function fetched(name) {
  const reader = (await requested(name)).body.getReader(), first = await reader.read();
  const gzipped = first.value?.[0] === 0x1f && first.value?.[1] === 0x8b;
  const body = new ReadableStream({
    start: (controller) => { if (!first.done) controller.enqueue(first.value); },
    pull: async (controller) => { const { done, value } = await reader.read(); done ? controller.close() : controller.enqueue(value); },
  });
  return new Uint8Array(await new Response(gzipped ? body.pipeThrough(new DecompressionStream("gzip")) : body).arrayBuffer());
}

async function requested(name) {
  const response = await fetch(new URL(name, import.meta.url));
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
  return response;
}

async function downloaded(name) {
  return new Uint8Array(await (await requested(name)).arrayBuffer());
}

// The same, blocking: what an import needs now. A kernel's worker may wait on the network this way.
function downloadedNow(name) {
  const request = new XMLHttpRequest();
  request.open("GET", new URL(name, import.meta.url), false);
  request.responseType = "arraybuffer";
  request.send();
  if (request.status !== 200) throw new Error(`${name}: HTTP ${request.status}`);
  return new Uint8Array(request.response);
}

// unpack(bytes, size): a brotli file back to its `size` bytes, a megabyte at a time into one buffer
// (the decoder's own memory stays small). A host that unpacked it on the way sent exactly `size` bytes.
export function brotli({ initSync, DecompressStream, BrotliStreamResultCode: Code }, wasm) {
  initSync({ module: wasm });
  return (bytes, size) => {
    const stream = new DecompressStream(), out = new Uint8Array(size);
    let at = 0;
    try {
      for (let input = bytes; ;) {
        const { buf, code, input_offset: used } = stream.decompress(input, 1 << 20);
        if (at + buf.length > size) throw new Error(`unpacks to more than ${size} bytes`);
        out.set(buf, at);
        at += buf.length;
        if (code === Code.ResultSuccess) break;
        if (code !== Code.NeedsMoreOutput) throw new Error(`is cut short (${Code[code] ?? code})`);
        input = input.subarray(used);
      }
    } catch (error) {
      if (bytes.length === size) return bytes;
      throw new Error(`a packed file ${error.message ?? error}`);
    } finally {
      stream.free();
    }
    if (at !== size) throw new Error(`a packed file unpacks to ${at} bytes, not ${size}`);
    return out;
  };
}

// The snapshot is Python's memory only: the installed files are written back where they were (the
// packages' others once needed), and the few JS objects Python held are looked up again by name.
export async function restore(options, { manifest, snapshot: snapshotFile, early, later }) {
  const wanted = options.packages ?? [];
  if (manifest.pyodide !== version || manifest.packages.join() !== wanted.join()) {
    throw new Error(`it was made for Pyodide ${manifest.pyodide} with ${manifest.packages.join(", ")}`);
  }
  const pyodideModule = import(new URL("./pyodide.asm.mjs", import.meta.url).href);
  let module, snapshot, createModule;
  // Pyodide's wasm exports its own memory, so the INITIAL_MEMORY it asks for a snapshot is ignored
  // and a heap bigger than the first 30 MiB would not fit: grow it first (the restore overwrites it).
  const createPyodideModule = async (settings) => {
    [{ default: createModule }, snapshot] = await Promise.all([pyodideModule, snapshotFile]);
    const header = new DataView(snapshot.buffer, snapshot.byteOffset);
    if (header.getUint32(4, true) >= snapshot.length) throw new Error(`${manifest.files.snapshot} is not a snapshot`);
    module = await withoutStackSwitching(() => createModule(settings));
    const heap = snapshot.length - header.getUint32(4, true);
    while (module.HEAP8.length < heap) module._malloc(Math.min(heap - module.HEAP8.length, 16 << 20));
    return module;
  };
  const _snapshotDeserializer = ({ root, key }) => {
    const owner = root === "API" ? module.API : module.API.public_api;
    return key === undefined ? owner : owner[key];
  };
  const python = await loadNormally({ ...options, packages: [], _loadSnapshot: snapshotFile, createPyodideModule, _snapshotDeserializer });
  install(python, await early, manifest.sitePackages);
  installLater(python, later, manifest.sitePackages);
  Object.assign(python.loadedPackages, manifest.loaded);
  // What the snapshot holds of the machine it was made on: the language (LANG, from this browser's,
  // as Emscripten sets it) and the random seed (else every restored kernel draws the same numbers).
  const lang = `${(globalThis.navigator?.language ?? "C").replace("-", "_")}.UTF-8`;
  python.runPython(`import os, random; os.environ["LANG"] = ${JSON.stringify(lang)}; random.seed()`);
  return python;
}

// The packages' other files (IPython's, Jedi's: most of what a kernel never reads) are written a while
// after the start, or at once by the first import that finds nothing without them, whichever is first.
function installLater(python, later, sitePackages) {
  let done = false;
  const installed = (bytes) => { if (!done) install(python, bytes, sitePackages); done = true; };
  const now = () => done || installed(later.now());
  setTimeout(() => later.soon().then(installed)
    .catch((error) => console.warn(`course: the packages' files will be fetched when an import needs them: ${error.message}`)), LATER_AFTER_MS);
  python.runPython(`
import importlib, importlib.machinery, sys
class PackagesFetchedOnNeed:
    """Last on sys.meta_path: the module was found nowhere, so the packages' other files are fetched first."""
    def find_spec(self, name, path=None, target=None):
        try:
            fetch_now()
        except Exception as error:
            print(f"course: {name} needs the packages' files, which could not be fetched: {error}", file=sys.stderr)
            return None
        sys.meta_path.remove(self)
        importlib.invalidate_caches()
        return importlib.machinery.PathFinder.find_spec(name, path, target)
sys.meta_path.append(PackagesFetchedOnNeed())`, { globals: python.toPy({ fetch_now: now }) });
}

// Python records as it starts whether the runtime can stack switch (JSPI), and the snapshot's Python
// started in Node, which cannot: the restored one must not try either, or its first time.sleep()
// fails. So the browser's JSPI is out of sight while the module is made, as in Firefox or Safari.
async function withoutStackSwitching(make) {
  const hidden = Object.entries(Object.getOwnPropertyDescriptors(WebAssembly)).filter(([name]) => ["Suspending", "Suspender"].includes(name));
  for (const [name] of hidden) delete WebAssembly[name];
  try {
    return await make();
  } finally {
    for (const [name, descriptor] of hidden) Object.defineProperty(WebAssembly, name, descriptor);
  }
}

// An archive of installed files: a little-endian u32 with the length of a JSON list of [path, size],
// the list, then every file's bytes in that order (written by lite/snapshot.mjs).
export function install(python, packages, sitePackages) {
  const view = new DataView(packages.buffer, packages.byteOffset);
  const start = 4 + view.getUint32(0, true);
  const files = JSON.parse(new TextDecoder().decode(packages.subarray(4, start)));
  let offset = start;
  for (const [path, size] of files) {
    const full = `${sitePackages}/${path}`;
    python.FS.mkdirTree(full.slice(0, full.lastIndexOf("/")));
    python.FS.writeFile(full, packages.subarray(offset, offset += size), { canOwn: true });
  }
}
