/**
 * One fixture project per finding (fixtures/doctor/<id>/): doctor finds
 * exactly the problems the fixture is made of, with their ids, and exits 1
 * exactly when one of them is an error (by the severity its check declares).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { allChecks } from "../../src/doctor/checks/index.js";

const checks = await allChecks();

import { copyProject, doctorFixtures, doctorJson, problemIds, readMeta } from "./helpers.js";

let server: Server;
let base = "";

beforeAll(async () => {
  // A discovery endpoint that names another issuer than the one asked for.
  server = createServer((request, response) => {
    if (request.url?.endsWith("/.well-known/openid-configuration")) {
      response.setHeader("content-type", "application/json");
      response.end(JSON.stringify({ issuer: `${base}/realms/other` }));
    } else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe("doctor fixtures", () => {
  // The ones whose finding is in a live database run in the db layer (published-adapters.db.test.ts).
  const names = doctorFixtures().filter((name) => !readMeta(name).database);

  it("has a fixture for at least twenty findings", () => {
    expect(names.length).toBeGreaterThanOrEqual(20);
  });

  for (const name of names) {
    it(`finds ${name}`, async () => {
      const meta = readMeta(name);
      const dir = copyProject(name, meta);
      const env: Record<string, string> = {};
      const args: string[] = [];
      if (meta.online) {
        args.push("--online");
        // Port 9 (discard) is closed here: nothing answers.
        env.AUTH_KEYCLOAK_ISSUER =
          meta.online === "mismatch" ? `${base}/realms/main` : "http://127.0.0.1:9/realms/main";
      }
      const { exitCode, report } = await doctorJson(dir, args, env);
      const ids = report.findings.map((f) => f.id);
      for (const id of meta.expect) expect(ids).toContain(id);
      const expectedProblems = meta.expect.filter(
        (id) => report.findings.find((f) => f.id === id)?.severity !== "info",
      );
      expect(problemIds(report)).toEqual([...expectedProblems].sort());
      // From what the fixture is made of, not from the summary doctor computed itself.
      const severity = (id: string) => checks.find((check) => check.id === id)?.severity;
      expect(meta.expect.map(severity)).not.toContain(undefined);
      expect(exitCode).toBe(meta.expect.some((id) => severity(id) === "error") ? 1 : 0);
      for (const finding of report.findings) {
        expect(finding.message).not.toMatch(/\n/);
        expect(finding.fix.length).toBeGreaterThan(0);
      }
    });
  }
});
