// defineFramework fills what most frameworks share, and a module's own value wins over it.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { defineFramework, plainConfig } from "../../src/frameworks/framework.js";
import { frameworkById } from "../../src/frameworks/registry.js";
import { part } from "../../src/render/parts.js";
import { ProjectView } from "../../src/workspace/project-view.js";
import { tempDir } from "../helpers.js";

const base = {
  id: "example",
  title: "Example",
  facts: () => ({ seen: true }),
  basePath: "/auth",
  envOrder: "vite" as const,
  layout: () => ({ configPath: "auth.ts", authDir: "auth" }),
  plan: async () => ({ ...part(), config: plainConfig() }),
  doctor: { ownServer: () => undefined, load: async () => ({ checks: [], read: () => ({}), run: () => [] }) },
};

describe("defineFramework", () => {
  it("fills the shared values a module leaves out", () => {
    const module = defineFramework({ ...base, shownBy: { packages: ["example"] } });
    expect(module).toMatchObject({
      precedence: 10,
      dependencies: [],
      devDependencies: [],
      app: { port: 3000, devCommand: "npm run dev" },
      authPackage: "@auth/core",
      protects: true,
      doctor: { env: { url: ["AUTH_URL"], secret: ["AUTH_SECRET"] } },
    });
  });

  it("keeps what a module states, field by field inside app", () => {
    const module = defineFramework({
      ...base,
      shownBy: { packages: ["example"] },
      precedence: 3,
      app: { port: 5173 },
      authPackage: "@auth/example",
      protects: false,
      doctor: { ...base.doctor, env: { url: ["EXAMPLE_URL"], secret: ["EXAMPLE_SECRET"] } },
    });
    expect(module).toMatchObject({
      precedence: 3,
      app: { port: 5173, devCommand: "npm run dev" },
      authPackage: "@auth/example",
      protects: false,
      doctor: { env: { url: ["EXAMPLE_URL"], secret: ["EXAMPLE_SECRET"] } },
    });
  });

  it("detects by the evidence it is shown by, and assumes its facts when named", () => {
    const module = defineFramework({ ...base, shownBy: { packages: ["example"] } });
    const project = (dependencies: Record<string, string>) => {
      const dir = tempDir("create-auth-define-");
      writeFileSync(join(dir, "package.json"), JSON.stringify({ dependencies }));
      return new ProjectView(dir);
    };
    expect(module.detect(project({ example: "1" }))).toEqual({
      facts: { seen: true },
      reason: "example in package.json",
      by: "dependency",
    });
    expect(module.detect(project({ other: "1" }))).toBeUndefined();
    expect(module.assume(project({}))).toEqual({ seen: true });
  });

  it("leaves next-auth's v4 names to the one module that reads them", () => {
    expect(frameworkById("next").doctor.env.url).toEqual(["AUTH_URL", "NEXTAUTH_URL"]);
    expect(frameworkById("sveltekit").doctor.env.url).toEqual(["AUTH_URL"]);
  });
});
