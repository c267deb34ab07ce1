"""Command line: `python -m agentloop serve [--host 127.0.0.1] [--port 8080]`."""
import argparse

from . import server


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m agentloop")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the teaching model as an OpenAI-compatible API")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8080, help="port (default: 8080; 0 picks a free one)")
    args = parser.parse_args(argv)
    if args.command == "serve":
        server.main(args.host, args.port)


if __name__ == "__main__":
    main()
