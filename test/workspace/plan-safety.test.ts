/**
 * applyPlan's guarantees (src/workspace/plan.ts): a failure part-way puts
 * back what it replaced, links are written through, modes are kept. Signals
 * and a killed run, in a real process: plan-signals.process.test.ts.
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
import { describe, expect, it } from "vitest";
import { applyPlan, changeFile } from "../../src/workspace/plan.js";
import { tempDir } from "../helpers.js";

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
