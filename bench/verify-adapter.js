// Cold wall times of the verify-adapter command beside `node -e 0`, measured
// in the same run. Usage: npm run build && node bench/verify-adapter.js [runs]
import { fileURLToPath } from "node:url";
import { printTable, time } from "./measure.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const runs = Number(process.argv[2] ?? 7);
const bin = ["bin/create-auth.js"];
const opts = { runs, cwd: root };

const baseline = time("node", ["-e", "0"], opts);
const rows = [
  { name: "create-auth --help", ms: time("node", [...bin, "--help"], opts), target: 1.5 },
  {
    name: "verify-adapter fixtures/adapters/memory.ts (full run)",
    ms: time("node", [...bin, "verify-adapter", "fixtures/adapters/memory.ts", "--seed", "1"], opts),
    target: 4,
  },
  // Exits 1: the published adapter fails account.link.email-account-without-tokens (expires_at NaN).
  {
    name: "verify-adapter @auth/pg-adapter on PostgreSQL",
    ms: time("node", [...bin, "verify-adapter", "fixtures/published/pg-adapter.ts", "--seed", "1"], {
      ...opts,
      expectExit: 1,
    }),
  },
];
const met = printTable(`verify-adapter, median of ${runs} cold runs (node ${process.version})`, baseline, rows);
process.exitCode = met ? 0 : 1;
