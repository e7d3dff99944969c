// What verify-adapter's design costs before any case runs, beside `node -e 0`
// and the real run, all measured in the same run: a second Node process (the
// worker that alone loads the user's module) and tsx loading a TypeScript
// module in it. On Node 20 tsx has to start a module-loader thread of its own;
// from Node 22.22 and 24.11 its hooks run in the main thread.
// Usage: npm run build && node bench/isolation-floor.js [runs]
// Another Node: /path/to/node bench/isolation-floor.js (every row uses it).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { printTable, time } from "./measure.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const runs = Number(process.argv[2] ?? 9);
// Like verify-adapter's own processes: Node's compile cache (22+) and tsx's cache, in a folder only this user can write.
const caches = mkdtempSync(join(tmpdir(), "create-auth-floor-"));
const opts = { runs, cwd: root };
const floorOpts = { ...opts, env: { NODE_COMPILE_CACHE: caches, TMPDIR: caches } };
const inChild = (code) =>
  `require("node:child_process").spawnSync(process.execPath, ${JSON.stringify(code)}, { stdio: "inherit" })`;
const tsImportMemory = [
  "--input-type=module",
  "-e",
  'await (await import("tsx/esm/api")).tsImport("./fixtures/adapters/memory.ts", import.meta.url)',
];

const baseline = time("node", ["-e", "0"], opts);
printTable(`The floor under verify-adapter, median of ${runs} cold runs (node ${process.version})`, baseline, [
  { name: "a process that starts a second one", ms: time("node", ["-e", inChild(["-e", "0"])], floorOpts) },
  { name: "tsx imports memory.ts (one process)", ms: time("node", tsImportMemory, floorOpts) },
  { name: "... in a second process: the floor", ms: time("node", ["-e", inChild(tsImportMemory)], floorOpts) },
  {
    name: "verify-adapter memory.ts, every case (--explore 0)",
    ms: time(
      "node",
      ["bin/create-auth.js", "verify-adapter", "fixtures/adapters/memory.ts", "--seed", "1", "--explore", "0"],
      opts,
    ),
  },
]);
rmSync(caches, { recursive: true, force: true });
