// Shared by the bench scripts: cold wall time of a command, median of N runs.
import { spawnSync } from "node:child_process";

export function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Runs `command` `runs` times in fresh processes; returns the median in ms.
 * "node" is the Node running the bench, so `/path/to/node22 bench/x.js`
 * measures Node 22, baseline included.
 */
export function time(command, args, { runs = 7, cwd, env, expectExit = 0, before } = {}) {
  const samples = [];
  for (let i = 0; i < runs; i++) {
    // Untimed per-run preparation, e.g. a fresh project to edit.
    if (before) cwd = before(i) ?? cwd;
    // `env` may be a function, for a per-run environment (also untimed).
    const runEnv = typeof env === "function" ? env(i) : env;
    const started = process.hrtime.bigint();
    const result = spawnSync(command === "node" ? process.execPath : command, args, {
      cwd,
      env: { ...process.env, NO_COLOR: "1", ...runEnv },
      encoding: "utf8",
    });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    if (result.status !== expectExit) {
      throw new Error(`${command} ${args.join(" ")} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
    }
    samples.push(ms);
  }
  return median(samples);
}

/** Prints one row per measurement with its ratio to the baseline and the target. */
export function printTable(title, baseline, rows) {
  console.log(`\n${title}`);
  console.log(`${"measurement".padEnd(52)} ${"median ms".padStart(10)} ${"× node -e 0".padStart(12)}  target`);
  console.log(`${"node -e 0".padEnd(52)} ${baseline.toFixed(1).padStart(10)} ${"1.00".padStart(12)}`);
  let allMet = true;
  for (const { name, ms, target } of rows) {
    const ratio = ms / baseline;
    const met = target === undefined || ratio <= target;
    allMet &&= met;
    const verdict = target === undefined ? "" : `≤ ${target}× ${met ? "met" : "MISSED"}`;
    console.log(`${name.padEnd(52)} ${ms.toFixed(1).padStart(10)} ${ratio.toFixed(2).padStart(12)}  ${verdict}`);
  }
  return allMet;
}
