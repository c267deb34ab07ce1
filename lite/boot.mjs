// Boots the kernel's Python from the snapshot the site build took after the kernel's imports
// (lite/snapshot.mjs), and falls back to Pyodide's normal start when it is missing or does not fit.
// The kernel loads this file in place of pyodide.mjs (its `pyodideUrl`), so it exports the same call.
import { loadPyodide as loadNormally, version } from "./pyodide.mjs";

// What the snapshot was made from, and the names of its two files: Python's memory after the
// imports, and the installed packages' files. Named by their hash, so a cache never mixes two builds.
export const MANIFEST = "kernel.snapshot.json";

export async function loadPyodide(options) {
  const manifest = fetched(MANIFEST).then((bytes) => JSON.parse(new TextDecoder().decode(bytes)));
  const files = { snapshot: manifest.then((m) => fetched(m.files.snapshot)), packages: manifest.then((m) => fetched(m.files.packages)) };
  try {
    const python = await restore(options, { manifest: await manifest, ...files });
    console.info("course: Python restored from its snapshot");
    return python;
  } catch (error) {
    Object.values(files).forEach((file) => file.catch(() => {}));  // one failure is enough to report
    console.warn(`course: Python starts normally, without its snapshot: ${error.message}`);
    return loadNormally(options);
  }
}

// A file next to this one, gunzipped while it downloads unless the server did it (Content-Encoding).
async function fetched(name) {
  const response = await fetch(new URL(name, import.meta.url));
  if (!response.ok) throw new Error(`${name}: HTTP ${response.status}`);
  const reader = response.body.getReader(), first = await reader.read();
  const gzipped = first.value?.[0] === 0x1f && first.value?.[1] === 0x8b;
  const body = new ReadableStream({
    start: (controller) => { if (!first.done) controller.enqueue(first.value); },
    pull: async (controller) => { const { done, value } = await reader.read(); done ? controller.close() : controller.enqueue(value); },
  });
  return new Uint8Array(await new Response(gzipped ? body.pipeThrough(new DecompressionStream("gzip")) : body).arrayBuffer());
}

// The snapshot is Python's memory only: the packages' files are written back where they were, and
// the few JS objects Python held are looked up again by the names the build recorded for them.
export async function restore(options, { manifest, ...files }) {
  const wanted = options.packages ?? [];
  if (manifest.pyodide !== version || manifest.packages.join() !== wanted.join()) {
    throw new Error(`it was made for Pyodide ${manifest.pyodide} with ${manifest.packages.join(", ")}`);
  }
  const pyodideModule = import(new URL("./pyodide.asm.mjs", import.meta.url).href);
  let module, snapshot, createModule;
  // Pyodide's wasm exports its own memory, so the INITIAL_MEMORY it asks for a snapshot is ignored
  // and a heap bigger than the first 30 MiB would not fit: grow it first (the restore overwrites it).
  const createPyodideModule = async (settings) => {
    [{ default: createModule }, snapshot] = await Promise.all([pyodideModule, files.snapshot]);
    const header = new DataView(snapshot.buffer, snapshot.byteOffset);
    if (snapshot.length !== manifest.bytes.snapshot || header.getUint32(4, true) >= snapshot.length) {
      throw new Error(`${manifest.files.snapshot} is ${snapshot.length} bytes, not ${manifest.bytes.snapshot}`);
    }
    module = await withoutStackSwitching(() => createModule(settings));
    const heap = snapshot.length - header.getUint32(4, true);
    while (module.HEAP8.length < heap) module._malloc(Math.min(heap - module.HEAP8.length, 16 << 20));
    return module;
  };
  const _snapshotDeserializer = ({ root, key }) => {
    const owner = root === "API" ? module.API : module.API.public_api;
    return key === undefined ? owner : owner[key];
  };
  const python = await loadNormally({ ...options, packages: [], _loadSnapshot: files.snapshot, createPyodideModule, _snapshotDeserializer });
  const packages = await files.packages;
  if (packages.length !== manifest.bytes.packages) throw new Error(`${manifest.files.packages} is ${packages.length} bytes, not ${manifest.bytes.packages}`);
  install(python, packages, manifest.sitePackages);
  Object.assign(python.loadedPackages, manifest.loaded);
  // What the snapshot holds of the machine it was made on: the language (LANG, from this browser's,
  // as Emscripten sets it) and the random seed (else every restored kernel draws the same numbers).
  const lang = `${(globalThis.navigator?.language ?? "C").replace("-", "_")}.UTF-8`;
  python.runPython(`import os, random; os.environ["LANG"] = ${JSON.stringify(lang)}; random.seed()`);
  return python;
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

// kernel.packages: a little-endian u32 with the length of a JSON list of [path, size], the list,
// then every file's bytes in that order (written by lite/snapshot.mjs from the installed packages).
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
