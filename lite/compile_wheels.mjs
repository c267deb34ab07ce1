// node compile_wheels.mjs PYODIDE_DIR SRC.whl DST.whl ...: runs compile_wheels.py in that Pyodide,
// with the machine's / mounted at /host (paths must be absolute).
import { readFileSync } from "node:fs";
const [pyodideDir, ...wheels] = process.argv.slice(2);
const { loadPyodide } = await import(pyodideDir + "/pyodide.mjs");
const pyodide = await loadPyodide({ indexURL: pyodideDir + "/", stdout: console.log, stderr: console.error });
pyodide.FS.mkdirTree("/host");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: "/" }, "/host");
pyodide.pyimport("sys").argv = pyodide.toPy(["compile_wheels.py", ...wheels.map((path) => "/host" + path)]);
pyodide.runPython(readFileSync(new URL("compile_wheels.py", import.meta.url), "utf8"));
