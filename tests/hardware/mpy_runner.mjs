// Runs the seat-device firmware logic under the real MicroPython (WebAssembly build) on Node.js.
//
//   node mpy_runner.mjs FIRMWARE_DIR HARNESS.py
//
// Copies the firmware modules (all but main.py and hal.py, which need the Pico) and the harness
// into MicroPython's in-memory filesystem, then answers one JSON request per stdin line with one
// JSON line on stdout (harness.handle). MicroPython's own prints go to stderr.
import { readFileSync, readdirSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = dirname(fileURLToPath(import.meta.url));
const pkg = process.env.MPY_WASM_MJS ||
  resolve(here, "../../hardware/.node/node_modules/@micropython/micropython-webassembly-pyscript/micropython.mjs");
const { loadMicroPython } = await import(pathToFileURL(pkg).href);

const [firmwareDir, harnessPath] = process.argv.slice(2);
const mp = await loadMicroPython({
  heapsize: 8 * 1024 * 1024,
  stdout: (line) => process.stderr.write(`mpy: ${line}\n`),
  stderr: (line) => process.stderr.write(`mpy: ${line}\n`),
});
mp.FS.mkdir("/fw");
mp.FS.mkdir("/flash");
for (const name of readdirSync(firmwareDir)) {
  if (!name.endsWith(".py") || name === "main.py" || name === "hal.py") continue;
  mp.FS.writeFile(`/fw/${name}`, readFileSync(join(firmwareDir, name)));
}
mp.FS.writeFile(`/fw/${basename(harnessPath)}`, readFileSync(harnessPath));
mp.runPython("import sys\nsys.path.insert(0, '/fw')");
const harness = mp.pyimport(basename(harnessPath, ".py"));
process.stdout.write(JSON.stringify({ ready: harness.version() }) + "\n");

const rl = createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of rl) {
  if (!line.trim()) continue;
  let reply;
  try {
    reply = harness.handle(line);
  } catch (err) {
    reply = JSON.stringify({ error: String(err) });
  }
  process.stdout.write(reply + "\n");
}
