// The init questions in a real pseudo-terminal (util-linux `script`), keys typed as a person would.
import { cpSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixture, inTerminal, keys, type Step, tempDir } from "../helpers.js";

const { down, space, enter, ctrlC } = keys;

/** Runs init (never installing) in a pty in an empty dir. */
async function typed(args: string[], input: Step[]) {
  const dir = tempDir("create-auth-init-tty-");
  return { dir, ...(await inTerminal(["init", "--no-install", ...args], input, dir)) };
}

describe("init in a terminal", () => {
  it("asks the grouped questions no flag answered, then writes and shows the next steps", async () => {
    const keys: Step[] = [
      ["ORM the adapter goes through", enter], // detected: none in an empty folder
      ["Framework to wire sign-in into", enter], // detected: none in an empty folder
      ["Sign-in providers", down, down, space, enter], // add email to the preselected credentials
      ["Database adapter", down, enter], // postgres
      ["Entity schema flavour", down, enter], // typeorm: with no ORM, Prisma and Drizzle are not offered
      // No session question: with credentials, database sessions are refused (their sign-ins leave none), so jwt is said.
      ["Two-factor sign-in after the password", enter], // asked because credentials is in; none preselected
    ];
    const { result, screen, read } = await typed([], keys);
    expect(screen).toMatch(/Framework to wire sign-in into \(--framework\)/);
    expect(screen).toMatch(/detected: no framework create-auth wires was found/);
    expect(screen).toMatch(/Sign-in providers \(--providers/);
    expect(screen).toMatch(/Database adapter \(--backend\)/);
    expect(screen).toMatch(/Entity schema flavour \(--schema\)/);
    expect(screen.slice(screen.lastIndexOf("Entity schema flavour"))).not.toMatch(/drizzle|prisma/);
    expect(screen).toMatch(
      /Session strategy \(--session\): jwt \(a signed cookie: the one kind password sign-in has\)/,
    );
    expect(screen.slice(screen.indexOf("Session strategy"))).not.toMatch(/stored through the adapter/);
    expect(screen).toMatch(/Two-factor sign-in after the password \(--two-factor\)/);
    expect(result.exitCode).toBe(0);
    const config = read("auth.ts");
    expect(config).toContain("email,");
    expect(config).toContain("credentials,");
    expect(config).toContain('session: { strategy: "jwt" },');
    expect(read("auth/entities.ts")).toContain('type: "postgres"');
    expect(JSON.parse(read("package.json")).dependencies).toHaveProperty("pg");
    expect(screen).toMatch(/Next steps/);
  }, 60_000);

  it("asks an OIDC provider's options and prints its callback URL", async () => {
    const { result, screen, read } = await typed(
      ["--providers", "oidc", "--backend", "memory", "--schema", "sql", "--session", "jwt"],
      [
        ["(--id)", ..."corp", enter],
        ["(--issuer)", ..."https://login.corp.example", enter],
        // An OpenID provider may do both: asked after its options, "no" preselected.
        ["(--refresh-tokens)", enter],
        ["(--federated-logout)", enter],
      ],
    );
    expect(screen).toMatch(/\(--id\)/);
    expect(screen).toMatch(/\(--issuer\)/);
    expect(screen).toMatch(/Refresh their access tokens when they expire \(--refresh-tokens\)/);
    expect(result.exitCode).toBe(0);
    expect(read("providers/corp.ts")).toContain("https://login.corp.example");
    expect(read("auth.ts")).not.toContain("createTokenRotation");
    expect(screen).toContain("http://localhost:3000/api/auth/callback/corp");
  }, 60_000);

  it("Ctrl-C cancels with exit 130 and writes nothing", async () => {
    const { result, screen, dir } = await typed(
      [],
      [
        ["ORM the adapter goes through", enter],
        ["Framework to wire sign-in into", enter],
        ["Sign-in providers", ctrlC],
      ],
    );
    expect(result.exitCode).toBe(130);
    expect(screen).toMatch(/Cancelled; nothing was written/);
    expect(readdirSync(dir)).toEqual([]);
  }, 60_000);
});

// In a project with an ORM (fixtures/projects/orm), the question init asks first.
describe("the ORM question in a terminal", () => {
  it("comes first, with the detected ORM preselected and named", async () => {
    const dir = tempDir("create-auth-prisma-sqlite-");
    cpSync(fixture("projects/orm", "prisma-sqlite"), dir, { recursive: true });
    const { result, screen } = await inTerminal(
      ["init", "--no-install", "--providers", "email", "--session", "database"],
      [["ORM the adapter goes through", keys.enter]],
      dir,
    );
    expect(result.exitCode, screen).toBe(0);
    expect(screen).toMatch(/Prisma.*detected: prisma\/schema\.prisma/);
    // Backend and schema follow the project's ORM: with providers and session given, nothing more is asked.
    expect(screen).not.toMatch(/Database adapter|Entity schema flavour/);
    expect(readFileSync(join(dir, "prisma/schema.prisma"), "utf8")).toContain("model VerificationToken {");
  }, 60_000);
});
