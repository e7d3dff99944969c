// The env files a project loads and their precedence: Vite's order checked against Vite's own loadEnv,
// Next.js's from @next/env's list; values as dotenv reads them, a byte-order mark included.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadEnv } from "vite";
import { describe, expect, it } from "vitest";
import { type EnvMode, envFileNames, envModeOf, fillInSteps, loadedEnvFiles } from "../../src/render/project-env.js";
import { readEnvForWriting, readProjectEnv } from "../../src/workspace/read-env.js";
import { tempDir } from "../helpers.js";

const modes: EnvMode[] = ["development", "production", "test"];

/** Each file assigns CA_<its rank> and CA_SHARED, so which file wins shows in CA_SHARED's value. */
function familyProject(): { dir: string; files: string[] } {
  const dir = tempDir("create-auth-env-order-");
  const files = modes.flatMap((m) => [`.env.${m}.local`, `.env.${m}`]).concat([".env.local", ".env"]);
  files.forEach((file, i) => {
    writeFileSync(join(dir, file), `CA_SHARED=${file}\nCA_ONLY_${i}=${file}\n`);
  });
  return { dir, files };
}

describe("which env files a project loads, and which one wins", () => {
  it.each(modes)("Vite's order (SvelteKit) in %s mode is what Vite's loadEnv does", (mode) => {
    const { dir, files } = familyProject();
    const vite = loadEnv(mode, dir, "CA_");
    const ours = readProjectEnv(dir, { order: "vite", mode });
    expect(ours.get("CA_SHARED")?.value).toBe(vite.CA_SHARED);
    files.forEach((_, i) => {
      expect(ours.get(`CA_ONLY_${i}`)?.value, `CA_ONLY_${i}`).toBe(vite[`CA_ONLY_${i}`]);
    });
  });

  it("Next.js's order: the mode's .local, .env.local (not in test), the mode's file, .env", () => {
    expect(envFileNames("next", "development")).toEqual([
      ".env.development.local",
      ".env.local",
      ".env.development",
      ".env",
    ]);
    expect(envFileNames("next", "production")).toEqual([
      ".env.production.local",
      ".env.local",
      ".env.production",
      ".env",
    ]);
    expect(envFileNames("next", "test")).toEqual([".env.test.local", ".env.test", ".env"]);
    const { dir } = familyProject();
    expect(readProjectEnv(dir, { order: "next", mode: "development" }).get("CA_SHARED")?.value).toBe(
      ".env.development.local",
    );
    // The difference with Vite: .env.local beats .env.production in Next.js, loses to it in Vite.
    writeFileSync(join(dir, ".env.production.local"), "");
    expect(readProjectEnv(dir, { order: "next", mode: "production" }).get("CA_SHARED")?.value).toBe(".env.local");
    expect(readProjectEnv(dir, { order: "vite", mode: "production" }).get("CA_SHARED")?.value).toBe(".env.production");
  });

  it("the mode comes from NODE_ENV, development unless it says production or test", () => {
    expect(envModeOf({})).toBe("development");
    expect(envModeOf({ NODE_ENV: "production" })).toBe("production");
    expect(envModeOf({ NODE_ENV: "test" })).toBe("test");
    expect(envModeOf({ NODE_ENV: "staging" })).toBe("development");
  });

  it("the writers look at every file of development and production", () => {
    expect(loadedEnvFiles("next")).toEqual([
      ".env.development.local",
      ".env.local",
      ".env.development",
      ".env",
      ".env.production.local",
      ".env.production",
    ]);
  });
});

describe("is NAME set, where, with what value", () => {
  it("the environment wins over every file, an empty value included, as every loader keeps it", () => {
    const dir = tempDir("create-auth-env-get-");
    writeFileSync(join(dir, ".env.local"), "DATABASE_URL=\n");
    writeFileSync(join(dir, ".env"), "DATABASE_URL=postgres://db/app\nAUTH_URL=http://localhost:3000\n");
    const env = readProjectEnv(dir, { environment: { AUTH_URL: "" } });
    // An empty line in a file that wins is what the app gets, not the next file's value.
    expect(env.get("DATABASE_URL")).toMatchObject({ value: "", source: ".env.local" });
    expect(env.settings("DATABASE_URL").map((s) => [s.source, s.value])).toEqual([
      [".env.local", ""],
      [".env", "postgres://db/app"],
    ]);
    expect(env.get("AUTH_URL")).toMatchObject({ value: "", source: "environment" });
    expect(env.inFiles("AUTH_URL")).toBe(true);
    expect(env.get("NOWHERE")).toBeUndefined();
    expect(env.names).toEqual([".env.development.local", ".env.local", ".env.development", ".env"]);
  });

  it("a file that starts with a byte-order mark: its first variable is read, as dotenv (in Vite) reads it", () => {
    const dir = tempDir("create-auth-env-bom-");
    writeFileSync(join(dir, ".env"), "\uFEFFCA_FIRST=one\r\nCA_SECOND=two\r\n");
    const ours = readProjectEnv(dir);
    const vite = loadEnv("development", dir, "CA_");
    expect(vite).toMatchObject({ CA_FIRST: "one", CA_SECOND: "two" });
    expect(ours.get("CA_FIRST")?.value).toBe(vite.CA_FIRST);
    expect(ours.get("CA_SECOND")?.value).toBe(vite.CA_SECOND);
  });

  it("values read as dotenv reads them: comments, quotes, lines that run on, CRLF", () => {
    const dir = tempDir("create-auth-env-dotenv-");
    const text = [
      "export CA_A=1",
      "CA_B = two words # a comment",
      "CA_C=abc#def",
      'CA_D="one',
      'two"',
      "CA_E='single # kept'",
      'CA_F="q"x',
      'CA_G="escaped\\nline"',
      "CA_H=",
      "",
    ].join("\r\n");
    writeFileSync(join(dir, ".env"), text);
    const vite = loadEnv("development", dir, "CA_");
    const ours = readProjectEnv(dir);
    for (const name of ["CA_A", "CA_B", "CA_C", "CA_D", "CA_E", "CA_F", "CA_G", "CA_H"])
      expect(ours.get(name)?.value, name).toBe(vite[name]);
  });
});

describe("the env files as facts", () => {
  it("are read once: a file read for the writers is answered from what was read, not from the disk again", () => {
    const dir = tempDir("create-auth-env-once-");
    writeFileSync(join(dir, ".env.local"), "AUTH_SECRET=first\n");
    writeFileSync(join(dir, ".env.example"), "AUTH_SECRET=\n");
    const env = readEnvForWriting(dir, "next");
    writeFileSync(join(dir, ".env.local"), "AUTH_SECRET=changed\n");
    writeFileSync(join(dir, ".env.example"), "changed\n");
    expect(env.get("AUTH_SECRET")?.value).toBe("first");
    expect(env.text(".env.example")).toBe("AUTH_SECRET=\n");
    expect(env.text(".env")).toBeNull();
    // A file the facts were not made with is the caller's mistake, not a quiet read.
    writeFileSync(join(dir, ".env.other"), "X=1\n");
    expect(() => env.text(".env.other")).toThrow(".env.other was not read with the project's env files.");
  });
});

describe("the next steps' lines", () => {
  it("one line per file, saying when lines are to be uncommented", () => {
    expect(
      fillInSteps([
        { name: "AUTH_X_ID", file: ".env.local", commented: true },
        { name: "AUTH_X_SECRET", file: ".env.local", commented: true },
        { name: "EMAIL_SERVER", file: ".env", commented: false },
      ]),
    ).toEqual([
      "Fill in AUTH_X_ID, AUTH_X_SECRET in .env.local (uncomment their lines).",
      "Fill in EMAIL_SERVER in .env.",
    ]);
    expect(fillInSteps([])).toEqual([]);
  });
});
