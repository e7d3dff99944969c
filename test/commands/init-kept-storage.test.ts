/**
 * init --yes in a project that already has auth keeps its storage: the
 * adapter its config makes (next-auth v4's MongoDBAdapter(clientPromise),
 * a v5 app's PrismaAdapter(prisma) or DrizzleAdapter of its own) stays the
 * only one; init adds what is missing and writes no adapter, schema, SQLite
 * driver or db:migrate of its own; verify-adapter runs a module that makes
 * the app's adapter with the app's own client. The projects are the base
 * fixtures with the auth added by a small transform here.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixture, inProcess, snapshot, tempDir } from "../helpers.js";
import { copyInput } from "../upgrade/cases.js";

const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");
const v4Config = "pages/api/auth/[...nextauth].ts";

function edit(dir: string, path: string, change: (text: string) => string) {
  const before = read(dir, path);
  const after = change(before);
  if (after === before) throw new Error(`${path}: the transform changed nothing`);
  writeFileSync(join(dir, path), after);
}

function addDependencies(dir: string, dependencies: Record<string, string>) {
  const pkg = JSON.parse(read(dir, "package.json"));
  pkg.dependencies = { ...pkg.dependencies, ...dependencies };
  writeFileSync(join(dir, "package.json"), `${JSON.stringify(pkg, null, 2)}\n`);
}

/** The v4 Pages Router app with MongoDB: its client module, and the adapter in authOptions. */
function v4MongoApp(): string {
  const dir = tempDir("create-auth-kept-v4-");
  copyInput("pages-github-credentials", dir);
  writeFileSync(
    join(dir, "lib/mongodb.ts"),
    'import { MongoClient } from "mongodb";\n\nconst client = new MongoClient(process.env.MONGODB_URI ?? "");\nconst clientPromise = client.connect();\n\nexport default clientPromise;\n',
  );
  edit(dir, v4Config, (text) =>
    text
      .replace(
        'import { findUser } from "../../../lib/users";',
        'import { MongoDBAdapter } from "@next-auth/mongodb-adapter";\nimport clientPromise from "@/lib/mongodb";\nimport { findUser } from "../../../lib/users";',
      )
      .replace("export const authOptions: NextAuthOptions = {\n", "$&  adapter: MongoDBAdapter(clientPromise),\n"),
  );
  addDependencies(dir, { mongodb: "5.9.2", "@next-auth/mongodb-adapter": "1.1.3" });
  return dir;
}

/** A v5 app whose config makes PrismaAdapter(prisma) from its own client, reached through tsconfig's "@/*". */
function v5PrismaApp(): string {
  const dir = tempDir("create-auth-kept-v5-");
  cpSync(fixture("projects", "next-app"), dir, { recursive: true });
  mkdirSync(join(dir, "src/lib"));
  writeFileSync(
    join(dir, "src/lib/prisma.ts"),
    'import { PrismaClient } from "@prisma/client";\n\nexport const prisma = new PrismaClient();\n',
  );
  writeFileSync(
    join(dir, "tsconfig.json"),
    '{\n  "compilerOptions": { "strict": true, "paths": { "@/*": ["./src/*"] } }\n}\n',
  );
  addDependencies(dir, { next: "16.0.0", "@auth/prisma-adapter": "2.11.1", "@prisma/client": "6.19.0" });
  return dir;
}

/** What the command changed, by path. */
function changes(before: Record<string, string>, after: Record<string, string>): string[] {
  return Object.keys(after)
    .filter((path) => before[path] !== after[path])
    .sort();
}

const storageOfInit = /better-sqlite3|db:migrate|schema\.sqlite|createAdapter|@auth\/core/;

describe("init --yes in a project that already has auth", () => {
  it("next-auth v4 with MongoDBAdapter(clientPromise): no second storage, authOptions untouched, verify-adapter on the app's adapter", async () => {
    const dir = v4MongoApp();
    const before = snapshot(dir);
    const result = await inProcess(["init", "--yes", "--no-install"], { cwd: dir });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const after = snapshot(dir);
    expect(changes(before, after)).toEqual(["lib/auth/load-env.ts", "lib/auth/verify-adapter.ts", "package.json"]);
    expect(after[v4Config]).toBe(before[v4Config]);
    const pkg = JSON.parse(after["package.json"]!);
    expect(pkg.scripts["verify-adapter"]).toBe("create-auth verify-adapter lib/auth/verify-adapter.ts");
    expect(JSON.stringify(pkg)).not.toMatch(storageOfInit);
    const verify = after["lib/auth/verify-adapter.ts"]!;
    expect(verify).toContain('import "./load-env";');
    expect(verify).toContain('import { MongoDBAdapter } from "@next-auth/mongodb-adapter";');
    expect(verify).toContain('import clientPromise from "../mongodb";');
    expect(verify).toContain("return MongoDBAdapter(clientPromise);");
    expect(result.stdout).toMatch(/keeps its adapter \(MongoDBAdapter\(clientPromise\)\): no second storage/);
    expect(result.stdout).not.toMatch(/db:migrate|auth tables/i);
  });

  it("next-auth v4: --providers and --session still add what is missing, beside the kept adapter", async () => {
    const dir = v4MongoApp();
    const result = await inProcess(["init", "--yes", "--no-install", "--providers", "google", "--session", "jwt"], {
      cwd: dir,
    });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const config = read(dir, v4Config);
    expect(config).toContain("adapter: MongoDBAdapter(clientPromise),");
    expect(config).toContain('session: { strategy: "jwt" },');
    expect(config).toMatch(/ {4}google,\n {2}\],/);
    expect(config).not.toContain("createAdapter");
  });

  it.each([
    ["--backend", "postgres"],
    ["--orm", "prisma"],
    ["--schema", "drizzle"],
  ])("beside the app's adapter, %s %s is refused in one line and nothing is written", async (flag, value) => {
    const dir = v4MongoApp();
    const before = snapshot(dir);
    const result = await inProcess(["init", "--yes", "--no-install", flag, value], { cwd: dir });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `^error: ${flag}: pages/api/auth/\\[\\.\\.\\.nextauth\\]\\.ts already makes its adapter \\(MongoDBAdapter\\(clientPromise\\)\\), and init keeps the storage an app has`,
      ),
    );
    expect(snapshot(dir)).toEqual(before);
  });

  it("a v5 app with PrismaAdapter(prisma): no adapter, schema or driver of init's; verify-adapter imports the app's client", async () => {
    const dir = v5PrismaApp();
    const before = snapshot(dir);
    const result = await inProcess(["init", "--yes", "--no-install"], { cwd: dir });
    expect(result.stderr).toBe("");
    expect(result.exitCode).toBe(0);
    const after = snapshot(dir);
    expect(after["src/auth.ts"]).toBe(before["src/auth.ts"]);
    expect(changes(before, after).filter((p) => !/^\.env|^\.gitignore$/.test(p))).toEqual([
      "auth/load-env.ts",
      "auth/verify-adapter.ts",
      "package.json",
    ]);
    const pkg = after["package.json"]!;
    expect(pkg).not.toMatch(storageOfInit);
    expect(JSON.parse(pkg).scripts["verify-adapter"]).toBe("create-auth verify-adapter auth/verify-adapter.ts");
    const verify = after["auth/verify-adapter.ts"]!;
    expect(verify).toContain('import { PrismaAdapter } from "@auth/prisma-adapter";');
    expect(verify).toContain('import { prisma } from "../src/lib/prisma";');
    expect(verify).toContain("return PrismaAdapter(prisma);");
    // The providers init did not add to the app's config say nothing of themselves.
    expect(result.stdout).not.toMatch(/credentials|password/i);
  });

  it("a second run changes nothing", async () => {
    const dir = v5PrismaApp();
    await inProcess(["init", "--yes", "--no-install"], { cwd: dir });
    const before = snapshot(dir);
    const again = await inProcess(["init", "--yes", "--no-install"], { cwd: dir });
    expect(again.exitCode).toBe(0);
    expect(snapshot(dir)).toEqual(before);
  });

  it.each(["drizzle-sqlite", "prisma-sqlite"])(
    "an adapter init generated is init's own: a second init on %s sets it up as before, nothing kept or left alone",
    async (name) => {
      const dir = tempDir(`create-auth-kept-${name}-`);
      cpSync(fixture("projects", "orm", name), dir, { recursive: true });
      const args = ["init", "--yes", "--providers", "email", "--session", "database", "--no-install"];
      expect((await inProcess(args, { cwd: dir })).exitCode).toBe(0);
      const before = snapshot(dir);
      const again = await inProcess(args, { cwd: dir });
      expect(again.exitCode).toBe(0);
      expect(again.stdout).toMatch(/nothing changed/);
      expect(again.stdout).not.toMatch(/keeps its adapter|left alone/);
      expect(snapshot(dir)).toEqual(before);
    },
  );

  it("--refresh-tokens beside the app's own config names add-provider, which wires it; nothing is written", async () => {
    const dir = v5PrismaApp();
    const before = snapshot(dir);
    const result = await inProcess(["init", "--yes", "--no-install", "--providers", "google", "--refresh-tokens"], {
      cwd: dir,
    });
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toMatch(
      /^error: --refresh-tokens: src\/auth\.ts keeps its own config and adapter; add the provider with create-auth add-provider/,
    );
    expect(snapshot(dir)).toEqual(before);
  });
});
