import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { describeEmailSupport, importExtension } from "../../src/workspace/project.js";
import { tempDir } from "../helpers.js";

describe("project facts", () => {
  it("relative imports get .js under node16/nodenext resolution only", () => {
    const dir = tempDir();
    expect(importExtension(dir)).toBe("");
    writeFileSync(join(dir, "tsconfig.json"), '{ "compilerOptions": { "moduleResolution": "bundler" } }');
    expect(importExtension(dir)).toBe("");
    writeFileSync(join(dir, "tsconfig.json"), '{ "compilerOptions": { "module": "NodeNext" } }');
    expect(importExtension(dir)).toBe(".js");
  });

  it("tells whether the configured adapter has the email methods (§5.4)", () => {
    const dir = tempDir();
    const config = join(dir, "auth.ts");
    expect(describeEmailSupport(config, "export default { providers: [] }")).toMatch(/No adapter is configured/);
    expect(
      describeEmailSupport(
        config,
        'import PrismaAdapter from "@auth/prisma-adapter";\nexport default { adapter: PrismaAdapter(db) }',
      ),
    ).toMatch(/@auth\/prisma-adapter, which implements/);
    writeFileSync(
      join(dir, "adapter.ts"),
      "export const adapter = { createVerificationToken() {}, getUserByEmail() {} };",
    );
    expect(
      describeEmailSupport(
        config,
        'import { adapter } from "./adapter.js";\nexport default { adapter, providers: [] }',
      ),
    ).toMatch(/lacks useVerificationToken/);
    writeFileSync(join(dir, "adapter.ts"), "createVerificationToken useVerificationToken getUserByEmail");
    expect(
      describeEmailSupport(config, 'import { adapter } from "./adapter";\nexport default { adapter: adapter }'),
    ).toMatch(/has createVerificationToken, useVerificationToken and getUserByEmail/);
  });
});

describe("how a generated project depends on create-auth", async () => {
  const { selfDependencySpec } = await import("../../src/catalog/self.js");
  const { version } = await import("../../src/version.js");
  it("a semver range when create-auth is installed in node_modules", () => {
    expect(selfDependencySpec("/app/node_modules/create-auth")).toBe(`^${version}`);
  });
  it("the checkout itself when run from source, which no range could reach", () => {
    expect(selfDependencySpec("/work/create-auth")).toBe("file:/work/create-auth");
  });
});
