/**
 * doctor and the advisory table: the findings name each affected copy and
 * who pins it; --fix moves package.json (a raise within the major, or the
 * manager's override) and nothing else; once the lockfile moves, nothing is
 * left. And the summary says "sign-in will break" only for errors that do.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { inProcess, snapshot } from "../helpers.js";
import { copyProject, doctorJson, problemIds } from "./helpers.js";

const advisoryIds = (ids: string[]) => ids.filter((id) => id.startsWith("advisory."));

describe("doctor on a project resolving affected versions", () => {
  it("names the copy, its lockfile and the fix; --fix raises next-auth within v4, one line of package.json changed", async () => {
    const dir = copyProject("advisory.GHSA-7rqj-j65f-68wh");
    const { report, exitCode } = await doctorJson(dir);
    expect(exitCode).toBe(1);
    const critical = report.findings.find((f) => f.id === "advisory.GHSA-7rqj-j65f-68wh")!;
    expect(critical).toMatchObject({ severity: "error", security: true, file: "package-lock.json" });
    expect(critical.message).toMatch(/^next-auth 4\.24\.11 has GHSA-7rqj-j65f-68wh \(critical\): /);
    expect(critical.fix).toMatch(
      /^Fixed in next-auth 4\.24\.15: `create-auth doctor --fix` sets next-auth "\^4\.24\.15" \(was "\^4\.24\.5"\) in package\.json, then run `npm install`\./,
    );

    const before = snapshot(dir);
    const fixed = await doctorJson(dir, ["--fix"]);
    expect(fixed.report.fixed).toEqual([
      'package.json: next-auth "^4.24.5" → "^4.24.15" (the versions it allowed have GHSA-7rqj-j65f-68wh, GHSA-xmf8-cvqr-rfgj, GHSA-x445-f3h2-j279); run `npm install` to move the lockfile',
    ]);
    const after = snapshot(dir);
    expect(Object.keys(after).filter((path) => after[path] !== before[path])).toEqual(["package.json"]);
    expect(after["package.json"]).toBe(
      before["package.json"]!.replace('"next-auth": "^4.24.5"', '"next-auth": "^4.24.15"'),
    );
    // The lockfile has not moved yet: the finding stays, and says to install.
    expect(fixed.report.findings.find((f) => f.id === "advisory.GHSA-7rqj-j65f-68wh")?.fix).toMatch(
      /^Fixed in next-auth 4\.24\.15, which package\.json already asks for: `npm install` moves the lockfile there\./,
    );
    const again = await doctorJson(dir, ["--fix"]);
    expect(again.report.fixed).toEqual([]);
    expect(snapshot(dir)).toEqual(after);

    // What the install does to the lockfile: then nothing is left.
    const lock = join(dir, "package-lock.json");
    writeFileSync(lock, readFileSync(lock, "utf8").replaceAll("4.24.11", "4.24.15").replace('"^4.24.5"', '"^4.24.15"'));
    const installed = await doctorJson(dir);
    expect(advisoryIds(problemIds(installed.report))).toEqual([]);
    expect(installed.exitCode).toBe(0);
  });

  it("a copy another package pins (pnpm): --fix adds pnpm.overrides at the end of package.json", async () => {
    const dir = copyProject("advisory.GHSA-xmf8-cvqr-rfgj");
    const { report } = await doctorJson(dir);
    const high = report.findings.find((f) => f.id === "advisory.GHSA-xmf8-cvqr-rfgj")!;
    expect(high).toMatchObject({ severity: "warning", security: true, file: "pnpm-lock.yaml" });
    expect(high.message).toMatch(
      /^@auth\/core 0\.41\.1 \(pinned by @auth\/prisma-adapter@2\.11\.1\) has GHSA-xmf8-cvqr-rfgj \(high\): /,
    );
    expect(high.fix).toContain('sets pnpm.overrides "@auth/core": "^0.41.3" in package.json, then run `pnpm install`');
    const before = readFileSync(join(dir, "package.json"), "utf8");
    await doctorJson(dir, ["--fix"]);
    expect(readFileSync(join(dir, "package.json"), "utf8")).toBe(
      `${before.trimEnd().replace(/\n}$/, "")},\n  "pnpm": {\n    "overrides": {\n      "@auth/core": "^0.41.3"\n    }\n  }\n}\n`,
    );
  });

  it("reports nothing for a project whose lockfile resolves the fixed releases", async () => {
    const dir = copyProject("next-auth.v4");
    const { report, exitCode } = await doctorJson(dir);
    expect(
      JSON.parse(readFileSync(join(dir, "package-lock.json"), "utf8")).packages["node_modules/next-auth"].version,
    ).toBe("4.24.15");
    expect(advisoryIds(report.findings.map((f) => f.id))).toEqual([]);
    expect(exitCode).toBe(0);
  });
});

describe("doctor's summary line", () => {
  const summary = async (dir: string) =>
    (await inProcess(["doctor", "--dir", dir], { env: { NO_COLOR: "1" } })).stdout.trim().split("\n").at(-1);

  it("an env file readable by others is a security error: sign-in works, the line says so", async () => {
    const dir = copyProject("files.env-mode", { modes: { ".env.local": "644" } });
    const { report } = await doctorJson(dir);
    expect(report.findings.find((f) => f.id === "files.env-mode")).toMatchObject({
      severity: "error",
      security: true,
      message: "Other users of this machine can read .env.local (mode 644) and copy the secrets it holds.",
    });
    const line = await summary(dir);
    expect(line).toBe(
      "1 error, 0 warnings, 1 info. The error is a security problem: sign-in works, but stays exposed until it is fixed.",
    );
    expect(line).not.toMatch(/sign-in will break/i);
  });

  it("a missing secret breaks sign-in; beside a security error, each is counted as what it is", async () => {
    const missing = copyProject("secret.missing");
    expect(
      (await doctorJson(missing)).report.findings.find((f) => f.id === "secret.missing")?.security,
    ).toBeUndefined();
    expect(await summary(missing)).toMatch(/\. Sign-in will break until the errors are fixed\.$/);
    const both = copyProject("secret.missing", { modes: { ".env.local": "644" } });
    expect(await summary(both)).toMatch(/\. Sign-in will break until 1 of them is fixed; 1 is a security problem\.$/);
  });
});
