/**
 * The launcher's code cache (src/lib/compile-cache.ts), through the real CLI:
 * what it writes, when, that a second run reuses it, and that a broken cache
 * costs nothing but speed.
 */
import { cpSync, existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cli, fixture, tempDir } from "../helpers.js";

function nextApp(): string {
  const dir = tempDir("create-auth-app-");
  cpSync(fixture("projects", "next-app"), dir, { recursive: true });
  return dir;
}

const cacheFiles = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);
const mtimes = (dir: string) => Object.fromEntries(cacheFiles(dir).map((f) => [f, statSync(join(dir, f)).mtimeMs]));

async function addSocial(cache: string, extraEnv: Record<string, string> = {}) {
  const app = nextApp();
  const result = await cli(["add-provider", "social", "--api-version", "5.126"], {
    cwd: app,
    env: { CREATE_AUTH_COMPILE_CACHE: cache, ...extraEnv },
  });
  expect(result.stderr).toBe("");
  expect(result.exitCode).toBe(0);
  return readFileSync(join(app, "src", "auth.ts"), "utf8");
}

describe("compile cache", () => {
  it("is written by a command's first successful run and reused, unchanged, by the next", async () => {
    const cache = tempDir("create-auth-cache-");
    const first = await addSocial(cache);
    const written = mtimes(cache);
    expect(Object.keys(written)).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^add-provider--create-auth\.cjs--[0-9a-f]{16}$/),
        expect.stringMatching(/^add-provider--typescript\.js--[0-9a-f]{16}$/),
        expect.stringMatching(/^add-provider--ts-morph\.js--[0-9a-f]{16}$/),
      ]),
    );
    // Accepted caches are not rewritten: a rejected one would get a new mtime.
    const second = await addSocial(cache);
    expect(mtimes(cache)).toEqual(written);
    expect(second).toBe(first);
  });

  it("keeps ts-morph out of commands that do not edit a config", async () => {
    const cache = tempDir("create-auth-cache-");
    const env = { CREATE_AUTH_COMPILE_CACHE: cache };
    expect((await cli(["--help"], { env })).exitCode).toBe(0);
    expect((await cli(["verify-adapter", fixture("modules", "cjs-factory.cjs")], { env })).exitCode).toBe(0);
    const files = cacheFiles(cache);
    expect(files).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^other--create-auth\.cjs--/),
        expect.stringMatching(/^verify-adapter--create-auth\.cjs--/),
      ]),
    );
    expect(files.filter((f) => /typescript|ts-morph/.test(f))).toEqual([]);
    // Only the CLI's own files and named packages are cached, never the user's modules.
    expect(files.filter((f) => f.includes("cjs-factory"))).toEqual([]);
  });

  it("survives a corrupt cache: V8 rejects it, the command's output is the same, and the cache is rewritten", async () => {
    const cache = tempDir("create-auth-cache-");
    const clean = await addSocial(cache);
    for (const file of cacheFiles(cache)) writeFileSync(join(cache, file), "not a code cache");
    expect(await addSocial(cache)).toBe(clean);
    const rewritten = cacheFiles(cache).filter(
      (file) => readFileSync(join(cache, file), "utf8") !== "not a code cache",
    );
    expect(rewritten).toEqual(cacheFiles(cache));
  });

  it("does not get in the way when its folder cannot be created", async () => {
    const file = join(tempDir("create-auth-cache-"), "a-file");
    writeFileSync(file, "");
    // addSocial asserts exit 0 and an empty stderr.
    expect(await addSocial(join(file, "cache"))).toContain("./providers/vk");
  });

  it("writes nothing for a failed run, or when NODE_DISABLE_COMPILE_CACHE is set", async () => {
    const failed = tempDir("create-auth-cache-");
    const bad = await cli(["add-provider", "social", "--api-version", "abc"], {
      cwd: nextApp(),
      env: { CREATE_AUTH_COMPILE_CACHE: failed },
    });
    expect(bad.exitCode).toBe(2);
    expect(cacheFiles(failed)).toEqual([]);

    const disabled = tempDir("create-auth-cache-");
    await addSocial(disabled, { NODE_DISABLE_COMPILE_CACHE: "1" });
    expect(cacheFiles(disabled)).toEqual([]);
  });
});
