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
    name: "verify-adapter memory.ts, every case (--explore 0)",
    ms: time("node", [...bin, "verify-adapter", "fixtures/adapters/memory.ts", "--seed", "1", "--explore", "0"], opts),
  },
  {
    name: "verify-adapter memory.ts, default, lifetimes left out",
    ms: time(
      "node",
      [...bin, "verify-adapter", "fixtures/adapters/memory.ts", "--seed", "1", "--skip", "*.lifetime.*"],
      opts,
    ),
    // The target holds on Node 24, the LTS users run; Node 20 (no compile cache, tsx's hooks in a thread) is printed for the record.
    target: 7,
  },
  {
    // The lifetime cases let about a second of real time pass, beside the rest of the run.
    name: "verify-adapter memory.ts, default (cases + exploration)",
    ms: time("node", [...bin, "verify-adapter", "fixtures/adapters/memory.ts", "--seed", "1"], opts),
  },
  {
    name: "verify-adapter @auth/pg-adapter on PostgreSQL",
    ms: time("node", [...bin, "verify-adapter", "fixtures/published/pg-adapter.ts", "--seed", "1"], opts),
  },
];
const met = printTable(`verify-adapter, median of ${runs} cold runs (node ${process.version})`, baseline, rows);

// One method never settles: the run should cost about one --timeout, not one per case that needs it.
const timeout = 2000;
const hung = time(
  "node",
  [...bin, "verify-adapter", "fixtures/modules/hostile/one-method-hangs.ts", "--timeout", String(timeout)],
  { runs: 3, cwd: root, expectExit: 1 },
);
const hungMet = hung <= timeout + 2000;
console.log(
  `${"one method never settles (--timeout 2000)".padEnd(52)} ${hung.toFixed(1).padStart(10)} ms  target ≤ timeout + 2000 ms ${hungMet ? "met" : "MISSED"}`,
);
process.exitCode = met && hungMet ? 0 : 1;
