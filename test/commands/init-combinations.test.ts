// Every backend × schema flavour renders a plan (in-process and fast; the generated code's types are checked elsewhere).
import { describe, expect, it } from "vitest";
import { runInit } from "../../src/commands/init.js";
import { backends, schemaFlavours } from "../../src/generators/types.js";
import { tempDir } from "../helpers.js";

const sink = () => {
  let text = "";
  return {
    out: {
      write: (s: string) => {
        text += s;
        return true;
      },
    } as unknown as NodeJS.WritableStream,
    text: () => text,
  };
};

describe("init renders every backend × schema flavour", () => {
  const combos = backends.flatMap((backend) => schemaFlavours.map((schema) => [backend, schema] as const));
  it.each(combos)("%s + %s", async (backend, schema) => {
    const dir = tempDir("create-auth-combo-");
    const out = sink();
    const code = await runInit(
      {
        yes: true,
        install: false,
        backend,
        schema,
        providers: "email,credentials,webauthn,social",
        session: "database",
      },
      { cwd: dir, out: out.out, interactive: false, env: {} },
    );
    expect(code).toBe(0);
    expect(out.text()).toMatch(/^created auth\.ts$/m);
    expect(out.text()).toMatch(/^created auth\/adapter\.ts$/m);
    if (schema === "prisma") expect(out.text()).toMatch(/^created prisma\/schema\.prisma$/m);
    if (schema === "drizzle") expect(out.text()).toMatch(/^created auth\/schema\.drizzle\.ts$/m);
    if (schema === "typeorm") expect(out.text()).toMatch(/^created auth\/entities\.ts$/m);
  });
});
