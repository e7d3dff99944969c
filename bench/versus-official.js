// verify-adapter beside the official Auth.js adapter suite, on the same adapters:
// the floor a call across two processes cannot go below (a bare ping-pong over
// a pipe), what one call across verify-adapter's worker boundary costs, and the
// cold wall time and adapter calls of verify-adapter's default run beside the
// official suite run by vitest (runBasicTests of packages/utils/adapter.ts),
// alternated round by round, medians of at least five rounds. The official suite is read from a
// checkout of the next-auth repository whose path you give; nothing of it is
// kept in this repository (it is copied into a temporary folder per run).
//
// Usage: npm run build && node bench/versus-official.js /path/to/next-auth [rounds]
// Another Node: /path/to/node bench/versus-official.js ... (every process uses it).
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median } from "./measure.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const [checkout, roundsArg] = process.argv.slice(2);
const suiteSource = checkout && join(checkout, "packages", "utils", "adapter.ts");
if (!suiteSource || !existsSync(suiteSource)) {
  console.error("usage: node bench/versus-official.js /path/to/next-auth [rounds]");
  console.error("  (a checkout of github.com/nextauthjs/next-auth: packages/utils/adapter.ts is read from it)");
  process.exit(2);
}
const rounds = Number(roundsArg ?? 9);
if (!Number.isInteger(rounds) || rounds < 5) {
  console.error("rounds: a whole number of at least 5 (a median of fewer says little on a shared machine)");
  process.exit(2);
}
const work = mkdtempSync(join(tmpdir(), "create-auth-versus-"));
const node = process.execPath;

/** Round trips of 8 bytes between this process and a child that echoes them, over pipes: µs each, median of 5. */
async function pingPongFloor(trips = 5000) {
  const echo = `process.stdin.on("data", (b) => require("node:fs").writeSync(3, b));`;
  const child = spawn(node, ["-e", echo], { stdio: ["pipe", "inherit", "inherit", "pipe"] });
  const back = child.stdio[3];
  const ping = Buffer.alloc(8, 1);
  const once = () =>
    new Promise((resolve) => {
      let got = 0;
      const onData = (chunk) => {
        got += chunk.length;
        if (got >= ping.length) {
          back.off("data", onData);
          resolve();
        }
      };
      back.on("data", onData);
      child.stdin.write(ping);
    });
  const samples = [];
  for (let round = 0; round < 6; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < trips; i++) await once();
    // The first round warms both processes up and is not counted.
    if (round > 0) samples.push(Number(process.hrtime.bigint() - started) / 1e3 / trips);
  }
  child.kill();
  return median(samples);
}

/** Sequential getUser calls across verify-adapter's worker boundary: µs each, median of 5. */
async function perCallCost(calls = 5000) {
  const { openWorker } = await import(`${root}dist/contract/isolation/supervisor.js`);
  const opened = await openWorker(
    { type: "load", modulePath: "fixtures/adapters/memory.ts", cwd: root },
    { setupMs: 30_000, teardownMs: 10_000 },
    { env: process.env, err: process.stderr },
  );
  if (opened.kind !== "ready") throw new Error(opened.message);
  const adapter = opened.session.adapter;
  const user = await adapter.createUser({ id: "u", email: "bench@example.test", emailVerified: null });
  const samples = [];
  for (let round = 0; round < 6; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) await adapter.getUser(user.id);
    if (round > 0) samples.push(Number(process.hrtime.bigint() - started) / 1e3 / calls);
  }
  await opened.session.close();
  return median(samples);
}

// The official suite's test file: runBasicTests over the fixture, with the `db` helpers it asks for
// (reads that bypass the adapter: SQL on the pg fixture's schema, the adapter's own getters in memory).
const harness = (fixture, kind) => `
import { writeFileSync } from "node:fs";
import { afterAll } from "vitest";
import { mapExpiresAt } from "@auth/pg-adapter";
import { runBasicTests } from "./adapter.ts";
import * as fixture from ${JSON.stringify(fixture)};

await fixture.setup?.();
const raw = await fixture.default();
let calls = 0;
const adapter = {};
for (const [name, method] of Object.entries(raw))
  adapter[name] = async (...args) => { calls++; return method.apply(raw, args); };
afterAll(() => { if (process.env.BENCH_CALLS_FILE) writeFileSync(process.env.BENCH_CALLS_FILE, String(calls)); });

const one = async (sql, values) => (await fixture.database.pool().query(sql, values)).rows[0] ?? null;
const sqlDb = {
  user: (id) => one("select * from users where id = $1", [id]),
  account: async ({ provider, providerAccountId }) => {
    const row = await one('select * from accounts where provider = $1 and "providerAccountId" = $2', [provider, providerAccountId]);
    return row && mapExpiresAt(row);
  },
  session: (token) => one('select * from sessions where "sessionToken" = $1', [token]),
  verificationToken: ({ identifier, token }) =>
    one("select * from verification_token where identifier = $1 and token = $2", [identifier, token]),
};
const memoryDb = {
  user: (id) => raw.getUser(id),
  account: ({ provider, providerAccountId }) => raw.getAccount(providerAccountId, provider),
  session: async (token) => (await raw.getSessionAndUser(token))?.session ?? null,
  // The memory store has no read that leaves a token in place: use it, then put it back.
  verificationToken: async (key) => {
    const found = await raw.useVerificationToken(key);
    if (found) await raw.createVerificationToken(found);
    return found;
  },
  authenticator: (id) => raw.getAuthenticator(id),
};

runBasicTests({
  adapter,
  db: { ...(${JSON.stringify(kind)} === "pg" ? sqlDb : memoryDb), disconnect: () => fixture.teardown?.() },
  testWebAuthnMethods: ${JSON.stringify(kind)} !== "pg",
});
`;

function officialProject(name, fixture, kind) {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "adapter.ts"), readFileSync(suiteSource, "utf8"));
  writeFileSync(join(dir, "official.test.ts"), harness(fixture, kind));
  writeFileSync(join(dir, "vitest.config.mjs"), "export default { test: { include: ['official.test.ts'] } };\n");
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

// The default run's target beside the official suite's wall time: in memory both are mostly process start-up;
// on PostgreSQL ours makes a hundred times the calls, side by side where they own their records.
const adapters = [
  {
    name: "in-memory reference adapter",
    fixture: join(root, "fixtures/adapters/memory.ts"),
    kind: "memory",
    target: 1.2,
  },
  {
    name: "@auth/pg-adapter on PostgreSQL",
    fixture: join(root, "fixtures/published/pg-adapter.ts"),
    kind: "pg",
    target: 1.5,
  },
];

// A build from before the lifetime cases existed has none to leave out (its figures are the "before" ones).
const bin = join(root, "bin", "create-auth.js");
const hasLifetimes = spawnSync(node, [bin, "verify-adapter", "--list"], { encoding: "utf8" }).stdout.includes(
  ".lifetime.",
);

const commands = adapters.flatMap(({ name, fixture, kind, target }) => {
  const project = officialProject(kind, fixture, kind);
  const vitest = join(root, "node_modules", "vitest", "vitest.mjs");
  const ours = (suite, extra) => ({
    adapter: name,
    suite,
    target,
    args: [bin, "verify-adapter", join(root, "bench", "counted-adapter.ts"), "--seed", "1", ...extra],
    cwd: root,
    env: { BENCH_ADAPTER: fixture },
  });
  return [
    { adapter: name, suite: "official suite (vitest run)", args: [vitest, "run"], cwd: project, env: {} },
    ours("verify-adapter, default run", []),
    // The lifetime cases let about a second of real time pass beside the rest: this is the rest.
    ...(hasLifetimes ? [ours("verify-adapter, default run, lifetimes left out", ["--skip", "*.lifetime.*"])] : []),
  ];
});

function run(command, extraEnv = {}) {
  const started = process.hrtime.bigint();
  const result = spawnSync(node, command.args, {
    cwd: command.cwd,
    env: { ...process.env, NO_COLOR: "1", CI: "true", ...command.env, ...extraEnv },
    encoding: "utf8",
  });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (result.status !== 0)
    throw new Error(
      `${command.suite} on ${command.adapter} exited ${result.status}:\n${result.stdout}\n${result.stderr}`,
    );
  return ms;
}

/** Calls each suite makes, counted once (not in the timed rounds). */
function countCalls(command) {
  const file = join(work, "calls.txt");
  rmSync(file, { force: true });
  run(command, { BENCH_CALLS_FILE: file });
  return Number(readFileSync(file, "utf8"));
}

const loadAtStart = loadavg()[0];
try {
  const floor = await pingPongFloor();
  const perCall = await perCallCost();
  const calls = commands.map(countCalls);
  const samples = commands.map(() => []);
  const baseline = [];
  for (let round = 0; round < rounds; round++) {
    baseline.push(run({ args: ["-e", "0"], cwd: root, env: {} }));
    for (const [i, command] of commands.entries()) samples[i].push(run(command));
  }
  const ms = samples.map(median);

  console.log(
    `\nverify-adapter beside the official Auth.js suite (node ${process.version}, ${rounds} alternated rounds, medians; load average ${loadAtStart.toFixed(1)} at the start, ${loadavg()[0].toFixed(1)} at the end)`,
  );
  console.log(`${"node -e 0".padEnd(60)} ${median(baseline).toFixed(0).padStart(7)} ms`);
  console.log(
    `${"ping-pong between two processes over a pipe (the floor)".padEnd(60)} ${floor.toFixed(1).padStart(7)} µs`,
  );
  const perCallMet = perCall <= floor * 1.5;
  console.log(
    `${"a call across verify-adapter's worker boundary".padEnd(60)} ${perCall.toFixed(1).padStart(7)} µs  ${(perCall / floor).toFixed(2)}× the floor, target ≤ 1.5× ${perCallMet ? "met" : "MISSED"}`,
  );
  console.log(`\n${"adapter / suite".padEnd(60)} ${"wall ms".padStart(7)} ${"calls".padStart(7)}  target`);
  let met = perCallMet;
  for (const [i, command] of commands.entries()) {
    if (command.suite.startsWith("official")) {
      console.log(command.adapter);
      console.log(`  ${command.suite.padEnd(58)} ${ms[i].toFixed(0).padStart(7)} ${String(calls[i]).padStart(7)}`);
      continue;
    }
    const official = commands.findIndex((c) => c.adapter === command.adapter);
    const ratio = ms[i] / ms[official];
    const fast = ratio <= command.target;
    const more = calls[i] >= calls[official] * 10;
    met &&= fast && more;
    console.log(
      `  ${command.suite.padEnd(58)} ${ms[i].toFixed(0).padStart(7)} ${String(calls[i]).padStart(7)}  ` +
        `${ratio.toFixed(2)}× the wall time, target ≤ ${command.target}× ${fast ? "met" : "MISSED"}; ≥ 10× the calls ${more ? "met" : "MISSED"} (${(calls[i] / calls[official]).toFixed(0)}×)`,
    );
  }
  process.exitCode = met ? 0 : 1;
} finally {
  rmSync(work, { recursive: true, force: true });
}
