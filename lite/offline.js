// The course kept offline: every file of one build in one Cache Storage cache, named by the build.
// The site build puts this at the top of JupyterLite's service-worker.js, after `COURSE` (the build's
// id, its files with their hashes, the files fetched gzipped), so one service worker serves both the
// drive and the kept files.
// Only the site's own files are kept: the student's notebooks and files (IndexedDB) are never touched.
const KEPT = `course-${COURSE.build}`;
const SCOPE = new URL(self.registration.scope).pathname;
let filling = null;  // the promise of keeping this build's files
const storing = new Map();  // path: the promise of keeping a file on its way from the server

// The file of this build a request asks for (a folder is its index.html), or null.
function siteFile(request) {
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== location.origin || !url.pathname.startsWith(SCOPE)) return null;
  const path = decodeURIComponent(url.pathname.slice(SCOPE.length));
  if (/(^|\/)api\/(drive|stdin|service-worker-heartbeat)/.test(path)) return null;  // JupyterLite's own
  return path === "" || path.endsWith("/") ? `${path}index.html` : path;
}

async function sha256(bytes) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("").slice(0, 16);
}

// A response kept as the file `path` of this build, unless its bytes are not the build's (a server
// that moved on to another build meanwhile). A host may have unpacked a .gz file on the way
// (Content-Encoding): its bytes cannot match.
async function store(cache, path, response) {
  const body = await response.arrayBuffer(), want = COURSE.files[path];
  if (!response.ok || (await sha256(body) !== want && !response.headers.get("content-encoding"))) {
    throw new Error(`${path} is not the file of build ${COURSE.build}`);
  }
  const headers = { "content-type": response.headers.get("content-type") ?? "", "x-course-sha256": want };
  await cache.put(new URL(path, self.registration.scope).href, new Response(body, { headers }));
}

// A file from the server. Pyodide's wasm goes as it is from a static host (which gzips text only),
// so the build writes a gzipped copy next to it, fetched instead and unpacked on the way.
async function download(request, path, init = {}) {
  if (!COURSE.packed.includes(path)) return fetch(request, init);
  const packed = await fetch(new URL(`${path}.gz`, self.registration.scope), init);
  if (!packed.ok) return fetch(request, init);
  const body = packed.headers.get("content-encoding") ? packed.body : packed.body.pipeThrough(new DecompressionStream("gzip"));
  return new Response(body, { headers: { "content-type": "application/wasm" } });
}

// Each file comes from the server once: a request for a file on its way waits for its copy.
function storingOnce(path, copy) {
  const once = copy.finally(() => storing.delete(path));
  storing.set(path, once);
  return once;
}

const onItsWay = (path) => (storing.get(path) ?? Promise.resolve()).catch(() => {});

// One file as this build has it: kept from the page's request, from any kept build with the same
// bytes, or from the server.
async function keep(cache, path) {
  const url = new URL(path, self.registration.scope).href;
  await onItsWay(path);
  const kept = await caches.match(url);
  if (kept?.headers.get("x-course-sha256") === COURSE.files[path]) return cache.put(url, kept);
  if (storing.has(path)) return keep(cache, path);  // the page asked for it meanwhile
  return storingOnce(path, download(url, path, { cache: "no-cache" }).then((response) => store(cache, path, response)));
}

// A file of this build the page asks for before it is kept: the page gets it as it comes, and a copy
// is kept on the way, so the first visit does not download it twice.
function fetchAndKeep(event, path) {
  const response = download(event.request, path);
  if (path in COURSE.files) {
    const copy = response.then((first) => {
      const clone = first.clone();  // before the page reads the body
      return caches.open(KEPT).then((cache) => store(cache, path, clone));
    });
    event.waitUntil(storingOnce(path, copy).catch(() => {}));
  }
  return response;
}

// Every file of this build not kept yet, a few at a time; true once all are. Once kept, or once the
// server has another build (whose worker will replace this one), there is nothing left to do.
function fill() {
  filling ??= (async () => {
    const cache = await caches.open(KEPT);
    const have = new Set((await cache.keys()).map((request) => request.url));
    const todo = Object.entries(COURSE.files).filter(([path]) => !have.has(new URL(path, self.registration.scope).href));
    const worker = async () => { for (let next; (next = todo.shift());) await keep(cache, next[0]); };
    await Promise.all(Array.from({ length: 6 }, worker));
    return true;
  })().catch((error) => {
    console.warn(`course: not kept offline yet: ${error.message}`);
    if (error instanceof TypeError) filling = null;  // the network failed: try again at the next request
    return false;
  });
  return filling;
}

const within = (promise, ms) => Promise.race([promise, new Promise((_, late) => setTimeout(late, ms))]);

// A navigation first asks the server for a newer build (none when offline); a newer one is kept
// whole before it takes over (JupyterLite's worker skips waiting), then the page loads again from it.
// Past 5 s to ask, or 60 s to keep it, this build serves, and the new one takes over when kept.
// The server's copy of this script says which build it is (its first line): only a different one is
// installed with update(), which Chromium may hold back for seconds when no page of the site is open
// (a worker updating itself with no page to serve), as when a lesson's link replaces the last one.
async function newerBuild() {
  const registration = self.registration;
  try {
    const script = await within(fetch(location.href, { cache: "no-cache" }).then((response) => response.text()), 5000);
    const server = /^const COURSE = \{"build": "(\w+)", "script": "(\w+)"/.exec(script);
    if (server && server[1] === COURSE.build && server[2] === COURSE.script) return false;
    await within(registration.update(), 5000);
    const next = registration.installing ?? registration.waiting;
    if (!next) return false;
    await within(new Promise((ok) => {
      const settled = () => ["installed", "activating", "activated", "redundant"].includes(next.state) && ok();
      next.addEventListener("statechange", settled);
      settled();
    }), 60_000);
    return next.state !== "redundant";
  } catch {
    return false;  // offline, or a slow server or download
  }
}

const AGAIN = '<!doctype html><meta http-equiv="refresh" content="0">';

async function respond(event, path) {
  if (event.request.mode === "navigate" && await newerBuild()) {
    return new Response(AGAIN, { headers: { "content-type": "text/html" } });
  }
  return keptOrFetched(event, path);
}

async function keptOrFetched(event, path) {
  const url = new URL(path, self.registration.scope).href;
  await onItsWay(path);
  const kept = await caches.match(url, { cacheName: KEPT });
  if (kept) return kept;
  if (storing.has(path)) return keptOrFetched(event, path);  // asked for again while this one looked
  // Not a file of this build: the server's 404, and 404 too with no server.
  return fetchAndKeep(event, path).catch((error) => {
    if (path in COURSE.files) throw error;
    return new Response("", { status: 404 });
  });
}

self.addEventListener("install", (event) => {
  // A new build is kept whole before it replaces the one in use; the first one fills in after
  // activating, since the first page's kernel needs this worker for the drive right away.
  if (self.registration.active) event.waitUntil(fill().then((kept) => kept || Promise.reject(new Error("not kept"))));
});

self.addEventListener("activate", (event) => {
  const old = (name) => name.startsWith("course-") && name !== KEPT;
  event.waitUntil(caches.keys().then((names) => Promise.all(names.filter(old).map((name) => caches.delete(name)))));
});

self.addEventListener("fetch", (event) => {
  // The rest of the build is kept at JupyterLite's heartbeat, every 20 s while a page is open: after
  // the first page's first output, which it would slow down.
  if (new URL(event.request.url).pathname.endsWith("/api/service-worker-heartbeat")) event.waitUntil(fill());
  const path = siteFile(event.request);
  if (path === null) return;  // JupyterLite's service worker answers (the drive, its heartbeat)
  event.respondWith(respond(event, path));
  event.stopImmediatePropagation();
});
