// The lesson page's first action (the build puts it at the top of notebooks/index.html): a link that
// names a notebook (`?path=01_agent_function.ipynb`) has its kernel's worker started now, and Python
// restored in it from the snapshot (kernel-early.mjs), while the app loads; the kernel the app creates
// later takes this worker instead of a new one. Only the first kernel does, and only once the page is
// controlled by the site's service worker (the drive, and the files kept offline, go through it), as
// the course's plugin makes every kernel wait for; on a first visit this registers it. Unclaimed after
// a minute, the worker is stopped.
(function () {
  const path = new URLSearchParams(location.search).get('path');
  if (!path?.endsWith('.ipynb') || !/(index\.html|\/)$/.test(location.pathname)) return;
  if (typeof Worker === 'undefined' || self.crossOriginIsolated) return;  // the kernel uses another worker then
  const WORKER = 'static/pyodide/kernel-early.mjs', APP_VERSION = '__APP_VERSION__';
  const SERVICE_WORKER = 'service-worker.js?enableCache=__ENABLE_CACHE__';  // as JupyterLite registers it
  const kernelWorker = /\/pyodide-kernel-extension\/static\/comlink\.worker\.[^/]*\.js$/;
  const Original = window.Worker;
  let early = null, claimed = false;
  function Worker(url, options) {
    if (!claimed && kernelWorker.test(new URL(url, location.href).pathname)) {
      claimed = true;
      if (early) return early;
    }
    return new Original(url, options);
  }
  Worker.prototype = Original.prototype;
  window.Worker = Worker;

  const start = () => {
    if (claimed) return;
    early = new Original(new URL(`../${WORKER}`, location.href), { type: 'module' });
    early.addEventListener('error', () => { if (!claimed) { early.terminate(); early = null; } }, { once: true });
    setTimeout(() => { if (!claimed && early) { early.terminate(); early = null; } }, 60_000);
  };
  const { serviceWorker } = navigator;
  if (!serviceWorker) return start();
  const controller = serviceWorker.controller;
  // A worker JupyterLite is about to unregister (its version changed) would leave the kernel without a drive.
  if (controller) return localStorage.getItem(`${controller.scriptURL}-version`) === APP_VERSION ? start() : undefined;
  serviceWorker.getRegistration().then((registration) => {
    if (registration?.active) return start();  // a hard reload: the page stays uncontrolled
    // A first visit: the site's service worker is registered now, not once the app has loaded. It is the
    // script JupyterLite registers (its own call then changes nothing), and its version is noted, as the
    // course's plugin does, or JupyterLite would take a page it controls already for an old version.
    serviceWorker.addEventListener('controllerchange', start, { once: true });
    const script = new URL(`../${SERVICE_WORKER}`, location.href).href;
    localStorage.setItem(`${script}-version`, APP_VERSION);
    return serviceWorker.register(script);
  }).catch(() => {});
})();
