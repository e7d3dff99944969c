/**
 * init in the variants of test/variants/hooks.ts, in-process and without
 * installing: the user's own hooks or middleware file gets Auth.js's handler
 * composed in, keeps their code, is left as it is by a second run, and
 * doctor then finds Auth.js wired. The browser layer's hooks file proves the
 * same projects type-check, build and sign in.
 */
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixture, inProcess, tempDir } from "../helpers.js";
import { hooksVariants } from "./hooks.js";

async function init(dir: string, protect: string | undefined) {
  const args = ["init", "--yes", "--no-install", "--dir", dir, ...(protect ? ["--protect", protect] : [])];
  const result = await inProcess(args);
  expect(result.exitCode, result.stderr).toBe(0);
  return result.stdout;
}

describe.each(hooksVariants)("$name", (variant) => {
  it("init composes Auth.js's handler with theirs, keeps their code, and a second run changes nothing", async () => {
    const dir = tempDir(`create-auth-hooks-${variant.app}-`);
    cpSync(fixture("apps", variant.app), dir, { recursive: true });
    variant.apply(dir);
    const out = await init(dir, variant.protect);
    expect(out).toContain(`updated ${variant.file}`);
    expect(out).not.toContain("was left alone");
    const text = readFileSync(join(dir, variant.file), "utf8");
    expect(text).toContain(variant.kept);
    expect(text).toMatch(variant.composed);

    await init(dir, variant.protect);
    expect(readFileSync(join(dir, variant.file), "utf8")).toBe(text);
    const doctor = await inProcess(["doctor", "--dir", dir, "--json"]);
    const ids = (JSON.parse(doctor.stdout) as { findings: { id: string }[] }).findings.map((f) => f.id);
    expect(ids.filter((id) => /handle|middleware|wiring/.test(id))).toEqual([]);
  });
});
