// The generated load-env module, run for real, loads what create-auth's own reader (migrate, doctor) reads,
// in the same order; the generated Prisma and drizzle-kit configs carry the same loader.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import type { EnvMode, EnvOrder } from "../../src/render/project-env.js";
import { renderTemplate } from "../../src/render/templates.js";
import { readProjectEnv } from "../../src/workspace/read-env.js";
import { tempDir } from "../helpers.js";

const files = [
  ".env.development.local",
  ".env.development",
  ".env.production.local",
  ".env.production",
  ".env.test.local",
  ".env.test",
  ".env.local",
  ".env",
];

/** A project whose every env file sets CA_SHARED and a name of its own; .env starts with a byte-order mark. */
function project(): string {
  const dir = tempDir("create-auth-load-env-");
  files.forEach((file, i) => {
    const bom = file === ".env" ? "\uFEFF" : "";
    writeFileSync(join(dir, file), `${bom}CA_SHARED=${file}\r\nCA_ONLY_${i}=${file}\r\nCA_FROM_ENV=${file}\r\n`);
  });
  return dir;
}

/** What process.env holds after importing the module, run by Node in the project folder (it has no types to strip). */
async function loaded(dir: string, module: string, nodeEnv: string | undefined): Promise<Record<string, string>> {
  const env: Record<string, string> = { PATH: process.env.PATH ?? "", CA_FROM_ENV: "the environment" };
  if (nodeEnv) env.NODE_ENV = nodeEnv;
  const script = `await import(${JSON.stringify(`./${module}`)}); console.log(JSON.stringify(Object.fromEntries(Object.entries(process.env).filter(([k]) => k.startsWith("CA_")))));`;
  const result = await execa(process.execPath, ["--input-type=module", "-e", script], {
    cwd: dir,
    env,
    extendEnv: false,
  });
  return JSON.parse(result.stdout) as Record<string, string>;
}

describe("the generated load-env module", () => {
  it.each<[EnvOrder, string | undefined, EnvMode]>([
    ["next", undefined, "development"],
    ["next", "production", "production"],
    ["next", "test", "test"],
    ["vite", undefined, "development"],
    ["vite", "production", "production"],
    ["vite", "test", "test"],
  ])("%s's order with NODE_ENV=%s loads what migrate and doctor read", async (order, nodeEnv, mode) => {
    const dir = project();
    writeFileSync(
      join(dir, "load-env.mjs"),
      await renderTemplate("adapters/load-env.ts.hbs", { vite: order === "vite" }),
    );
    const values = await loaded(dir, "load-env.mjs", nodeEnv);
    const reader = readProjectEnv(dir, { order, mode, environment: { CA_FROM_ENV: "the environment" } });
    const expected: Record<string, string> = {};
    for (const name of ["CA_SHARED", "CA_FROM_ENV", ...files.map((_, i) => `CA_ONLY_${i}`)]) {
      const setting = reader.get(name);
      if (setting) expected[name] = setting.value;
    }
    expect(values).toEqual(expected);
    expect(values.CA_FROM_ENV).toBe("the environment");
    // The byte-order mark is no part of .env's first name.
    expect(values.CA_SHARED).toBe(reader.names[0]);
  });

  it("the generated prisma.config.ts and drizzle.config.ts load the files with the same code", async () => {
    const loader = (text: string) => /const nodeEnv[\s\S]*?\n}\n/.exec(text)?.[0];
    const own = loader(await renderTemplate("adapters/load-env.ts.hbs", {}));
    expect(own).toMatch(/process\.env\[name\] \?\?= value/);
    expect(
      loader(await renderTemplate("orms/prisma/prisma.config.ts.hbs", { schemaPath: "prisma/schema.prisma" })),
    ).toBe(own);
    expect(
      loader(
        await renderTemplate("orms/drizzle/drizzle.config.ts.hbs", {
          dialect: "postgresql",
          schemaPath: "./src/db/schema.ts",
        }),
      ),
    ).toBe(own);
  });
});
