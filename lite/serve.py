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

    def translate_path(self, path):
        # The site uses relative URLs only, so it can live under any sub-path, as on a static host.
        if not path.startswith(self.prefix):
            return str(Path(self.directory) / "no such file")
        return super().translate_path("/" + path[len(self.prefix):])

    def end_headers(self):
        self.send_header("Cache-Control", "no-cache")  # after a rebuild, a reload gets the new files
        super().end_headers()

    def log_message(self, format, *args):
        pass  # one line per file would bury the URL


def start(directory: Path, port: int = 0, prefix: str = "/") -> tuple[http.server.ThreadingHTTPServer, str]:
    """Serve `directory` under `prefix` on 127.0.0.1 from a daemon thread; returns (server, URL)."""
    handler = type("SiteHandler", (Handler,), {"prefix": prefix})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), functools.partial(handler, directory=str(directory)))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, f"http://127.0.0.1:{server.server_port}{prefix}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--prefix", default="/", help="serve under this sub-path, e.g. /course/")
    args = parser.parse_args()
    prefix = "/" + args.prefix.strip("/") + "/" if args.prefix.strip("/") else "/"
    build.main()
    try:
        server, url = start(build.OUT, args.port, prefix)
    except OSError as error:
        sys.exit(f"cannot listen on 127.0.0.1:{args.port}: {error.strerror}; try: make serve PORT=8001")
    print(f"\nThe course is at {url}lab/index.html  (Ctrl-C stops the server)", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.shutdown()
        print("\nstopped")


if __name__ == "__main__":
    main()
