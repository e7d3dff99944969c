/**
 * A fresh `init` for every framework gives doctor nothing to call an error.
 * Here with the backends that need no database server (memory, skeleton);
 * the SQL backends are in doctor.db.test.ts, with their tables migrated.
 */
import { describe, expect, it } from "vitest";
import { frameworkIds as frameworks } from "../../src/frameworks/registry.js";
import { doctorJson, freshInit } from "./helpers.js";

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
