"""Run by compile_wheels.mjs inside Pyodide itself (so the bytecode is exactly Pyodide's Python):
rewrite each wheel with its modules compiled to .pyc in place of .py, as Pyodide ships its own
packages. Importing IPython and friends then skips compiling them at every kernel start (seconds).
Arguments: pairs of (source wheel, destination wheel) paths, under /host (the machine's /).
"""
import importlib.util
import os
import sys
import warnings
import zipfile

SITE = f"/lib/python{sys.version_info[0]}.{sys.version_info[1]}/site-packages/"
warnings.simplefilter("ignore")  # old escape sequences in packages' own tests are not our business


def pyc(source: bytes, name: str) -> bytes | None:
    try:
        code = compile(source, SITE + name, "exec", dont_inherit=True)
    except SyntaxError:
        return None  # e.g. a template that is not Python: ship it as it is
    return importlib._bootstrap_external._code_to_timestamp_pyc(code, 0, 0)


def rewrite(src: str, dst: str) -> None:
    with zipfile.ZipFile(src) as old, zipfile.ZipFile(dst + ".part", "w", zipfile.ZIP_DEFLATED) as new:
        compiled = set()
        for item in old.infolist():
            data = old.read(item)
            if item.filename.endswith(".py") and ".dist-info/" not in item.filename:
                code = pyc(data, item.filename)
                if code is not None:
                    compiled.add(item.filename)
                    new.writestr(zipfile.ZipInfo(item.filename + "c", item.date_time), code, zipfile.ZIP_DEFLATED)
                    continue
            if item.filename.endswith(".dist-info/RECORD"):  # the .pyc files, without hashes (allowed)
                lines = [f"{line.split(',')[0]}c,," if line.split(",")[0] in compiled else line
                         for line in data.decode().splitlines()]
                data = ("\n".join(lines) + "\n").encode()
            new.writestr(item, data)
    os.chmod(dst + ".part", 0o644)
    os.replace(dst + ".part", dst)  # an interrupted build leaves no half wheel behind


args = sys.argv[1:]
for source, destination in zip(args[::2], args[1::2]):
    rewrite(source, destination)
