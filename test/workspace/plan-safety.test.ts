/**
 * applyPlan's guarantees (src/workspace/plan.ts): signals wait for it, a
 * killed run's temporary files are private and cleaned up by the next run,
 * a failure part-way puts back what it replaced, links are written through.
 */

import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { applyPlan, changeFile } from "../../src/workspace/plan.js";
import { root, tempDir } from "../helpers.js";

const temps = (dir: string) => readdirSync(dir).filter((name) => name.endsWith(".tmp"));

/**
 * A child process that applies a plan of `count` files into `dir`, then
 * lingers (long enough that a loaded machine still signals it first). A
 * first, empty apply installs the signal handling, so the announcement
 * comes when a signal can only land in the big apply.
 */
function applyInChild(dir: string, count: number) {
  const plan = pathToFileURL(join(root, "dist/workspace/plan.js")).href;
  const script = `
    import { applyPlan } from ${JSON.stringify(plan)};
    const dir = process.argv[1];
    const changes = Array.from({ length: ${count} }, (_, i) => ({ path: dir + "/f" + i + ".env.local", before: null, after: "SECRET=" + i }));
    applyPlan([]);
    process.stdout.write("applying\\n");
    applyPlan(changes);
    process.stdout.write("applied\\n");
    setTimeout(() => process.stdout.write("still running\\n"), 10_000);`;
  // No forced kill: execa would send SIGKILL 5 s after the signal, and a loaded machine can take that long to apply.
  const child = execa(process.execPath, ["--input-type=module", "-e", script, dir], {
    reject: false,
    forceKillAfterDelay: false,
  });
  const started = new Promise<void>((resolve) => {
    child.stdout!.on("data", (chunk: Buffer) => {
      if (chunk.toString().includes("applying")) resolve();
    });
  });
  return { child, started };
}

describe("applyPlan under signals", () => {
  it.concurrent.for(["SIGINT", "SIGTERM"] as const)(
    "%s during an apply waits for it to finish, then ends the run",
    async (signal, test) => {
      const { expect } = test;
      const dir = tempDir("create-auth-", test);
      const { child, started } = applyInChild(dir, 4000);
      await started;
      child.kill(signal);
      const result = await child;
      expect(result.exitCode).toBe(signal === "SIGINT" ? 130 : 143);
      expect(result.stdout).toContain("applied");
      expect(result.stdout).not.toContain("still running");
      expect(readdirSync(dir)).toHaveLength(4000);
      expect(temps(dir)).toEqual([]);
    },
  );

  it("a killed run leaves only private temporary files, and the next apply there removes them", async () => {
    const dir = tempDir();
    const { child, started } = applyInChild(dir, 4000);
    await started;
    // Kill once staging has begun (polled, so a loaded machine cannot make the kill land before it).
    for (let waited = 0; temps(dir).length === 0 && waited < 10_000; waited += 5) {
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    child.kill("SIGKILL");
    await child;
    const left = temps(dir);
    expect(left.length).toBeGreaterThan(0);
    for (const name of left) expect(statSync(join(dir, name)).mode & 0o777).toBe(0o600);
    applyPlan([changeFile(join(dir, "next.txt"), "x")!]);
    expect(temps(dir)).toEqual([]);
  });
});

describe("applyPlan's files", () => {
  it("creates env files 0600 and other files as the umask says; an existing file keeps its mode", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "shared.env.local"), "A=1\n");
    chmodSync(join(dir, "shared.env.local"), 0o640);
    applyPlan([
      changeFile(join(dir, ".env.local"), "AUTH_SECRET=x\n")!,
      changeFile(join(dir, ".env.example"), "AUTH_SECRET=\n")!,
      changeFile(join(dir, "auth.ts"), "export {};\n")!,
      changeFile(join(dir, "shared.env.local"), "A=1\nB=2\n")!,
    ]);
    const mode = (name: string) => statSync(join(dir, name)).mode & 0o777;
    expect(mode(".env.local")).toBe(0o600);
    expect(mode(".env.example")).toBe(0o666 & ~process.umask());
    expect(mode("auth.ts")).toBe(0o666 & ~process.umask());
    expect(mode("shared.env.local")).toBe(0o640);
  });

  it("writes through a symbolic link to its target, keeping the link and the target's mode", () => {
    const dir = tempDir();
    mkdirSync(join(dir, "secrets"));
    writeFileSync(join(dir, "secrets", "app.env"), "A=1\n", { mode: 0o600 });
    symlinkSync("secrets/app.env", join(dir, ".env.local"));
    applyPlan([changeFile(join(dir, ".env.local"), "A=1\nB=2\n")!]);
    expect(lstatSync(join(dir, ".env.local")).isSymbolicLink()).toBe(true);
    expect(readlinkSync(join(dir, ".env.local"))).toBe("secrets/app.env");
    expect(readFileSync(join(dir, "secrets", "app.env"), "utf8")).toBe("A=1\nB=2\n");
    expect(statSync(join(dir, "secrets", "app.env")).mode & 0o777).toBe(0o600);
  });

  it("refuses to overwrite a file that changed after it was read", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "auth.ts"), "one\n");
    const change = changeFile(join(dir, "auth.ts"), "two\n")!;
    writeFileSync(join(dir, "auth.ts"), "someone else's edit\n");
    expect(() => applyPlan([change])).toThrow(/changed while create-auth was working; nothing was written/);
    expect(readFileSync(join(dir, "auth.ts"), "utf8")).toBe("someone else's edit\n");
  });

  it("a failure part-way leaves no file written, no folder it made and no temporary file behind", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "blocker"), "");
    writeFileSync(join(dir, "auth.ts"), "before\n");
    const plan = [
      changeFile(join(dir, "auth.ts"), "after\n")!,
      changeFile(join(dir, "providers", "deep", "vk.ts"), "vk\n")!,
      // Its folder would have to be a file: fails while staging, after the others were staged.
      { path: join(dir, "blocker", "second.ts"), before: null, after: "2" },
    ];
    expect(() => applyPlan(plan)).toThrow(/Cannot write .*; nothing was written/);
    expect(readdirSync(dir).sort()).toEqual(["auth.ts", "blocker"]);
    expect(readFileSync(join(dir, "auth.ts"), "utf8")).toBe("before\n");
    expect(existsSync(join(dir, "providers"))).toBe(false);
  });
});
