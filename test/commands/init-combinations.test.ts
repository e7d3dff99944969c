// Every backend × schema flavour renders a plan (in-process and fast; the generated code's types are checked elsewhere).
import { describe, expect, it } from "vitest";
import { runInit } from "../../src/commands/init.js";
import { backends, dialectOf } from "../../src/storage/registry.js";
import { schemaFlavours } from "../../src/storage/schemas.js";
import { capturedIo, tempDir } from "../helpers.js";

describe("init renders every backend × schema flavour", () => {
  const combos = backends.flatMap((backend) => schemaFlavours.map((schema) => [backend, schema] as const));
  it.each(combos)("%s + %s", async (backend, schema) => {
    const dir = tempDir("create-auth-combo-");
    const { io, stdout } = capturedIo(dir);
    const code = await runInit(
      {
        yes: true,
        install: false,
        backend,
        schema,
        // Passwords too (their column in every schema): JWT sessions, the only ones credentials signs in to.
        providers: "email,credentials,webauthn,social",
        session: "jwt",
      },
      io,
    );
    expect(code).toBe(0);
    expect(stdout()).toMatch(/^created auth\.ts$/m);
    expect(stdout()).toMatch(/^created auth\/adapter\.ts$/m);
    if (schema === "sql")
      expect(stdout()).toMatch(new RegExp(`^created auth/schema\\.${dialectOf(backend) ?? "sqlite"}\\.sql$`, "m"));
    // With a database backend, --schema prisma and drizzle mean the ORM: its schema, the official adapter over it.
    const orm = dialectOf(backend) !== undefined;
    if (schema === "prisma") expect(stdout()).toMatch(/^created prisma\/schema\.prisma$/m);
    if (schema === "prisma" && orm) expect(stdout()).toMatch(/^created auth\/prisma\.ts$/m);
    if (schema === "drizzle")
      expect(stdout()).toMatch(orm ? /^created db\/auth-schema\.ts$/m : /^created auth\/schema\.drizzle\.ts$/m);
    if (schema === "typeorm") expect(stdout()).toMatch(/^created auth\/entities\.ts$/m);
  });
});
