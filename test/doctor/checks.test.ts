/** The checks are pure functions of ProjectFacts: each rule is tested on facts built here, no project on disk. */
import { describe, expect, it } from "vitest";
import { runChecks } from "../../src/doctor/checks/index.js";
import { tablesOf } from "../../src/doctor/schema-facts.js";
import type { EnvFileFacts, ProjectFacts } from "../../src/doctor-model/facts.js";
import type { WiringDoctor } from "../../src/frameworks/framework.js";
import { frameworkById, frameworkModules } from "../../src/frameworks/registry.js";
import { renameEnvVariable, setEnvValue } from "../../src/render/env-file.js";

/** Every framework's doctor part, loaded once: the wiring checks run with the rest. */
const doctors: Record<string, WiringDoctor> = Object.fromEntries(
  await Promise.all(frameworkModules.map(async (f) => [f.id, await f.doctor.load()] as const)),
);

/** What gather takes from the framework module. */
function frameworkFields(id: string) {
  const framework = frameworkById(id);
  return {
    framework: id,
    frameworkEnv: framework.doctor.env,
    defaultMount: framework.basePath,
    appPort: framework.app.port,
  };
}

const runAll = (f: ProjectFacts) => runChecks(f, doctors[f.framework]);

const secret = "a-perfectly-fine-secret-0123456789abcdef";

function envFile(name: string, values: Record<string, string>, extra: Partial<EnvFileFacts> = {}): EnvFileFacts {
  return { name, values, template: name.endsWith(".example"), mode: 0o600, tracked: false, ignored: true, ...extra };
}

/** A healthy Next.js project's facts, with `change` applied. */
function facts(change: (f: ProjectFacts) => void = () => {}): ProjectFacts {
  const f: ProjectFacts = {
    root: "/app",
    ...frameworkFields("next"),
    packageJson: { dependencies: { next: "15.3.0", "next-auth": "5.0.0-beta.32" }, scripts: { start: "next start" } },
    deployFiles: [],
    isGitRepo: false,
    envLocalIgnored: true,
    valueFiles: [".env", ".env.production", ".env.local", ".env.production.local"],
    envFiles: [envFile(".env.local", { AUTH_SECRET: secret, AUTH_TRUST_HOST: "true" })],
    env: {
      AUTH_SECRET: { value: secret, source: ".env.local" },
      AUTH_TRUST_HOST: { value: "true", source: ".env.local" },
    },
    trackedSecrets: {},
    config: {
      file: "auth.ts",
      found: true,
      trustHost: false,
      literalSecret: false,
      enableWebAuthn: false,
      providers: [],
      packages: ["next-auth"],
    },
    wiring: {
      appDir: "app",
      routes: [{ file: "app/api/auth/[...nextauth]/route.ts", path: "/api/auth" }],
      middleware: [],
    },
    advisories: {
      source: "package-lock.json",
      copies: [{ name: "next-auth", version: "5.0.0-beta.32", dependents: [], direct: true }],
      manager: "npm",
      changes: [],
      manual: [],
    },
  };
  change(f);
  return f;
}

const ids = (f: ProjectFacts) => runAll(f).map((finding) => finding.id);
const setEnv = (f: ProjectFacts, name: string, value: string, source = ".env.local") => {
  f.env[name] = { value, source };
};

describe("doctor's checks", () => {
  it("find nothing in a healthy project", () => {
    expect(runAll(facts())).toEqual([]);
  });

  it("take NEXTAUTH_SECRET as next-auth v5 does, and only there", () => {
    const v4 = (framework: ProjectFacts["framework"]) =>
      facts((f) => {
        Object.assign(f, frameworkFields(framework));
        delete f.env.AUTH_SECRET;
        setEnv(f, "NEXTAUTH_SECRET", secret);
      });
    expect(ids(v4("next"))).toEqual(["env.v4-name"]);
    const sveltekit = runAll(v4("sveltekit"));
    expect(sveltekit.map((x) => x.id)).toContain("secret.missing");
    expect(sveltekit.find((x) => x.id === "secret.missing")?.message).toMatch(/only next-auth reads that name/);
  });

  it("leave v4 names alone in a next-auth v4 project", () => {
    const f = facts((x) => {
      x.packageJson.dependencies["next-auth"] = "^4.24.7";
      setEnv(x, "NEXTAUTH_URL", "http://localhost:3000");
    });
    expect(ids(f)).not.toContain("env.v4-name");
  });

  it("count the secret's length in bytes", () => {
    expect(ids(facts((f) => setEnv(f, "AUTH_SECRET", "é".repeat(16))))).toEqual([]);
    expect(ids(facts((f) => setEnv(f, "AUTH_SECRET", "é".repeat(15))))).toEqual(["secret.short"]);
  });

  it("accept AUTH_URL at the origin or at the config's basePath", () => {
    expect(ids(facts((f) => setEnv(f, "AUTH_URL", "https://app.example.com/")))).toEqual([]);
    expect(ids(facts((f) => setEnv(f, "AUTH_URL", "https://app.example.com/api/auth")))).toEqual([]);
    const custom = facts((f) => {
      f.config.basePath = "/custom/auth";
      f.wiring.routes = [{ file: "app/custom/auth/[...nextauth]/route.ts", path: "/custom/auth" }];
      setEnv(f, "AUTH_URL", "https://app.example.com/custom/auth");
    });
    expect(ids(custom)).toEqual([]);
  });

  it("trust a host that sets VERCEL itself, or a config with trustHost", () => {
    const untrusted = (change: (f: ProjectFacts) => void) =>
      ids(
        facts((f) => {
          delete f.env.AUTH_TRUST_HOST;
          change(f);
        }),
      );
    expect(untrusted(() => {})).toEqual(["host.untrusted"]);
    expect(untrusted((f) => f.deployFiles.push("vercel.json"))).toEqual([]);
    expect(untrusted((f) => (f.config.trustHost = true))).toEqual([]);
    expect(untrusted((f) => (f.packageJson.scripts.start = "node server.js"))).toEqual([]);
  });

  it("Nitro-built servers (Nuxt, Nitro, TanStack Start, SolidStart) count as the app's own by their start or preview script", () => {
    const server = (id: string, scripts: Record<string, string>) =>
      frameworkById(id).doctor.ownServer(
        facts((f) => Object.assign(f, frameworkFields(id), { packageJson: { scripts } })),
      );
    expect(server("nuxt", { start: "node .output/server/index.mjs" })).toBe("Nuxt's Node server");
    expect(server("nuxt", { preview: "nuxt preview" })).toBe("Nuxt's Node server");
    expect(server("nitro", { preview: "nitro preview" })).toBe("Nitro's Node server");
    expect(server("solid-start", { start: "vite preview" })).toMatch(/^a Node server/);
    expect(server("tanstack-start", { start: "node .output/server/index.mjs" })).toMatch(/^a Node server/);
    // Another framework's preview command is not this one's server; nor is a script that runs none.
    expect(server("nuxt", { preview: "vite preview" })).toBeUndefined();
    expect(server("nitro", { start: "node dist/index.js" })).toBeUndefined();
  });

  it("trust the host as the installed next-auth reads it: v5 never from NEXTAUTH_URL, an empty value as false", () => {
    const withEnv = (values: Record<string, string>, major?: number) =>
      facts((f) => {
        delete f.env.AUTH_TRUST_HOST;
        f.nextAuthMajor = major;
        for (const [name, value] of Object.entries(values)) setEnv(f, name, value);
      });
    const v5OnlyV4Url = runAll(withEnv({ NEXTAUTH_URL: "https://app.example.com" }, 5));
    expect(v5OnlyV4Url.map((x) => x.id)).toContain("host.untrusted");
    expect(v5OnlyV4Url.find((x) => x.id === "host.untrusted")!.message).toMatch(/only next-auth v4's NEXTAUTH_URL/);
    // Auth.js takes the first of AUTH_URL, AUTH_TRUST_HOST, VERCEL, CF_PAGES that is set: "" stops the search.
    const emptyFirst = runAll(withEnv({ AUTH_URL: "", AUTH_TRUST_HOST: "true" }));
    expect(emptyFirst.find((x) => x.id === "host.untrusted")!.message).toMatch(/^AUTH_URL is set but empty/);
    expect(ids(withEnv({ AUTH_TRUST_HOST: "true", VERCEL: "" }))).toEqual([]);
    expect(ids(withEnv({ CF_PAGES: "1" }))).toEqual([]);
    // v4 builds its URLs from NEXTAUTH_URL, else from the request behind VERCEL or AUTH_TRUST_HOST.
    expect(ids(withEnv({ NEXTAUTH_URL: "https://app.example.com" }, 4))).not.toContain("host.untrusted");
    expect(ids(withEnv({ AUTH_TRUST_HOST: "true" }, 4))).not.toContain("host.untrusted");
    const v4Bare = runAll(withEnv({}, 4)).find((x) => x.id === "host.untrusted");
    expect(v4Bare!.message).toMatch(/next-auth v4 without NEXTAUTH_URL.*localhost:3000/);
  });

  it("find a secret's value under a browser prefix whatever the variable is called", () => {
    const f = facts((x) => setEnv(x, "VITE_APP_CONFIG", secret, "environment"));
    expect(ids(f)).toEqual(["secret.public"]);
    expect(ids(facts((x) => setEnv(x, "NEXT_PUBLIC_SUPABASE_ANON_KEY", "public-anon-key-value")))).toEqual([]);
  });

  it("let a middleware that runs on Node.js import a database driver", () => {
    const middleware = (runtime: "edge" | "nodejs") =>
      ids(
        facts((f) => {
          f.wiring.middleware = [
            { file: "middleware.ts", runtime, importsConfig: true, packages: ["next-auth", "pg"] },
          ];
        }),
      );
    expect(middleware("edge")).toEqual(["middleware.edge-node"]);
    expect(middleware("nodejs")).toEqual([]);
  });

  it("take an env file's mode and git state only where it holds a secret", () => {
    const plain = facts((f) => f.envFiles.push(envFile(".env", { PORT: "3000" }, { mode: 0o644, ignored: false })));
    expect(ids(plain)).toEqual([]);
    const url = facts((f) =>
      f.envFiles.push(envFile(".env", { DATABASE_URL: "postgres://app:pw@db/app" }, { mode: 0o644, ignored: false })),
    );
    expect(ids(url)).toEqual(["files.env-not-ignored", "files.env-mode"]);
  });
});

describe("the safe fixes' text edits", () => {
  it("rename a variable, keeping export, quotes, values over several lines and CRLF", () => {
    const text = 'export NEXTAUTH_URL="http://a\nb"\r\nOTHER=1\r\nNEXTAUTH_URL = x # comment\r\n';
    expect(renameEnvVariable(text, "NEXTAUTH_URL", "AUTH_URL")).toBe(
      'export AUTH_URL="http://a\nb"\r\nOTHER=1\r\nAUTH_URL = x # comment\r\n',
    );
  });

  it("replace a value in place or add the variable with the file's line ending", () => {
    expect(setEnvValue("A=1\nAUTH_SECRET=old\n", "AUTH_SECRET", "new", "d")).toBe("A=1\nAUTH_SECRET=new\n");
    expect(setEnvValue("A=1\r\n", "AUTH_TRUST_HOST", "true", "Trust")).toBe(
      "A=1\r\n\r\n# Added by create-auth doctor --fix\r\n# Trust\r\nAUTH_TRUST_HOST=true\r\n",
    );
  });

  it("read tables and columns from a CREATE TABLE script, keys and comments left out", () => {
    const script = `-- header\nCREATE TABLE IF NOT EXISTS users (\n  id TEXT NOT NULL PRIMARY KEY,\n  -- a note\n  "emailVerified" INTEGER,\n  UNIQUE (id)\n);\nCREATE TABLE t (\n  \`a\` INT,\n  PRIMARY KEY (a)\n);`;
    expect(tablesOf(script)).toEqual({ users: ["id", "emailVerified"], t: ["a"] });
  });
});

describe("which env files hold secrets", () => {
  it("counts a connection URL only with a password in it", () => {
    const committed = (values: Record<string, string>) =>
      ids(facts((f) => f.envFiles.push(envFile(".env", values, { mode: 0o644, ignored: false }))));
    expect(committed({ DATABASE_URL: "postgres://postgres@127.0.0.1:5432/app" })).toEqual([]);
    expect(committed({ REDIS_URL: "redis://:hunter22@cache:6379" })).toEqual([
      "files.env-not-ignored",
      "files.env-mode",
    ]);
  });
});

describe("provider variables", () => {
  const provider = (env: ProjectFacts["config"]["providers"][number]["env"]) =>
    facts((f) => f.config.providers.push({ id: "corp", type: "oidc", env, file: "providers/corp.ts" }));

  it("need no value where the code has a fallback, and flag a secret fallback", () => {
    const issuer = { role: "issuer" as const, name: "AUTH_CORP_ISSUER", literal: "https://login.corp.example" };
    expect(ids(provider([issuer]))).toEqual(["provider.callback-url"]);
    expect(ids(provider([{ role: "issuer", name: "AUTH_CORP_ISSUER" }]))).toEqual([
      "provider.env-missing",
      "provider.callback-url",
    ]);
    const secretFallback = { role: "secret" as const, name: "AUTH_CORP_SECRET", literal: "dev-secret" };
    expect(ids(provider([secretFallback]))).toEqual(["provider.literal-secret", "provider.callback-url"]);
  });

  it("say when a variable is set but empty: Auth.js hands the empty string to the provider", () => {
    const f = provider([{ role: "issuer", name: "AUTH_CORP_ISSUER" }]);
    setEnv(f, "AUTH_CORP_ISSUER", "");
    const finding = runAll(f).find((x) => x.id === "provider.env-missing")!;
    expect(finding.message).toContain("AUTH_CORP_ISSUER (issuer URL, set but empty in .env.local)");
  });
});

describe("advisories", () => {
  it("a release with no fix in its major names the next major's fix and leaves the move to the user", () => {
    const f = facts((x) => {
      x.advisories.copies = [{ name: "next-auth", version: "3.29.10", dependents: [], direct: true }];
      x.advisories.manual = [
        'next-auth "3.29.10": no release of its major fixes GHSA-x445-f3h2-j279; move it to a supported major.',
      ];
    });
    const found = runAll(f).filter((x) => x.id.startsWith("advisory."));
    expect(found.map((x) => [x.id, x.severity])).toEqual([["advisory.GHSA-x445-f3h2-j279", "warning"]]);
    expect(found[0]!.fix).toBe(
      'Fixed in next-auth 4.24.15: next-auth "3.29.10": no release of its major fixes GHSA-x445-f3h2-j279; move it to a supported major. https://github.com/advisories/GHSA-x445-f3h2-j279',
    );
  });

  it("each copy is named once per advisory, the ones a package pins with who pins them", () => {
    const f = facts((x) => {
      x.advisories.copies = [
        { name: "@auth/core", version: "0.41.1", dependents: ["@auth/qwik@0.9.1"], direct: false },
        { name: "@auth/core", version: "0.41.2", dependents: [], direct: true },
        { name: "@auth/core", version: "0.41.3", dependents: ["next-auth@5.0.0-beta.32"], direct: false },
      ];
    });
    const critical = runAll(f).find((x) => x.id === "advisory.GHSA-7rqj-j65f-68wh")!;
    expect(critical.message).toMatch(
      /^@auth\/core 0\.41\.1 \(pinned by @auth\/qwik@0\.9\.1\) and @auth\/core 0\.41\.2 have GHSA-7rqj-j65f-68wh \(critical\): /,
    );
    expect(critical.file).toBe("package-lock.json");
    // next-auth 5 is clear of the one advisory only v5 had.
    expect(runAll(f).some((x) => x.id === "advisory.GHSA-8fpg-xm3f-6cx3")).toBe(false);
  });
});
