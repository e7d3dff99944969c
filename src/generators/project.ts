/**
 * The project files init plans around the generated auth code: package.json
 * (created, or merged without changing a value that is there), tsconfig.json
 * (only when absent), the dotenv files and .gitignore — and `planInit`, which
 * puts every generated file and these merges into one plan. Nothing here
 * writes; reading the project is all it does.
 */
import { randomBytes } from "node:crypto";
import { existsSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { dependencyVersions } from "../catalog/dependencies.js";
import { UsageError } from "../lib/errors.js";
import { kindEntry, type ProviderKind } from "../providers/kinds.js";
import type { ProviderSnippet } from "../providers/snippet.js";
import { addEnvEntries, type EnvEntry } from "../workspace/env-file.js";
import { usualConfigPlaces } from "../workspace/find-config.js";
import { addIgnoreEntries } from "../workspace/gitignore.js";
import { changeFile, type FileChange, readIfExists } from "../workspace/plan.js";
import { importExtension } from "../workspace/project.js";
import { selfDependencySpec } from "../workspace/self.js";
import type { Backend, Dialect, GeneratedPart, PlannedFile, SchemaFlavour } from "./types.js";

/** Versions come only from the catalog; a name it lacks is reported, never guessed. */
export function catalogVersion(name: string): string | undefined {
  if (name === "create-auth") return selfDependencySpec();
  return (dependencyVersions as Record<string, string>)[name];
}

/** npm 11 blocks dependency install scripts unless package.json#allowScripts approves them; these need theirs (native builds). */
const needInstallScripts = new Set(["better-sqlite3"]);

export interface PackageNeeds {
  dependencies: string[];
  devDependencies: string[];
  scripts: Record<string, string>;
}

export interface PackageMerge {
  /** New package.json text; equal to the input when nothing was missing. */
  text: string;
  /** Things left as they were although they differ from what init would write. */
  kept: string[];
}

/** A valid npm name from a folder name: lowercase, url-safe characters. */
export function packageName(dir: string): string {
  const name = basename(dir)
    .toLowerCase()
    .replace(/[^a-z0-9._~-]+/g, "-")
    .replace(/^[._-]+|-+$/g, "");
  return name || "app";
}

const indentOf = (text: string) => /^[ \t]+(?=")/m.exec(text)?.[0] ?? "  ";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * Adds what is missing to package.json. A dependency already listed in
 * either section keeps its version (reported when it differs from the
 * catalog), an existing script keeps its command, an existing allowScripts
 * entry (even a denial) stays. Key order of what is there is kept.
 */
export function mergePackageJson(existing: string | null, needs: PackageNeeds, dir: string): PackageMerge {
  const kept: string[] = [];
  const pkg: Json =
    existing === null
      ? { name: packageName(dir), version: "0.0.0", private: true, type: "module" }
      : (JSON.parse(existing) as Json);
  let changed = existing === null;
  const section = (key: string): Json => {
    if (!isObject(pkg[key])) pkg[key] = {};
    return pkg[key] as Json;
  };
  const listed = (name: string) =>
    [pkg.dependencies, pkg.devDependencies, pkg.peerDependencies].find((s) => isObject(s) && name in s) as
      | Json
      | undefined;
  for (const [key, names] of [
    ["dependencies", needs.dependencies],
    ["devDependencies", needs.devDependencies],
  ] as const) {
    for (const name of [...new Set(names)].sort()) {
      const version = catalogVersion(name);
      if (version === undefined) {
        kept.push(`${name} is not in create-auth's version catalog and was not added; add it yourself`);
        continue;
      }
      const where = listed(name);
      if (where) {
        if (where[name] !== version)
          kept.push(`package.json keeps ${name}@${String(where[name])} (create-auth would add ${version})`);
        continue;
      }
      section(key)[name] = version;
      changed = true;
    }
  }
  for (const [name, command] of Object.entries(needs.scripts)) {
    const scripts = isObject(pkg.scripts) ? pkg.scripts : undefined;
    if (scripts && name in scripts) {
      if (scripts[name] !== command)
        kept.push(`package.json keeps its "${name}" script (create-auth would run: ${command})`);
      continue;
    }
    section("scripts")[name] = command;
    changed = true;
  }
  for (const name of needs.dependencies.filter((n) => needInstallScripts.has(n))) {
    const allow = isObject(pkg.allowScripts) ? pkg.allowScripts : undefined;
    // Any entry naming the package (pinned "name@1.2.3" or a denial) is the user's decision.
    if (allow && Object.keys(allow).some((k) => k === name || k.startsWith(`${name}@`))) continue;
    // Name-only approval: the version is not known before the install (npm help install-scripts).
    section("allowScripts")[name] = true;
    changed = true;
  }
  if (!changed) return { text: existing!, kept };
  const eol = existing === null || existing.endsWith("\n") ? "\n" : "";
  return { text: `${JSON.stringify(pkg, null, existing === null ? 2 : indentOf(existing))}${eol}`, kept };
}

export interface TsconfigChoice {
  text: string;
  importExtension: "" | ".js";
}

/**
 * A tsconfig for a project that has none. An ESM package gets Node's own
 * resolution (NodeNext, so relative imports carry ".js"); a CommonJS one
 * gets bundler resolution with bare imports, which tsx and bundlers accept.
 */
export function newTsconfig(esm: boolean, decorators: boolean): TsconfigChoice {
  const compilerOptions: Json = {
    target: "ES2022",
    module: esm ? "NodeNext" : "ESNext",
    moduleResolution: esm ? "NodeNext" : "Bundler",
    lib: ["ES2023"],
    strict: true,
    skipLibCheck: true,
    esModuleInterop: true,
    noEmit: true,
    ...(decorators ? { experimentalDecorators: true, emitDecoratorMetadata: true } : {}),
  };
  const config = { compilerOptions, include: ["**/*.ts"], exclude: ["node_modules"] };
  return { text: `${JSON.stringify(config, null, 2)}\n`, importExtension: esm ? ".js" : "" };
}

export interface EnvVar {
  name: string;
  description: string;
  example: string;
}

/** 32 random bytes, base64: what `npx auth secret` writes. */
export const newSecret = () => randomBytes(32).toString("base64");

const secretVar: EnvVar = {
  name: "AUTH_SECRET",
  description: "Signs and encrypts cookies and tokens: 32 random bytes, base64 (a secret: never commit it)",
  example: "",
};

/** .env.example documents every variable, without values that are secrets. */
export function envExample(existing: string | null, vars: EnvVar[]): string {
  const entries: EnvEntry[] = [secretVar, ...vars].map((v) => ({
    name: v.name,
    description: v.description,
    value: v.example,
  }));
  return addEnvEntries(existing, entries, "Auth (added by create-auth init)");
}

/** .env.local gets a fresh AUTH_SECRET (kept if one is there) and the other variables with their examples. */
export function envLocal(existing: string | null, vars: EnvVar[], secret: string = newSecret()): string {
  const entries: EnvEntry[] = [
    { ...secretVar, value: secret },
    ...vars.map((v) => ({ name: v.name, description: v.description, value: v.example })),
  ];
  return addEnvEntries(existing, entries, "Auth (added by create-auth init; keep this file out of git)");
}

/** .env.local holds the secret: keep it out of git (a new .gitignore also gets node_modules). */
/** .env.local holds the secret; the embedded database file (and its -wal/-shm) holds users and sessions. */
export const gitignore = (existing: string | null, backend?: Backend) =>
  addIgnoreEntries(existing, [
    ...(existing === null ? ["node_modules"] : []),
    ".env.local",
    ...(backend === "sqlite" ? ["auth.db*"] : []),
  ]);

/** The adapter and schema generators (src/generators/adapter.ts, schema.ts), loaded only when init plans. */
export interface Generators {
  generateAdapter(
    backend: Backend,
    context: { importExtension: "" | ".js"; dialect?: Dialect },
  ): Promise<GeneratedPart>;
  generateSchema(
    flavour: Exclude<SchemaFlavour, "sql">,
    dialect: Dialect,
    context: { importExtension: "" | ".js" },
  ): Promise<GeneratedPart>;
  generateSqlSchema(dialect: Dialect): Promise<GeneratedPart>;
}

/** Each generator module is imported only when called: a sql-flavour run never loads the ORM schema generator. */
const loadGenerators = async (): Promise<Generators> => ({
  generateAdapter: async (...args) => (await import("./adapter.js")).generateAdapter(...args),
  generateSchema: async (...args) => (await import("./schema.js")).generateSchema(...args),
  generateSqlSchema: async (...args) => (await import("./sql-schema.js")).generateSqlSchema(...args),
});

export interface InitRequest {
  root: string;
  kinds: ProviderKind[];
  kindOptions: Record<string, unknown>[];
  backend: Backend;
  schema: SchemaFlavour;
  dialect: Dialect;
  session: "jwt" | "database";
  force: boolean;
}

export interface InitPlan {
  changes: FileChange[];
  /** Project-relative paths of files that exist with other contents and were left alone (no --force). */
  leftAlone: string[];
  /** Values kept although they differ from what init would write (package.json), and other notices. */
  notices: string[];
  snippets: ProviderSnippet[];
  /** Relative path of the auth config. */
  configPath: string;
  scripts: Record<string, string>;
}

/** Dependencies of the chosen providers: those in the catalog are added, the others named in a notice. */
function providerDependencies(kinds: ProviderKind[], notices: string[]): string[] {
  const names = kinds.flatMap((k) => Object.keys(kindEntry(k).dependencies ?? {}));
  const missing = names.filter((n) => catalogVersion(n) === undefined);
  if (missing.length)
    notices.push(
      `Install ${missing.join(" and ")} yourself (not in create-auth's version catalog): the ${kinds.filter((k) => kindEntry(k).dependencies).join(", ")} provider needs them.`,
    );
  return names.filter((n) => catalogVersion(n) !== undefined);
}

export async function planInit(
  request: InitRequest,
  generators: () => Promise<Generators> = loadGenerators,
): Promise<InitPlan> {
  const { root } = request;
  const notices: string[] = [];
  const pkgText = readIfExists(join(root, "package.json"));
  let esm = true;
  if (pkgText !== null) {
    try {
      esm = (JSON.parse(pkgText) as { type?: unknown }).type === "module";
    } catch {
      throw new UsageError(`${join(root, "package.json")} is not valid JSON; fix it first (nothing was written).`);
    }
  }
  const hasTsconfig = existsSync(join(root, "tsconfig.json"));
  const tsconfig = hasTsconfig ? undefined : newTsconfig(esm, request.schema === "typeorm");
  const ext = tsconfig?.importExtension ?? importExtension(root);
  if (
    hasTsconfig &&
    request.schema === "typeorm" &&
    !/"experimentalDecorators"\s*:\s*true/.test(readIfExists(join(root, "tsconfig.json")) ?? "")
  ) {
    notices.push(
      'TypeORM entities need "experimentalDecorators": true and "emitDecoratorMetadata": true in your tsconfig.json (left as it is).',
    );
  }

  const gen = await generators();
  const { generateProvider } = await import("../providers/generate.js");
  const { generateConfig } = await import("./config.js");
  const [adapter, schema, snippets] = await Promise.all([
    gen.generateAdapter(request.backend, { importExtension: ext, dialect: request.dialect }),
    request.schema === "sql"
      ? gen.generateSqlSchema(request.dialect)
      : gen.generateSchema(request.schema, request.dialect, { importExtension: ext }),
    Promise.all(
      request.kinds.map((kind, i) => generateProvider(kind, request.kindOptions[i] ?? {}, { importExtension: ext })),
    ),
  ]);
  const adapterFile = adapter.files.find((f) => /(^|\/)adapter\.ts$/.test(f.path));
  if (!adapterFile) throw new Error("generateAdapter returned no adapter.ts");

  const srcDir = existsSync(join(root, "src")) && statSync(join(root, "src")).isDirectory();
  const configPath = srcDir ? "src/auth.ts" : "auth.ts";
  const otherConfig = usualConfigPlaces.find((p) => p !== configPath && existsSync(join(root, p)));
  const scripts = { ...adapter.scripts, ...schema.scripts };
  const verifyCommand = "verify-adapter" in scripts ? "npm run verify-adapter" : "npx create-auth verify-adapter";
  const config = await generateConfig({
    configPath,
    providers: snippets,
    adapter: adapterFile,
    session: request.session,
    backend: request.backend,
    importExtension: ext,
    verifyCommand,
  });

  const changes: FileChange[] = [];
  const leftAlone: string[] = [];
  // The SQL adapter ships its own schema.<dialect>.sql; the same path from the schema generator is the same file.
  const fromAdapter = new Set(adapter.files.map((f) => f.path));
  const generated: PlannedFile[] = [
    ...(otherConfig ? [] : config),
    ...adapter.files,
    ...schema.files.filter((f) => !fromAdapter.has(f.path)),
    ...(tsconfig ? [{ path: "tsconfig.json", contents: tsconfig.text }] : []),
  ];
  if (otherConfig)
    notices.push(
      `An auth config exists at ${otherConfig}; it was left alone. Add providers to it with create-auth add-provider <kind>, and the adapter from ${adapterFile.path}.`,
    );
  for (const file of generated) {
    const change = changeFile(join(root, file.path), file.contents);
    if (change?.before != null && !request.force) leftAlone.push(file.path);
    else if (change) changes.push(change);
  }
  if (leftAlone.includes(configPath))
    notices.push(`${configPath} exists and was left alone; add providers to it with create-auth add-provider <kind>.`);

  const vars = new Map<string, EnvVar>();
  for (const v of [...adapter.env, ...schema.env, ...snippets.flatMap((s) => s.env)])
    if (!vars.has(v.name)) vars.set(v.name, v);
  const merged = mergePackageJson(
    pkgText,
    {
      dependencies: [
        "@auth/core",
        ...adapter.dependencies,
        ...schema.dependencies,
        ...providerDependencies(request.kinds, notices),
      ],
      // create-auth runs the verify-adapter script; typescript and tsx type-check and run the .ts files.
      devDependencies: [
        "create-auth",
        "typescript",
        "tsx",
        "@types/node",
        ...adapter.devDependencies,
        ...schema.devDependencies,
      ],
      scripts,
    },
    root,
  );
  notices.push(...merged.kept);
  const merges: [string, string][] = [
    ["package.json", merged.text],
    [".env.example", envExample(readIfExists(join(root, ".env.example")), [...vars.values()])],
    [".env.local", envLocal(readIfExists(join(root, ".env.local")), [...vars.values()])],
    [".gitignore", gitignore(readIfExists(join(root, ".gitignore")), request.backend)],
  ];
  for (const [path, text] of merges) {
    const change = changeFile(join(root, path), text);
    if (change) changes.push(change);
  }
  return { changes, leftAlone, notices, snippets, configPath, scripts };
}
