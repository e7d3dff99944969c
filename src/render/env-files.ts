/**
 * The dotenv files and .gitignore, for init and add-provider alike, planned
 * from what the project's env files already hold, read once before planning
 * (project-env.ts; src/workspace/read-env.ts reads them):
 * - .env.example documents every variable without a secret value;
 * - a variable the project sets in any file it loads is left where it is,
 *   whatever its value (an empty one is filled only with a value given on
 *   the command line, which is never a secret);
 * - a new variable goes to .env.local, except the database's in a project
 *   whose ORM tool reads .env (Prisma, drizzle-kit), which goes to .env;
 * - a value given on the command line (--issuer) is written as given; with
 *   no value, a variable that Auth.js would read empty as a value is written
 *   commented out (`# AUTH_X_ID=`), and the next steps say what to fill in;
 * - init's AUTH_SECRET is fresh in .env.local, or fills an empty one there.
 * .gitignore keeps .env.local (and a .env init creates) out of git.
 */
import { randomBytes } from "node:crypto";
import ignore from "ignore";
import { addEnvEntries, commentedNames, fillEmptyValue } from "./env-file.js";
import { addIgnoreEntries, type IgnoreEntry } from "./gitignore.js";
import type { EnvVariable, PlannedFile } from "./parts.js";
import { type EnvOrder, type EnvToFill, envFileNames, type ProjectEnv, toolEnvFile } from "./project-env.js";
import { renderTemplate } from "./templates.js";

export type { EnvToFill } from "./project-env.js";

/** 32 random bytes, base64: what `npx auth secret` writes. */
export const newSecret = () => randomBytes(32).toString("base64");

export const secretVariable: EnvVariable = {
  name: "AUTH_SECRET",
  description: "Signs and encrypts cookies and tokens: 32 random bytes, base64 (a secret: never commit it)",
  example: "",
};

/** Where new variables go: git-ignored, read by every framework (not in test, by Next.js). */
export const localEnvFile = ".env.local";
export const exampleEnvFile = ".env.example";

/**
 * Whether Auth.js takes `NAME=` (set, empty) as a value rather than as unset.
 * setEnvDefaults (@auth/core lib/utils/env.js, which every framework package
 * calls) reads them with `??`: AUTH_<ID>_ID, _SECRET, _ISSUER and _KEY are
 * handed to each provider (a built-in called with `issuer: ""` loses its own
 * issuer, and every request then fails with InvalidEndpoints), and an empty
 * AUTH_URL, AUTH_TRUST_HOST, VERCEL or CF_PAGES turns trustHost off.
 * AUTH_SECRET, AUTH_SECRET_1..3 and AUTH_REDIRECT_PROXY_URL are only used
 * when not empty.
 */
export function authReadsEmptyAsValue(name: string): boolean {
  return (
    ["AUTH_URL", "AUTH_TRUST_HOST", "VERCEL", "CF_PAGES"].includes(name) ||
    /^AUTH_.+_(?:ID|SECRET|ISSUER|KEY)$/.test(name)
  );
}

export interface EnvWriteRequest {
  /** The project's env files, read once before planning (readEnvForWriting, src/workspace/read-env.ts). */
  env: ProjectEnv;
  /** Whose precedence the project's env files follow: its framework's. */
  envOrder: EnvOrder;
  variables: readonly EnvVariable[];
  /** The comment above the lines added to each file (.env.local's also says to keep it out of git). */
  heading: string;
  /** init: the fresh AUTH_SECRET, written unless the project has one. */
  secret?: string;
  /** The database's variables and the file the project keeps them in. */
  database?: { names: readonly string[]; file: string };
}

export interface EnvWritePlan {
  /** The env files that change (.env.example included), relative to the project, with their texts. */
  files: { name: string; before: string | null; after: string }[];
  /** The file each variable is set in now (the one that wins in development), by name. */
  where: Record<string, string>;
  toFill: EnvToFill[];
  notices: string[];
  /** Env files this plan creates that hold values: to keep out of git. */
  created: string[];
}

/** "Auth (added by create-auth init)" -> "Auth (added by create-auth init; keep this file out of git)". */
const localHeading = (heading: string) =>
  heading.endsWith(")")
    ? `${heading.slice(0, -1)}; keep this file out of git)`
    : `${heading} (keep this file out of git)`;

/** The file a new variable goes to. */
function targetOf(request: EnvWriteRequest, name: string): string {
  return request.database?.names.includes(name) ? request.database.file : localEnvFile;
}

export function planEnvWrites(request: EnvWriteRequest): EnvWritePlan {
  const { env } = request;
  const texts = new Map<string, string | null>();
  const textOf = (file: string) => (texts.has(file) ? texts.get(file)! : env.text(file));
  const edit = (file: string, change: (text: string) => string) => texts.set(file, change(textOf(file) ?? ""));
  const developmentFiles = new Set(envFileNames(request.envOrder, "development"));
  const where: Record<string, string> = {};
  const toFill: EnvToFill[] = [];
  const notices: string[] = [];
  const additions = new Map<string, { variable: EnvVariable; line: string | null }[]>();
  const add = (file: string, variable: EnvVariable, line: string | null) => {
    additions.set(file, [...(additions.get(file) ?? []), { variable, line }]);
    where[variable.name] = file;
  };

  if (request.secret !== undefined) planSecret(request, request.secret, { env, edit, add, where, notices });
  for (const variable of request.variables) {
    if (variable.name === secretVariable.name && request.secret !== undefined) continue;
    const settings = env.settings(variable.name).filter((s) => s.source !== "environment");
    const target = targetOf(request, variable.name);
    if (settings.length === 0) {
      if (commentedNames(textOf(target) ?? "").has(variable.name)) {
        where[variable.name] = target;
        toFill.push({ name: variable.name, file: target, commented: true });
        continue;
      }
      const line = variable.example !== "" ? variable.example : authReadsEmptyAsValue(variable.name) ? null : "";
      add(target, variable, line);
      if (variable.example === "") toFill.push({ name: variable.name, file: target, commented: line === null });
      continue;
    }
    const wins = settings[0]!;
    where[variable.name] = wins.source;
    if (!developmentFiles.has(wins.source)) {
      notices.push(
        `${variable.name} is set in ${wins.source} only, which is not read in development: set it for development too.`,
      );
    } else if (request.database?.names.includes(variable.name)) {
      if (wins.value !== variable.example)
        notices.push(`${variable.name} is set in ${wins.source}: the auth tables go to that database.`);
    } else if (wins.value === "" && variable.example !== "") {
      // Left empty by hand or by an earlier run: the value given now is no secret, so it fills the line that counts.
      edit(wins.source, (text) => fillEmptyValue(text, variable.name, variable.example));
      notices.push(`${variable.name} was empty in ${wins.source}; it now holds the value given.`);
    } else if (wins.value === "") {
      toFill.push({ name: variable.name, file: wins.source, commented: false });
      if (authReadsEmptyAsValue(variable.name))
        notices.push(
          `${variable.name} is set empty in ${wins.source}, which Auth.js reads as a value: fill it in, or comment the line out until you can.`,
        );
    } else if (variable.example !== "" && wins.value !== variable.example) {
      notices.push(
        `${variable.name} is already set in ${wins.source} to another value than the one given; it was kept, and it is what the app uses.`,
      );
    }
  }

  for (const [file, lines] of additions) {
    const values = new Map(lines.map(({ variable, line }) => [variable, line]));
    const heading = file === localEnvFile ? localHeading(request.heading) : request.heading;
    edit(file, (text) => addEnvEntries(text, [...values.keys()], heading, (v) => values.get(v) ?? null));
  }
  const documented = [...(request.secret !== undefined ? [secretVariable] : []), ...request.variables];
  texts.set(
    exampleEnvFile,
    addEnvEntries(textOf(exampleEnvFile), documented, request.heading, (v) => v.example),
  );

  // .env.example first, as the files are listed to the user.
  const files = [...texts]
    .map(([name, after]) => ({ name, before: env.text(name), after: after ?? "" }))
    .filter((f) => f.after !== (f.before ?? ""))
    .sort((a, b) => Number(b.name === exampleEnvFile) - Number(a.name === exampleEnvFile));
  const created = files.filter((f) => f.before === null && f.name !== exampleEnvFile).map((f) => f.name);
  return { files, where, toFill, notices, created };
}

interface SecretContext {
  env: ProjectEnv;
  edit(file: string, change: (text: string) => string): void;
  add(file: string, variable: EnvVariable, line: string | null): void;
  where: Record<string, string>;
  notices: string[];
}

/**
 * A secret the project has stays. An empty one in a `.local` file (as after
 * `cp .env.example .env.local`) is filled where it is; otherwise the fresh
 * one goes to .env.local, never to a file that may be committed.
 */
function planSecret(request: EnvWriteRequest, secret: string, context: SecretContext): void {
  const name = secretVariable.name;
  const developmentFiles = envFileNames(request.envOrder, "development");
  const settings = context.env.settings(name).filter((s) => s.source !== "environment");
  const forDevelopment = settings.find((s) => developmentFiles.includes(s.source));
  if (forDevelopment?.value) {
    context.where[name] = forDevelopment.source;
    return;
  }
  if (forDevelopment?.source.endsWith(".local")) {
    context.edit(forDevelopment.source, (text) => fillEmptyValue(text, name, secret));
    context.where[name] = forDevelopment.source;
    context.notices.push(`AUTH_SECRET was empty in ${forDevelopment.source}; it now holds a fresh secret.`);
    return;
  }
  if (settings.some((s) => s.source === localEnvFile)) {
    context.edit(localEnvFile, (text) => fillEmptyValue(text, name, secret));
    context.where[name] = localEnvFile;
  } else context.add(localEnvFile, secretVariable, secret);
  const beatsLocal = (file: string) => developmentFiles.indexOf(file) < developmentFiles.indexOf(localEnvFile);
  if (forDevelopment && beatsLocal(forDevelopment.source))
    context.notices.push(
      `AUTH_SECRET is empty in ${forDevelopment.source}, which wins over the fresh one in ${localEnvFile}: remove that line.`,
    );
  else if (!forDevelopment && settings.length)
    context.notices.push(
      `AUTH_SECRET is set in ${settings[0]!.source} only, which is not read in development; ${localEnvFile} now holds one for development.`,
    );
}

/**
 * .env.local holds secrets, as does a .env create-auth creates for the
 * database; a store's own files (sqlite: the database file and its
 * -wal/-shm) hold users and sessions. .env.example documents the variables
 * and stays tracked, also under a rule such as Next.js's `.env*`.
 */
export function gitignore(existing: string | null, extra: readonly IgnoreEntry[] = []): string {
  const text = addIgnoreEntries(existing, [
    ...(existing === null ? [{ pattern: "node_modules", paths: ["node_modules/"] }] : []),
    localEnvFile,
    ...extra,
  ]);
  return ignore().add(text).ignores(exampleEnvFile) ? addUnignore(text, `!${exampleEnvFile}`) : text;
}

function addUnignore(text: string, rule: string): string {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  return `${text}${text === "" || text.endsWith("\n") ? "" : eol}${rule}${eol}`;
}

/** What the generated env loaders (load-env.ts) render with: Vite's order for SvelteKit, else Next.js's. */
export const envLoaderView = (order: EnvOrder) => ({ vite: order === "vite" });

/** The env loader module at `path`, for scripts and servers that load no env file themselves: one text per order, whoever plans it. */
export async function loadEnvModule(path: string, order: EnvOrder): Promise<PlannedFile> {
  return { path, contents: await renderTemplate("adapters/load-env.ts.hbs", envLoaderView(order)) };
}

/** The database's file for a project whose ORM tool reads .env by itself, else .env.local. */
export const databaseEnvFile = (orm: boolean) => (orm ? toolEnvFile : localEnvFile);
