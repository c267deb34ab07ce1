// Starts the kernel of the notebook a link names (`?path=03_the_loop.ipynb`) as soon as the app's
// plugins activate, so Python boots in its worker while the page is still drawing and loading the
// notebook. Written by hand as a federated extension container (init, get): it imports nothing.
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

(window._JUPYTERLAB = window._JUPYTERLAB || {})['course-kernel'] = {
  init: async () => {},
  get: async () => () => ({
    __esModule: true,
    default: {
      id: 'course-kernel:early-start',
      description: 'Starts the kernel of the notebook a ?path= link names while the page loads',
      autoStart: true,
      activate: app => { startEarly(app).catch(error => console.warn('course-kernel: no early kernel:', error)); },
    },
  }),
};
