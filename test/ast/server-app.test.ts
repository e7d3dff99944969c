/**
 * Following a server's entry to the module that creates its app, one folder
 * per project under fixtures/server-apps/: its files, and expected.json
 * naming how the framework creates its app and the module found (or why
 * none is certain). The entry is found as init finds it (the dev or start
 * script, `main`, the usual places), its imports resolved relative or
 * through tsconfig `paths`.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { locateApp } from "../../src/ast/server-app.js";
import type { AppCreation } from "../../src/ast/server-entry.js";
import { findServerEntry } from "../../src/frameworks/server-entry.js";
import { ProjectView } from "../../src/workspace/project-view.js";
import { fixture } from "../helpers.js";

const base = fixture("server-apps");
const cases = readdirSync(base).map((name) => ({
  name,
  dir: join(base, name),
  ...(JSON.parse(readFileSync(join(base, name, "expected.json"), "utf8")) as {
    creates: AppCreation;
    module?: string;
    refused?: string;
  }),
}));

describe("locateApp", () => {
  it.each(cases.filter((c) => c.module))("$name: the app is created in $module", ({ dir, creates, module }) => {
    const entry = findServerEntry(new ProjectView(dir))!;
    const found = locateApp(entry.path, entry.modules, creates);
    expect(found).toMatchObject({ status: "found", path: module });
  });

  it.each(cases.filter((c) => c.refused))("$name: refused, naming why", ({ dir, creates, refused }) => {
    const entry = findServerEntry(new ProjectView(dir))!;
    expect(locateApp(entry.path, entry.modules, creates)).toEqual({ status: "refused", reason: refused });
  });

  it("has a case for each way an entry reaches its app and each refusal", () => {
    expect(cases.filter((c) => c.module).length).toBeGreaterThanOrEqual(4);
    expect(cases.filter((c) => c.refused).length).toBeGreaterThanOrEqual(2);
  });
});
