// A user's first `npx create-auth`: the packed package fetched into an empty npm cache and run, beside the
// same for Svelte's `sv` (the scaffolder users of this niche hold up), round by round in one run, and what each
// installs (an `npm install` into an empty project). `node -e 0` is printed for scale. The packed package is
// published on a registry in front of the real one (bench/local-registry.js) and both commands go through it,
// so npx fetches create-auth as it fetches any published package.
// Usage: node bench/first-run.js [rounds]   (packs this checkout: its prepack builds dist/)
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { median, time } from "./measure.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const rounds = Number(process.argv[2] ?? 5);
/** sv pinned, so a mirror without dist-tags answers and rounds compare like with like. */
const sv = "sv@0.17.1";
const target = 2;

const scratch = mkdtempSync(join(tmpdir(), "create-auth-bench-first-run-"));
// prepack's build prints before npm's JSON.
const packOutput = execFileSync("npm", ["pack", root, "--pack-destination", scratch, "--json"], {
  cwd: scratch,
  encoding: "utf8",
});
const packed = JSON.parse(packOutput.slice(packOutput.indexOf("[")));
const tarball = join(scratch, packed[0].filename);

const upstream = execFileSync("npm", ["config", "get", "registry"], { encoding: "utf8" }).trim();
const registryProcess = spawn(process.execPath, [join(root, "bench/local-registry.js"), tarball, upstream], {
  stdio: ["ignore", "pipe", "inherit"],
});
const registry = await new Promise((resolve, reject) => {
  registryProcess.stdout.once("data", (line) => resolve(String(line).trim()));
  registryProcess.once("exit", (code) => reject(new Error(`bench/local-registry.js exited ${code}`)));
});

/** A fresh npm cache and folder per run: nothing fetched before counts. */
function coldRun() {
  const cache = mkdtempSync(join(scratch, "cache-"));
  const cwd = mkdtempSync(join(scratch, "cwd-"));
  const env = {
    npm_config_cache: cache,
    npm_config_registry: registry,
    npm_config_update_notifier: "false",
    CI: "true",
  };
  return { cwd, env };
}

function coldNpx(args) {
  const samples = [];
  return {
    run() {
      const { cwd, env } = coldRun();
      samples.push(time("npx", ["--yes", ...args, "--help"], { runs: 1, cwd, env }));
    },
    median: () => median(samples),
  };
}

function installedBytes(spec) {
  const cwd = mkdtempSync(join(scratch, "install-"));
  writeFileSync(join(cwd, "package.json"), '{ "name": "first-run", "private": true }\n');
  execFileSync("npm", ["install", "--no-audit", "--no-fund", spec], { cwd, stdio: "ignore" });
  const folder = join(cwd, "node_modules");
  const packages = readdirSync(folder).filter((n) => !n.startsWith(".")).length;
  const bytes = readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .reduce((sum, e) => sum + statSync(join(e.parentPath, e.name)).size, 0);
  return { bytes, packages };
}

const ours = coldNpx([`${packed[0].name}@${packed[0].version}`]);
/** The same package given to npx by its path: npm's local-file path, which reads the tarball twice before installing. */
const oursFromFile = coldNpx(["--package", tarball, "create-auth"]);
const theirs = coldNpx([sv]);
const baseline = time("node", ["-e", "0"], { runs: 7 });
for (let round = 0; round < rounds; round++) {
  // Alternated, so a slower minute of the registry or the machine falls on both.
  ours.run();
  theirs.run();
  oursFromFile.run();
}
const size = { ours: installedBytes(tarball), theirs: installedBytes(sv) };
registryProcess.kill();
rmSync(scratch, { recursive: true, force: true });

const mb = (bytes) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
const ratio = ours.median() / theirs.median();
console.log(`\nfirst run, cold npm cache, median of ${rounds} alternated rounds (node ${process.version})`);
console.log(`node -e 0                                   ${baseline.toFixed(0).padStart(7)} ms`);
console.log(`npx create-auth --help (packed, published)  ${ours.median().toFixed(0).padStart(7)} ms`);
console.log(`npx ${sv} --help                      ${theirs.median().toFixed(0).padStart(7)} ms`);
console.log(
  `npx --package <tarball> create-auth --help  ${oursFromFile.median().toFixed(0).padStart(7)} ms   (npm's local-file path, for reference: ${(oursFromFile.median() / theirs.median()).toFixed(2)}× sv)`,
);
console.log(
  `create-auth / sv                            ${ratio.toFixed(2).padStart(7)}×   target ≤ ${target}× ${ratio <= target ? "met" : "MISSED"}`,
);
console.log(
  `installed: create-auth ${mb(size.ours.bytes)} in ${size.ours.packages} package(s); ${sv} ${mb(size.theirs.bytes)} in ${size.theirs.packages}`,
);
process.exitCode = ratio <= target ? 0 : 1;
