// Cold wall time of `init --yes --no-install` into an empty directory, beside
// `node -e 0` in the same run. Each run gets a fresh directory.
// Usage: npm run build && node bench/init.js [runs]
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { printTable, time } from "./measure.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const runs = Number(process.argv[2] ?? 7);
const fresh = () => mkdtempSync(join(tmpdir(), "create-auth-bench-init-"));

const baseline = time("node", ["-e", "0"], { runs });
const bin = join(root, "bin", "create-auth.js");
const rows = [
  {
    name: "init --yes --no-install (empty dir)",
    ms: time("node", [bin, "init", "--yes", "--no-install"], { runs, before: fresh, env: { CI: "true" } }),
    target: 3,
  },
  {
    name: "init --yes --no-install --schema typeorm --backend postgres",
    ms: time("node", [bin, "init", "--yes", "--no-install", "--schema", "typeorm", "--backend", "postgres"], {
      runs,
      before: fresh,
      env: { CI: "true" },
    }),
  },
];
const met = printTable(`init, median of ${runs} cold runs (node ${process.version})`, baseline, rows);
process.exitCode = met ? 0 : 1;
