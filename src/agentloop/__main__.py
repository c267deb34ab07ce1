"""Command line: `python -m agentloop serve [--host 127.0.0.1] [--port 8080]`."""
import argparse

from . import server


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m agentloop")
    commands = parser.add_subparsers(dest="command", required=True)
    serve = commands.add_parser("serve", help="serve the teaching model as an OpenAI-compatible API")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default: 127.0.0.1)")
    serve.add_argument("--port", type=int, default=8080, help="port (default: 8080; 0 picks a free one)")
    grade = commands.add_parser("grade", help="grade a class's notebooks (folders or .zip files, named by student)")
    grade.add_argument("paths", nargs="+", metavar="PATH", help="a folder of .ipynb, a .zip of them, or a notebook")
    grade.add_argument("--out", default="results.csv", help="the CSV to write (default: results.csv)")
    grade.add_argument("--timeout", type=float, default=120, help="seconds per notebook (default: 120)")
    grade.add_argument("--cell-timeout", type=float, default=10, help="seconds per cell and per check (default: 10)")
    grade.add_argument("--jobs", type=int, default=1, help="notebooks graded at once (default: 1)")
    args = parser.parse_args(argv)
    if args.command == "serve":
        server.main(args.host, args.port)
    elif args.command == "grade":
        from . import grade as grading  # only the teacher's command needs it
        grading.main(args.paths, args.out, args.timeout, args.cell_timeout, args.jobs)


if __name__ == "__main__":
    main()
