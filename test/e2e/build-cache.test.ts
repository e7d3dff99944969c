// The browser layer's build cache (build-cache.ts): a build is reused only for the same inputs, laid over the
// new copy as that copy's own (its folder in the files and links), and never when it depends on a value the
// key leaves out. The "build" here writes files itself, as a framework's would.
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers.js";
import { cachedBuild } from "./build-cache.js";

function project(secret: string, source = "export const a = 1;\n"): string {
  const dir = tempDir("create-auth-build-cache-project-");
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "src/a.ts"), source);
  writeFileSync(join(dir, ".env.local"), `AUTH_SECRET=${secret}\nAUTH_URL=http://localhost:3000\n`);
  writeFileSync(join(dir, "stale.txt"), "left by an earlier build\n");
  // As a framework's sync writes before the build (.svelte-kit/tsconfig.json): the folder in an input.
  writeFileSync(join(dir, "generated.json"), JSON.stringify({ root: dir }));
  // What SvelteKit's sync wrote before the build, with the time in it (the build writes it again).
  mkdirSync(join(dir, ".svelte-kit/generated"), { recursive: true });
  writeFileSync(
    join(dir, ".svelte-kit/generated/internal.js"),
    `export const version = "${process.hrtime.bigint()}";\n`,
  );
  // A link an earlier build or dev server left, to a folder of the project.
  symlinkSync(join(dir, "src"), join(dir, "src-link"));
  return dir;
}

/** A build as frameworks make them: output naming the project's folder, a link into it, a file removed. */
function builder(dir: string, extra = "") {
  let runs = 0;
  const build = async () => {
    runs++;
    mkdirSync(join(dir, "out"));
    writeFileSync(join(dir, "out/server.js"), `require(${JSON.stringify(join(dir, "src/a.ts"))});${extra}\n`);
    symlinkSync(join(dir, "src"), join(dir, "out/src"));
    rmSync(join(dir, "stale.txt"));
    return { exitCode: 0, all: "built\n" };
  };
  return { build, runs: () => runs };
}

const run = (
  dir: string,
  build: () => Promise<{ exitCode: number; all: string }>,
  cache: string,
  shell: Record<string, string> = {},
) => cachedBuild(dir, ["node", join(dir, "build.js")], { PATH: "/usr/bin", ...shell }, build, cache);

describe("build cache", () => {
  it("reuses a build of the same files, whatever the env files' values, as the new copy's own", async () => {
    const cache = tempDir("create-auth-build-cache-");
    const first = project("first-secret-0123456789");
    const made = builder(first);
    expect((await run(first, made.build, cache)).reused).toBe(false);

    const second = project("second-secret-987654321");
    const again = builder(second);
    // Started from another folder: the shell's PWD and OLDPWD differ, and no build reads them.
    const result = await run(second, again.build, cache, { PWD: "/elsewhere", OLDPWD: "/before" });
    expect(result).toMatchObject({ exitCode: 0, reused: true });
    expect(result.all).toContain("built");
    expect(again.runs()).toBe(0);
    expect(readFileSync(join(second, "out/server.js"), "utf8")).toBe(
      `require(${JSON.stringify(join(second, "src/a.ts"))});\n`,
    );
    expect(readlinkSync(join(second, "out/src"))).toBe(join(second, "src"));
    expect(existsSync(join(second, "stale.txt"))).toBe(false);
  });

  it("builds again when a file differs, the command differs, or the build failed", async () => {
    const cache = tempDir("create-auth-build-cache-");
    const first = project("first-secret-0123456789");
    await run(first, builder(first).build, cache);

    const changed = project("first-secret-0123456789", "export const a = 2;\n");
    const rebuilt = builder(changed);
    expect((await run(changed, rebuilt.build, cache)).reused).toBe(false);
    expect(rebuilt.runs()).toBe(1);

    const other = project("first-secret-0123456789");
    const otherCommand = builder(other);
    const result = await cachedBuild(other, ["npm", "run", "build"], { PATH: "/usr/bin" }, otherCommand.build, cache);
    expect(result.reused).toBe(false);

    const failing = project("x-secret-0123456789abc", "export const a = 3;\n");
    await run(failing, async () => ({ exitCode: 1, all: "error\n" }), cache);
    const retried = project("x-secret-0123456789abc", "export const a = 3;\n");
    const retry = builder(retried);
    expect((await run(retried, retry.build, cache)).reused).toBe(false);
    expect(retry.runs()).toBe(1);
  });

  it("builds again, and keeps the new build, when an entry cannot be read", async () => {
    const cache = tempDir("create-auth-build-cache-");
    const first = project("first-secret-0123456789");
    await run(first, builder(first).build, cache);
    const [entry] = readdirSync(cache).filter((name) => !name.startsWith("."));
    writeFileSync(join(cache, entry!, "build.json"), '{"removed": [');

    const second = project("second-secret-987654321");
    const again = builder(second);
    expect(await run(second, again.build, cache)).toMatchObject({ exitCode: 0, reused: false });
    expect(again.runs()).toBe(1);
    const third = project("third-secret-0123456789a");
    expect((await run(third, builder(third).build, cache)).reused).toBe(true);
  });

  it("never keeps a build that copied an env file's value into its output", async () => {
    const cache = tempDir("create-auth-build-cache-");
    const first = project("inlined-secret-0123456789");
    const inlining = builder(first, " // inlined-secret-0123456789");
    await run(first, inlining.build, cache);
    const second = project("inlined-secret-0123456789");
    const again = builder(second, " // inlined-secret-0123456789");
    expect((await run(second, again.build, cache)).reused).toBe(false);
    expect(again.runs()).toBe(1);
    expect(existsSync(join(second, "out/server.js"))).toBe(true);
  });

  it("keeps a build whose output holds a value the source has too (a default beside the env file's)", async () => {
    const cache = tempDir("create-auth-build-cache-");
    const withDefault = (secret: string) => {
      const dir = project(secret, 'export const url = process.env.DATABASE_URL ?? "file:./default-auth.db";\n');
      writeFileSync(join(dir, ".env"), "DATABASE_URL=file:./default-auth.db\n");
      return dir;
    };
    const first = withDefault("default-secret-0123456789");
    await run(first, builder(first, ' // "file:./default-auth.db"').build, cache);
    const second = withDefault("other-secret-0123456789ab");
    expect((await run(second, builder(second).build, cache)).reused).toBe(true);
  });

  it("reads a SQLite database by its tables and row counts, not the times its migrations ran", async () => {
    const cache = tempDir("create-auth-build-cache-");
    const withDatabase = (migratedAt: string, table = "user") => {
      const dir = project("db-secret-0123456789abc");
      // Named as the tests leave it while a build runs without it: found by its header, not its name.
      const db = new Database(join(dir, "auth.db.kept"));
      db.exec(`CREATE TABLE ${table} (id TEXT PRIMARY KEY); CREATE TABLE migrations (name TEXT, at TEXT);`);
      db.prepare("INSERT INTO migrations VALUES ('0001', ?)").run(migratedAt);
      db.close();
      return dir;
    };
    const first = withDatabase("2026-01-01T00:00:00Z");
    await run(first, builder(first).build, cache);
    const later = withDatabase("2026-11-29T12:00:00Z");
    expect((await run(later, builder(later).build, cache)).reused).toBe(true);
    const otherSchema = withDatabase("2026-11-29T12:00:00Z", "account");
    expect((await run(otherSchema, builder(otherSchema).build, cache)).reused).toBe(false);
  });
});
