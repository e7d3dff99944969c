/**
 * Each framework's doctor part on the app its users have (fixtures/apps/):
 * right after `init --yes --protect`, doctor has no error to report; with
 * one wiring fault planted by hand, it names that fault by its id.
 */
import { cpSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { doctorJson } from "../doctor/helpers.js";
import { fixture, inProcess, tempDir } from "../helpers.js";
import { appsWith, edit, frameworkAppRows } from "../support/framework-apps.js";

async function initApp(app: string) {
  const dir = tempDir(`create-auth-wiring-${app}-`);
  cpSync(fixture("apps", app), dir, { recursive: true });
  // The in-memory store: the SQL stores' tables are doctor.db.test.ts's business.
  const init = await inProcess(["init", "--yes", "--no-install", "--dir", dir, "--backend", "memory"]);
  expect(init.exitCode, init.stderr).toBe(0);
  return dir;
}

// The faults (how a user breaks each framework's wiring, and the finding it must give) are the apps' table's.
describe.each(frameworkAppRows)("doctor on %s", (app, { fault }) => {
  it("finds no error right after init", async () => {
    const { report } = await doctorJson(await initApp(app));
    expect(report.findings.filter((f) => f.severity === "error")).toEqual([]);
    // The config itself was read, not a module that only hands it to Auth.js.
    expect(report.findings.map((f) => f.id)).not.toContain("config.unreadable");
  });

  it(`finds the planted wiring fault: ${fault.id}`, async () => {
    const dir = await initApp(app);
    fault.plant(dir);
    const { report } = await doctorJson(dir);
    expect(report.findings.map((f) => f.id)).toContain(fault.id);
  });
});

// The env loader taken out of what the Auth.js route imports, where the production server reads no env file.
describe.each(appsWith("envLoader"))("doctor on %s without the env loader", (app, { framework, envLoader }) => {
  it(`finds ${framework}.env-not-loaded, which a fresh init does not give`, async () => {
    const dir = await initApp(app);
    const fresh = await doctorJson(dir);
    expect(fresh.report.findings.map((f) => f.id)).not.toContain(`${framework}.env-not-loaded`);
    edit(join(dir, envLoader.file), (text) => text.replace(envLoader.line, ""));
    const { report } = await doctorJson(dir);
    expect(report.findings.map((f) => f.id)).toContain(`${framework}.env-not-loaded`);
  });
});
