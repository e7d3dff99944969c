// What an adapter call costs now that verify-adapter's run lives in the
// command and the adapter in the worker: microseconds per call across the
// process boundary, beside the same call made in one process, and how many
// calls the default run makes. Usage: npm run build && node bench/adapter-call.js [calls]
import { fileURLToPath } from "node:url";
import { median } from "./measure.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const calls = Number(process.argv[2] ?? 5000);
const { openWorker } = await import(`${root}dist/contract/isolation/supervisor.js`);
const { runVerification } = await import(`${root}dist/contract/run/verification.js`);
const { allCases } = await import(`${root}dist/contract/cases/index.js`);

const io = { env: process.env, err: process.stderr };
const opened = await openWorker(
  { type: "load", modulePath: "fixtures/adapters/memory.ts", cwd: root },
  { setupMs: 30_000, teardownMs: 10_000 },
  io,
);
if (opened.kind !== "ready") throw new Error(opened.message);
const remote = opened.session.adapter;
const user = await remote.createUser({ id: "u", email: "bench@example.com", emailVerified: null });

/** Median µs per call over five rounds of `calls` sequential calls. */
async function perCall(adapter) {
  const rounds = [];
  for (let round = 0; round < 5; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) await adapter.getUser(user.id);
    rounds.push(Number(process.hrtime.bigint() - started) / 1e3 / calls);
  }
  return median(rounds);
}

// The same shape of call without the boundary: a store lookup and a copy, as the memory adapter does.
const store = new Map([[user.id, user]]);
const local = { getUser: async (id) => structuredClone(store.get(id) ?? null) };

const remoteUs = await perCall(remote);
const localUs = await perCall(local);

const pipeline = (adapter) =>
  runVerification({
    adapter,
    selection: { cases: allCases, parts: ["explore"] },
    seed: 1,
    nonce: "bench",
    timeoutMs: 5000,
    concurrency: 1,
    require: [],
    strict: false,
    explore: { runs: 40, timeLimitMs: 120_000 },
    modulePath: "./fixtures/adapters/memory.ts",
    exportName: "default",
    onEvent: () => undefined,
  });

// The default run's calls, counted on their way to the worker.
let counted = 0;
const port = opened.session.port;
const counting = {
  ...port,
  call(...args) {
    counted++;
    return port.call(...args);
  },
};
const started = performance.now();
await pipeline(counting);
const runMs = performance.now() - started;
await opened.session.close();

// The same run with the adapter in this process, as create-auth/vitest runs it: what the boundary costs.
const { tsImport } = await import("tsx/esm/api");
const memory = await tsImport(`${root}fixtures/adapters/memory.ts`, import.meta.url);
const inProcessStarted = performance.now();
await pipeline(memory.default());
const inProcessMs = performance.now() - inProcessStarted;

console.log(`\nadapter calls, median of 5 rounds of ${calls} (node ${process.version})`);
console.log(`${"getUser across the process boundary".padEnd(52)} ${remoteUs.toFixed(1).padStart(8)} µs/call`);
console.log(`${"the same lookup in one process".padEnd(52)} ${localUs.toFixed(1).padStart(8)} µs/call`);
// Lookups and crowds go out together, so the run costs far less than calls × the sequential figure.
console.log(
  `${"default run (cases, 40 sequences, a crowd)".padEnd(52)} ${String(counted).padStart(8)} calls in ${runMs.toFixed(0)} ms`,
);
console.log(`${"the same run with the adapter in this process".padEnd(52)} ${inProcessMs.toFixed(0).padStart(8)} ms`);
