/**
 * add-provider's install for real, from the registry: a project with only its
 * own dependencies can load the generated module afterwards.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { inProcess, root, tempDir } from "../helpers.js";

describe("add-provider installs from the registry", () => {
  it("for real: a project with only its own dependencies loads the generated VK module after add-provider (and not without the install)", async () => {
    const dir = tempDir("create-auth-real-install-");
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "package.json"), '{ "name": "app", "private": true, "type": "module" }\n');
    writeFileSync(join(dir, "src/auth.ts"), "export default {\n  providers: [],\n};\n");
    const load = () =>
      execa(
        process.execPath,
        [
          "--import",
          join(root, "node_modules/tsx/dist/esm/index.mjs"),
          "--input-type=module",
          "-e",
          'const m = await import("./src/providers/vk-profile.ts"); console.log(typeof m.parseVkProfile);',
        ],
        { cwd: dir, reject: false },
      );

    const skipped = await inProcess(["add-provider", "social", "--no-install"], { cwd: dir, env: { CI: "true" } });
    expect(skipped.exitCode).toBe(0);
    const before = await load();
    expect(before.exitCode).not.toBe(0);
    expect(before.stderr).toMatch(/ERR_MODULE_NOT_FOUND|Cannot find (package|module) 'zod'/);

    const installed = await inProcess(["add-provider", "social", "--force"], { cwd: dir, env: { CI: "true" } });
    // package.json already lists zod from the first run: nothing to install the second time.
    expect(installed.stdout).not.toMatch(/Running npm install/);
    writeFileSync(join(dir, "package.json"), '{ "name": "app", "private": true, "type": "module" }\n');
    const real = await inProcess(["add-provider", "social", "--force"], { cwd: dir, env: { CI: "true" } });
    expect(real.stderr).toBe("");
    expect(real.exitCode).toBe(0);
    expect(real.stdout).toMatch(/Installed with npm\./);
    expect(existsSync(join(dir, "node_modules/zod/package.json"))).toBe(true);
    const after = await load();
    expect(after.stderr).toBe("");
    expect(after.stdout.trim()).toBe("function");
  }, 180_000);
});
