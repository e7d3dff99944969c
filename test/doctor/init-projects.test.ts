/**
 * A fresh `init` for every framework gives doctor nothing to call an error.
 * Here with the backends that need no database server (memory, skeleton);
 * the SQL backends are in doctor.db.test.ts, with their tables migrated.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { frameworks } from "../../src/frameworks/index.js";
import { inProcess, tempDir } from "../helpers.js";
import { doctorJson } from "./helpers.js";

export async function freshInit(framework: string, backend: string, providers = "credentials,email,passkey") {
  const dir = tempDir("create-auth-doctor-init-");
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "app", private: true })}\n`);
  const init = await inProcess([
    "init",
    "--yes",
    "--no-install",
    "--dir",
    dir,
    "--framework",
    framework,
    "--backend",
    backend,
    "--providers",
    providers,
  ]);
  expect(init.exitCode, init.stderr).toBe(0);
  return dir;
}

describe("doctor on a fresh init", () => {
  for (const framework of frameworks) {
    for (const backend of ["memory", "skeleton"]) {
      it(`${framework} with ${backend}: no errors`, async () => {
        const dir = await freshInit(framework, backend);
        const { exitCode, report } = await doctorJson(dir);
        expect(report.findings.filter((f) => f.severity === "error")).toEqual([]);
        expect(exitCode).toBe(0);
      });
    }
  }
});
