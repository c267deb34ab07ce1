"""Serve the course site on this machine: `python lite/serve.py [--port 8000] [--prefix /course/]`.

Builds the site first if it is missing or out of date (see build.py), then serves _output/ on
127.0.0.1 only. Ctrl-C stops it. The tests and the benchmark use `start()` from here as well.
"""
import argparse
import functools
import http.server
import sys
import threading
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import build  # noqa: E402


class Handler(http.server.SimpleHTTPRequestHandler):
    # .mjs must be JavaScript (module workers refuse anything else); .wasm streams compile faster.
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".mjs": "text/javascript", ".js": "text/javascript",
                      ".wasm": "application/wasm", ".whl": "application/zip", ".json": "application/json"}
    prefix = "/"
    served = None  # a list, to collect the path of every file sent (the tests and the benchmark count downloads)

    def translate_path(self, path):
        # The site uses relative URLs only, so it can live under any sub-path, as on a static host.
        if not path.startswith(self.prefix):
            return str(Path(self.directory) / "no such file")
        return super().translate_path("/" + path[len(self.prefix):])

    def copyfile(self, source, outputfile):
        if self.served is not None:
            self.served.append(Path(self.translate_path(self.path)))
        super().copyfile(source, outputfile)

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")  # after a rebuild, a reload gets the new files
        super().end_headers()

    def log_message(self, format, *args):
        pass  # one line per file would bury the URL


class Server(http.server.ThreadingHTTPServer):
    daemon_threads = True

    def handle_error(self, request, client_address):
        if not isinstance(sys.exc_info()[1], ConnectionError):  # browsers cancel downloads all the time
            super().handle_error(request, client_address)


def start(directory: Path, port: int = 0, prefix: str = "/") -> tuple[Server, str]:
    """Serve `directory` under `prefix` on 127.0.0.1 from a daemon thread; returns (server, URL)."""
    handler = type("SiteHandler", (Handler,), {"prefix": prefix})
    server = Server(("127.0.0.1", port), functools.partial(handler, directory=str(directory)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}{prefix}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--prefix", default="/", help="serve under this sub-path, e.g. /course/")
    args = parser.parse_args()
    prefix = "/" + args.prefix.strip("/") + "/" if args.prefix.strip("/") else "/"
    try:  # Ctrl-C, during the build or while serving, ends with one word, not a traceback
        build.main()
        try:
            _, url = start(build.OUT, args.port, prefix)
        except OSError as error:
            sys.exit(f"cannot listen on 127.0.0.1:{args.port}: {error.strerror}; try: make serve PORT=8001")
        print(f"\nThe course is at {url}  (the lessons: each opens on its own page, with its own Python)\n"
              f"JupyterLab, every lesson in one window: {url}lab/index.html  (Ctrl-C stops the server)", flush=True)
        threading.Event().wait()
    except KeyboardInterrupt:
        print("\nstopped")


if __name__ == "__main__":
    main()
