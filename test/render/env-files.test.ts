// What init and add-provider write into the env files, planned from what the project's files already hold.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { setEnvDefaults } from "@auth/core";
import GitHub from "@auth/core/providers/github";
import Keycloak from "@auth/core/providers/keycloak";
import Resend from "@auth/core/providers/resend";
import { describe, expect, it } from "vitest";
import { parseEnv } from "../../src/render/env-file.js";
import { authReadsEmptyAsValue, type EnvWriteRequest, planEnvWrites } from "../../src/render/env-files.js";
import type { EnvVariable } from "../../src/render/parts.js";
import type { EnvOrder } from "../../src/render/project-env.js";
import { readEnvForWriting } from "../../src/workspace/read-env.js";
import { tempDir } from "../helpers.js";

const database: EnvVariable = {
  name: "DATABASE_URL",
  description: "The database",
  example: "postgres://postgres@127.0.0.1:5432/app",
};
const client: EnvVariable[] = [
  { name: "AUTH_KC_ID", description: "client id", example: "" },
  { name: "AUTH_KC_SECRET", description: "client secret", example: "" },
];
const issuer: EnvVariable = { name: "AUTH_KC_ISSUER", description: "issuer", example: "https://sso.example.com/r" };

/** A project holding `files`, and the plan for `variables` in it. */
function plan(
  files: Record<string, string>,
  variables: EnvVariable[],
  options: Partial<Omit<EnvWriteRequest, "env">> & { framework?: string } = {},
) {
  const dir = tempDir("create-auth-env-plan-");
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  // SvelteKit loads its env files as Vite does; the others as Next.js does.
  const envOrder: EnvOrder = options.framework === "sveltekit" ? "vite" : "next";
  const result = planEnvWrites({
    heading: "Auth (added by create-auth init)",
    ...options,
    env: readEnvForWriting(dir, envOrder),
    envOrder,
    variables,
  });
  const after = (name: string) => result.files.find((f) => f.name === name)?.after;
  return { ...result, after, changed: result.files.map((f) => f.name) };
}

describe("a variable the project already sets stays where it is", () => {
  it("a Prisma or Drizzle project's DATABASE_URL in .env: nothing written for it, and the note says where it is", () => {
    const env = "# mine\r\nDATABASE_URL=postgres://me@db.internal:5432/shop\r\n";
    const result = plan({ ".env": env }, [database], { database: { names: ["DATABASE_URL"], file: ".env" } });
    expect(result.changed).toEqual([".env.example"]);
    expect(result.where.DATABASE_URL).toBe(".env");
    expect(result.notices).toEqual(["DATABASE_URL is set in .env: the auth tables go to that database."]);
  });

  it.each([".env", ".env.development", ".env.local", ".env.development.local", ".env.production"])(
    "in %s, no placeholder goes to .env.local",
    (file) => {
      const result = plan({ [file]: "AUTH_KC_ID=abc\n" }, client);
      const local = result.after(".env.local") ?? (file === ".env.local" ? "AUTH_KC_ID=abc\n" : "");
      expect(parseEnv(local).filter((e) => e.name === "AUTH_KC_ID")).toHaveLength(file === ".env.local" ? 1 : 0);
      expect(result.where.AUTH_KC_ID).toBe(file);
    },
  );

  it("set only where development does not read it: kept, and said", () => {
    const result = plan({ ".env.production": "AUTH_KC_ID=abc\n" }, client);
    expect(result.notices).toContain(
      "AUTH_KC_ID is set in .env.production only, which is not read in development: set it for development too.",
    );
  });

  it("a value given that differs from the project's: the project's is kept, and said", () => {
    const result = plan({ ".env": "AUTH_KC_ISSUER=https://other.example.com/r\n" }, [issuer]);
    expect(result.changed).toEqual([".env.example"]);
    expect(result.notices[0]).toMatch(/^AUTH_KC_ISSUER is already set in \.env to another value than the one given/);
  });

  it("left empty (as an earlier run did): a value given fills it where it is, every other byte kept", () => {
    const text = "\uFEFFA=1\r\nAUTH_KC_ISSUER=\r\nB=2\r\n";
    const result = plan({ ".env.local": text }, [issuer]);
    expect(result.after(".env.local")).toBe("\uFEFFA=1\r\nAUTH_KC_ISSUER=https://sso.example.com/r\r\nB=2\r\n");
  });

  it("left empty with no value to give: named to fill in, with a warning for a name Auth.js reads empty", () => {
    const result = plan({ ".env.local": "AUTH_KC_ID=\n" }, [client[0]!]);
    expect(result.changed).toEqual([".env.example"]);
    expect(result.toFill).toEqual([{ name: "AUTH_KC_ID", file: ".env.local", commented: false }]);
    expect(result.notices[0]).toMatch(/^AUTH_KC_ID is set empty in \.env\.local, which Auth\.js reads as a value/);
  });
});

describe("a new variable", () => {
  it("the database's goes to .env in an ORM project (created, so to keep out of git), else to .env.local", () => {
    const orm = plan({}, [database], { database: { names: ["DATABASE_URL"], file: ".env" } });
    expect(orm.after(".env")).toBe(
      "# Auth (added by create-auth init)\n# The database\nDATABASE_URL=postgres://postgres@127.0.0.1:5432/app\n",
    );
    expect(orm.after(".env.local")).toBeUndefined();
    expect(orm.created).toEqual([".env"]);
    const own = plan({}, [database], { database: { names: ["DATABASE_URL"], file: ".env.local" } });
    expect(own.after(".env.local")).toMatch(/^DATABASE_URL=postgres:/m);
    expect(own.after(".env")).toBeUndefined();
  });

  it("a value given is written as given; with none, a name Auth.js reads empty is commented out, another is empty", () => {
    const server: EnvVariable = { name: "EMAIL_SERVER", description: "SMTP", example: "" };
    const result = plan({}, [...client, issuer, server]);
    expect(result.after(".env.local")).toBe(
      [
        "# Auth (added by create-auth init; keep this file out of git)",
        "# client id",
        "# AUTH_KC_ID=",
        "# client secret",
        "# AUTH_KC_SECRET=",
        "# issuer",
        "AUTH_KC_ISSUER=https://sso.example.com/r",
        "# SMTP",
        "EMAIL_SERVER=",
        "",
      ].join("\n"),
    );
    expect(result.toFill).toEqual([
      { name: "AUTH_KC_ID", file: ".env.local", commented: true },
      { name: "AUTH_KC_SECRET", file: ".env.local", commented: true },
      { name: "EMAIL_SERVER", file: ".env.local", commented: false },
    ]);
    // .env.example documents every one, the given value as its example.
    expect(result.after(".env.example")).toMatch(
      /^AUTH_KC_ID=\n[^\n]*\nAUTH_KC_SECRET=\n[^\n]*\nAUTH_KC_ISSUER=https:/m,
    );
  });

  it("a second run changes nothing: a line written commented out counts as there", () => {
    const first = plan({}, [...client, issuer]);
    const second = plan({ ".env.local": first.after(".env.local")!, ".env.example": first.after(".env.example")! }, [
      ...client,
      issuer,
    ]);
    expect(second.changed).toEqual([]);
    expect(second.toFill.map((v) => v.name)).toEqual(["AUTH_KC_ID", "AUTH_KC_SECRET"]);
  });

  it("lines added to a file with a byte-order mark and CRLF keep both", () => {
    const result = plan({ ".env.local": "\uFEFFOTHER=1\r\n" }, [issuer]);
    expect(result.after(".env.local")).toBe(
      "\uFEFFOTHER=1\r\n\r\n# Auth (added by create-auth init; keep this file out of git)\r\n# issuer\r\nAUTH_KC_ISSUER=https://sso.example.com/r\r\n",
    );
  });
});

describe("init's AUTH_SECRET", () => {
  const secret = "fresh-secret";
  const withSecret = (files: Record<string, string>, framework?: string) =>
    plan(files, [], { secret, ...(framework ? { framework } : {}) });

  it("one the project has, in any file development reads, stays", () => {
    for (const file of [".env", ".env.development", ".env.local"]) {
      const result = withSecret({ [file]: "AUTH_SECRET=mine\n" });
      expect(result.changed, file).toEqual([".env.example"]);
      expect(result.where.AUTH_SECRET).toBe(file);
    }
  });

  it("an empty one in .env.local (after cp .env.example .env.local) is filled in place", () => {
    const result = withSecret({ ".env.local": "AUTH_SECRET=\nX=1\n" });
    expect(result.after(".env.local")).toBe(`AUTH_SECRET=${secret}\nX=1\n`);
    expect(result.notices).toEqual(["AUTH_SECRET was empty in .env.local; it now holds a fresh secret."]);
  });

  it("an empty one in .env (which may be committed) is left, and the fresh one goes to .env.local, which wins", () => {
    const result = withSecret({ ".env": "AUTH_SECRET=\n" });
    expect(result.after(".env")).toBeUndefined();
    expect(result.after(".env.local")).toMatch(new RegExp(`^AUTH_SECRET=${secret}$`, "m"));
    expect(result.notices).toEqual([]);
  });

  it("SvelteKit: an empty one in .env.development wins over .env.local in Vite's order, so it is named", () => {
    const result = withSecret({ ".env.development": "AUTH_SECRET=\n" }, "sveltekit");
    expect(result.after(".env.local")).toMatch(/^AUTH_SECRET=fresh-secret$/m);
    expect(result.notices).toEqual([
      "AUTH_SECRET is empty in .env.development, which wins over the fresh one in .env.local: remove that line.",
    ]);
    // In Next.js's order .env.local wins: nothing to say.
    expect(withSecret({ ".env.development": "AUTH_SECRET=\n" }).notices).toEqual([]);
  });

  it("set in .env.production only: development gets one in .env.local, and that is said", () => {
    const result = withSecret({ ".env.production": "AUTH_SECRET=prod\n" });
    expect(result.after(".env.local")).toMatch(/^AUTH_SECRET=fresh-secret$/m);
    expect(result.notices[0]).toMatch(/^AUTH_SECRET is set in \.env\.production only/);
  });
});

describe("which names Auth.js reads empty as a value (setEnvDefaults, run for real)", () => {
  /** What the config means after setEnvDefaults: trust, secrets, a redirect proxy, and what each provider got. */
  function meaning(env: Record<string, string>) {
    const config = {
      providers: [GitHub, Keycloak, Resend],
      basePath: "/api/auth",
    } as unknown as Parameters<typeof setEnvDefaults>[1];
    setEnvDefaults({ NODE_ENV: "development", ...env }, config);
    const providers = (config.providers as unknown as { options?: Record<string, unknown> }[]).map((p) =>
      JSON.stringify(p.options ?? {}),
    );
    return JSON.stringify({
      trustHost: config.trustHost,
      secret: config.secret,
      redirectProxy: Boolean(config.redirectProxyUrl),
      providers,
    });
  }

  it.each([
    "AUTH_GITHUB_ID",
    "AUTH_GITHUB_SECRET",
    "AUTH_KEYCLOAK_ISSUER",
    "AUTH_RESEND_KEY",
    "AUTH_URL",
    "AUTH_TRUST_HOST",
    "VERCEL",
    "CF_PAGES",
    "AUTH_SECRET",
    "AUTH_SECRET_1",
    "AUTH_REDIRECT_PROXY_URL",
    "EMAIL_SERVER",
    "DATABASE_URL",
  ])("%s", (name) => {
    const emptyChangesIt = meaning({ [name]: "" }) !== meaning({});
    expect(authReadsEmptyAsValue(name)).toBe(emptyChangesIt);
  });
});
