// Three things about when kernels start, written by hand as a federated extension container (init,
// get): it takes JupyterLite's service-worker manager and PageConfig from the app's shared modules.
// 1. Every kernel waits for the service worker: one created while JupyterLite (re)registers it gets
//    no drive, and the student's files are not there. On a first visit, until it controls the page.
// 2. No re-registering on every second visit: JupyterLite notes the version it registered only when
//    it replaces one, so the next visit always found "a new version". It is noted here the first time.
// 3. The kernel of the notebook a link names (`?path=03_the_loop.ipynb`) starts as soon as the
//    app's plugins activate, so Python boots in its worker while the page still draws the notebook.
// 4. A page with no such link (JupyterLab) restores the lessons a student had open without their
//    kernels: each starts its kernel when the student runs a cell in it, not all at once on arrival.
let shared = {};

async function sharedModule(name) {
  const versions = Object.values(shared[name] ?? {});
  const copy = versions.find(v => v.loaded) ?? versions[0];  // the app's own copy, if it has loaded one
  return copy ? (await copy.get())() : {};
}

// The key and value JupyterLite's manager compares on the next visit (`${scriptURL}-version`).
async function noteRegisteredVersion(workers, version) {
  const hadController = !!navigator.serviceWorker.controller;
  await workers.ready;
  const { active } = await navigator.serviceWorker.ready;
  if (!hadController && version) localStorage.setItem(`${active.scriptURL}-version`, version);
}

// On the first visit, the kernel also waits until the new service worker controls the page, so
// Python's files come through it and are kept for offline use as they download, not downloaded
// again (lite/offline.js). A return visit is controlled already, or never (a hard reload).
async function controlled() {
  const { serviceWorker } = navigator;
  if (serviceWorker.controller || (await serviceWorker.getRegistration())?.active) return;
  await new Promise(ok => serviceWorker.addEventListener('controllerchange', ok, { once: true }));
}

function afterServiceWorker(sessions, workers) {
  // No service worker (a private window): the kernel starts without a drive, as it would anyway.
  const settled = workers && navigator.serviceWorker
    ? Promise.race([workers.ready.then(controlled).catch(() => {}), new Promise(ok => setTimeout(ok, 10_000))])
    : Promise.resolve();
  const startNew = sessions.startNew.bind(sessions);
  sessions.startNew = async (...args) => { await settled; return startNew(...args); };
}

async function startEarly(app) {
  const path = new URLSearchParams(window.location.search).get('path');
  if (!path?.endsWith('.ipynb')) return;
  const { contents, kernelspecs, sessions } = app.serviceManager;
  await Promise.all([contents.get(path, { content: false }), kernelspecs.ready]);  // no such file: no kernel
  // The kernel JupyterLab would start for a lesson (the site has one: the default). The kernel's own
  // plugin registers it, and may activate after this one: wait for it, up to 5 s.
  for (let wait = 0; !kernelspecs.specs?.default && wait < 250; wait++) {
    await new Promise(ok => setTimeout(ok, 20));
    await kernelspecs.refreshSpecs();
  }
  const kernel = { name: kernelspecs.specs.default };
  const name = path.split('/').pop();  // the session name the notebook itself asks for
  const early = sessions.startNew({ path, name, type: 'notebook', kernel });
  // The notebook's own request, if it comes meanwhile, waits for this one: the in-browser session
  // service then hands back the running session of that name instead of starting a second kernel.
  const startNew = sessions.startNew.bind(sessions);
  sessions.startNew = async (...args) => { await early.catch(() => {}); return startNew(...args); };
  // The notebook connects to the session on its own; this connection would only echo its messages.
  (await early).dispose();
}

// What JupyterLab asks of the documents it opens while restoring its layout: no kernel until a cell
// runs (then the default one, without asking), as JupyterLab has no setting for it (#11572).
// Run All asks for a kernel for every cell at once: they share one start, and every cell waits for
// it (JupyterLab takes a kernel that is starting for one that runs, and the other cells were lost).
function restoreWithoutKernels(app, SessionContext) {
  const registry = app.docRegistry, preference = registry.getKernelPreference.bind(registry);
  registry.getKernelPreference = (...args) => {
    const wanted = preference(...args);
    return wanted && { ...wanted, shouldStart: false, autoStartDefault: true };
  };
  app.restored.finally(() => { registry.getKernelPreference = preference; });
  const { prototype } = SessionContext, startKernel = prototype.startKernel, starting = new WeakMap();
  const hasNoKernel = Object.getOwnPropertyDescriptor(prototype, 'hasNoKernel').get;
  prototype.startKernel = function () {
    if (!starting.has(this)) starting.set(this, startKernel.call(this).finally(() => starting.delete(this)));
    return starting.get(this);
  };
  Object.defineProperty(prototype, 'hasNoKernel', { get() { return starting.has(this) || hasNoKernel.call(this); } });
}

(window._JUPYTERLAB = window._JUPYTERLAB || {})['course-kernel'] = {
  init: async scope => { shared = scope ?? {}; },
  get: async () => {
    const { IServiceWorkerManager } = await sharedModule('@jupyterlite/apputils');
    const { PageConfig } = await sharedModule('@jupyterlab/coreutils');
    const { SessionContext } = await sharedModule('@jupyterlab/apputils');
    if (!IServiceWorkerManager) console.warn('course-kernel: no service-worker manager to wait for');
    return () => ({
      __esModule: true,
      default: {
        id: 'course-kernel:early-start',
        description: 'Kernels wait for the service worker; a ?path= link starts its kernel while the page loads; restored tabs start none',
        autoStart: true,
        optional: IServiceWorkerManager ? [IServiceWorkerManager] : [],
        activate: (app, workers) => {
          afterServiceWorker(app.serviceManager.sessions, workers);
          if (workers && navigator.serviceWorker) noteRegisteredVersion(workers, PageConfig?.getOption('appVersion')).catch(() => {});
          if (!new URLSearchParams(window.location.search).get('path')) restoreWithoutKernels(app, SessionContext);
          startEarly(app).catch(error => console.warn('course-kernel: no early kernel:', error));
        },
      },
    });
  },
};
