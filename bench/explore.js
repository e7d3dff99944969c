// Model-based exploration: steps and sequences per second on the in-memory
// adapter and on @auth/pg-adapter over local PostgreSQL, many seeds on each
// (any divergence is a false failure: both adapters are correct), and the
// default verify-adapter run's wall time beside `node -e 0`, measured in the
// same run. Usage: npm run build && node bench/explore.js [seconds per adapter]
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { tsImport } from "tsx/esm/api";
import { printTable, time } from "./measure.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const seconds = Number(process.argv[2] ?? 5);
const load = (path) => tsImport(new URL(path, `file://${root}/`).href, import.meta.url);

const { explore } = await load("src/contract/explore/run.ts");

/** Explores one adapter for `ms`, after a short warm-up that is not counted. */
async function rate(name, adapter, ms, warmupMs) {
  const options = { adapter, callTimeoutMs: 10_000, nonce: randomBytes(6).toString("hex") };
  if (warmupMs > 0) await explore({ ...options, seed: 999, timeLimitMs: warmupMs });
  const cpuBefore = process.cpuUsage();
  const result = await explore({ ...options, seed: 1, timeLimitMs: ms });
  const cpu = process.cpuUsage(cpuBefore);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  if (!result.ok) throw new Error(`${name} diverged: ${result.failure?.message}\n${result.failure?.steps.join("\n")}`);
  return {
    name,
    steps: result.steps / (result.durationMs / 1000),
    sequences: result.runs / (result.durationMs / 1000),
    calls: result.calls / (result.durationMs / 1000),
    // On a shared machine wall time includes waiting for a core; CPU time is the work itself.
    stepsPerCpuSecond: result.steps / cpuSeconds,
  };
}

/** Many seeds, a short budget each: how many diverge (each one would be a false failure). */
async function seedsSweep(adapter, seeds, msEach) {
  const diverged = [];
  for (let seed = 100; seed < 100 + seeds; seed++) {
    const result = await explore({
      adapter,
      seed,
      timeLimitMs: msEach,
      callTimeoutMs: 10_000,
      nonce: randomBytes(6).toString("hex"),
    });
    if (!result.ok) diverged.push(`seed ${seed}: ${result.failure?.message}`);
  }
  return diverged;
}

const memoryModule = await load("fixtures/adapters/memory.ts");
const pgModule = await load("fixtures/published/pg-adapter.ts");

const rates = [];
const divergences = [];
rates.push(await rate("in-memory adapter", memoryModule.default(), seconds * 1000, 3000));
divergences.push(...(await seedsSweep(memoryModule.default(), 50, 100)).map((d) => `memory ${d}`));
await pgModule.setup();
try {
  const pgAdapter = await pgModule.default();
  rates.push(await rate("@auth/pg-adapter on PostgreSQL", pgAdapter, seconds * 1000, 500));
  divergences.push(...(await seedsSweep(pgAdapter, 20, 300)).map((d) => `pg-adapter ${d}`));
} finally {
  await pgModule.teardown();
}

console.log(`\nexploration throughput (node ${process.version}, ${seconds} s per adapter after a warm-up)`);
console.log(
  `${"adapter".padEnd(34)} ${"steps/s".padStart(10)} ${"sequences/s".padStart(12)} ${"calls/s".padStart(10)} ${"steps/cpu-s".padStart(12)}  target`,
);
let met = true;
for (const r of rates) {
  const target = r.name.startsWith("in-memory") ? 20_000 : undefined;
  const verdict = target === undefined ? "" : `≥ ${target} steps/s ${r.steps >= target ? "met" : "MISSED"}`;
  met &&= target === undefined || r.steps >= target;
  console.log(
    `${r.name.padEnd(34)} ${r.steps.toFixed(0).padStart(10)} ${r.sequences.toFixed(0).padStart(12)} ${r.calls.toFixed(0).padStart(10)} ${r.stepsPerCpuSecond.toFixed(0).padStart(12)}  ${verdict}`,
  );
}
console.log(`\nmany seeds (50 on memory, 20 on pg-adapter): ${divergences.length} diverged`);
for (const d of divergences) console.log(`  ${d}`);

const runs = 5;
const baseline = time("node", ["-e", "0"], { runs, cwd: root });
const tableMet = printTable(`verify-adapter default run, median of ${runs} cold runs`, baseline, [
  {
    name: "verify-adapter memory.ts (default run, lifetimes left out)",
    ms: time(
      "node",
      ["bin/create-auth.js", "verify-adapter", "fixtures/adapters/memory.ts", "--seed", "1", "--skip", "*.lifetime.*"],
      {
        runs,
        cwd: root,
      },
    ),
    target: 5,
  },
]);
process.exitCode = met && tableMet && divergences.length === 0 ? 0 : 1;
