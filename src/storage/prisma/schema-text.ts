/**
 * Reading a schema.prisma and adding the Auth.js models to it, as pure text:
 * the blocks are found by a small scanner that knows Prisma's comments and
 * strings; the models are appended after the last byte, in the file's own
 * line ending, so every byte of the user's schema stays where it was. A
 * file the scanner cannot read, a datasource this tool writes no SQL for,
 * or a model or table name already taken is a refusal, never an edit.
 */
import type { Dialect } from "../../catalog/sql-dialects.js";
import { dialectOfPrismaProvider, sqlDialects } from "../sql/dialects/index.js";
import { attemptModelName, authModelNames, renderPrismaModels, tableName, twoFactorModelNames } from "./models.js";

export interface PrismaBlock {
  kind: string;
  name: string;
  body: string;
  /** 1-based line of the block's keyword. */
  line: number;
}

export interface PrismaSchemaFacts {
  blocks: PrismaBlock[];
  /** The datasource's provider as written ("postgresql"), when there is one. */
  provider?: string;
  /** The datasource has a `url` (Prisma 6 style); Prisma 7 keeps it in prisma.config.ts. */
  hasUrl: boolean;
  generator?: { provider?: string; output?: string };
  eol: "\n" | "\r\n";
}

export class PrismaSchemaError extends Error {}

const blockKinds = new Set(["model", "enum", "view", "type", "datasource", "generator"]);

/** The top-level blocks of a schema, or a PrismaSchemaError naming the line it could not read. */
export function parsePrismaSchema(text: string): PrismaSchemaFacts {
  const blocks: PrismaBlock[] = [];
  let i = 0;
  let line = 1;
  const fail = (what: string): never => {
    throw new PrismaSchemaError(`line ${line}: ${what}`);
  };
  const skipSpaceAndComments = () => {
    while (i < text.length) {
      const c = text[i]!;
      if (c === "\n") line++;
      if (/\s/.test(c)) i++;
      else if (text.startsWith("//", i)) while (i < text.length && text[i] !== "\n") i++;
      else break;
    }
  };
  while (true) {
    skipSpaceAndComments();
    if (i >= text.length) break;
    const head = /^([A-Za-z]\w*)[ \t]+([A-Za-z_]\w*)[ \t]*\{/.exec(text.slice(i, i + 200));
    if (!head || !blockKinds.has(head[1]!)) fail(`expected a model, enum, datasource or generator block`);
    const [matched, kind, name] = head as unknown as [string, string, string];
    const startLine = line;
    i += matched.length;
    const bodyStart = i;
    let depth = 1;
    while (depth > 0) {
      if (i >= text.length) throw new PrismaSchemaError(`line ${startLine}: ${kind} ${name} has no closing brace`);
      const c = text[i]!;
      if (c === "\n") line++;
      if (text.startsWith("//", i)) {
        while (i < text.length && text[i] !== "\n") i++;
        continue;
      }
      if (c === '"') {
        i++;
        while (i < text.length && text[i] !== '"' && text[i] !== "\n") i += text[i] === "\\" ? 2 : 1;
        if (text[i] !== '"') fail("a string is not closed");
      } else if (c === "{") depth++;
      else if (c === "}") depth--;
      i++;
    }
    blocks.push({ kind, name, body: text.slice(bodyStart, i - 1), line: startLine });
  }
  const setting = (body: string, key: string) =>
    new RegExp(`^\\s*${key}\\s*=\\s*"([^"]*)"`, "m").exec(body)?.[1] ??
    (new RegExp(`^\\s*${key}\\s*=`, "m").test(body) ? "" : undefined);
  const datasource = blocks.find((b) => b.kind === "datasource");
  const generator = blocks.find((b) => b.kind === "generator");
  return {
    blocks,
    provider: datasource ? setting(datasource.body, "provider") : undefined,
    hasUrl: datasource ? /^\s*url\s*=/m.test(datasource.body) : false,
    generator: generator
      ? { provider: setting(generator.body, "provider"), output: setting(generator.body, "output") }
      : undefined,
    eol: /\r\n/.test(text) ? "\r\n" : "\n",
  };
}

/** What the datasource says: the dialect its provider means, and the variable its url reads (Prisma up to 6). */
export interface PrismaDatasource {
  dialect?: Dialect;
  variable?: string;
}

/** The datasource of a schema's text; empty when the schema cannot be read or names nothing create-auth knows. */
export function prismaDatasource(text: string): PrismaDatasource {
  let facts: PrismaSchemaFacts;
  try {
    facts = parsePrismaSchema(text);
  } catch (error) {
    if (error instanceof PrismaSchemaError) return {};
    throw error;
  }
  const body = facts.blocks.find((b) => b.kind === "datasource")?.body ?? "";
  return {
    dialect: dialectOfPrismaProvider(facts.provider),
    variable: /^\s*url\s*=\s*env\(\s*"(\w+)"\s*\)/m.exec(body)?.[1],
  };
}

/** The dialect of a datasource provider, or a refusal that names what is supported. */
export function dialectOfProvider(provider: string | undefined): Dialect {
  const dialect = dialectOfPrismaProvider(provider);
  if (!dialect)
    throw new PrismaSchemaError(
      provider === undefined || provider === ""
        ? "its datasource names no provider create-auth can read (a literal sqlite, postgresql or mysql)"
        : `its datasource provider "${provider}" is not one create-auth writes the auth models for (sqlite, postgresql, mysql)`,
    );
  return dialect;
}

/** The table each model is stored in: its @@map, else its name. */
export function tablesOf(facts: PrismaSchemaFacts): Map<string, string> {
  const tables = new Map<string, string>();
  for (const b of facts.blocks.filter((b) => b.kind === "model" || b.kind === "view"))
    tables.set(b.name, /^\s*@@map\(\s*(?:name:\s*)?"([^"]+)"/m.exec(b.body)?.[1] ?? b.name);
  return tables;
}

export const authMarker = "// Auth.js models for @auth/prisma-adapter (added by create-auth init).";
/** Above the counter model alone, added to the models of an older init. */
const attemptMarker = "// The sign-in throttle's attempt counters (added by create-auth init).";

export type PrismaMerge =
  | { status: "added"; text: string }
  | { status: "present" }
  | { status: "refused"; reason: string };

/**
 * Adds the auth models to `text`. Present when all of them are there already
 * (a second init, or a schema set up by hand); when the five Auth.js models
 * are there without the throttle's AttemptCounter (an older init), that one
 * is added alone; refused when some of the five, or any table the added
 * models would use, are taken by the user's own models.
 */
export function mergeAuthModels(text: string, dialect: Dialect, prefix?: string): PrismaMerge {
  const facts = parsePrismaSchema(text);
  const names = new Map(
    facts.blocks.filter((b) => !["datasource", "generator"].includes(b.kind)).map((b) => [b.name, b]),
  );
  const taken = authModelNames.filter((m) => names.has(m));
  const all = [...authModelNames, attemptModelName];
  if (taken.length === authModelNames.length && names.has(attemptModelName)) return { status: "present" };
  const firstTaken = taken[0] ?? (names.has(attemptModelName) ? attemptModelName : undefined);
  if (taken.length < authModelNames.length && firstTaken !== undefined) {
    const first = names.get(firstTaken)!;
    return {
      status: "refused",
      reason: `it already has ${first.kind} ${first.name} (line ${first.line}), and @auth/prisma-adapter needs its own models named ${all.join(", ")}: rename yours (@@map keeps its table), then run init again with --table-prefix auth_ so the auth tables get names of their own.`,
    };
  }
  const added = taken.length === authModelNames.length ? [attemptModelName] : all;
  const tables = tablesOf(facts);
  const inUse = new Map([...tables].map(([model, table]) => [table.toLowerCase(), model]));
  for (const model of added) {
    const table = tableName(model, prefix);
    const owner = inUse.get(table.toLowerCase());
    if (owner)
      return {
        status: "refused",
        reason: `its model ${owner} is stored in the table ${tables.get(owner)}, which the auth model ${model} would use: run init again with --table-prefix (e.g. auth_) to map the auth models to other tables.`,
      };
  }
  const eol = facts.eol;
  const separator = text === "" ? "" : text.endsWith(eol) ? (text.endsWith(eol + eol) ? "" : eol) : eol + eol;
  const marker = added.length === 1 ? attemptMarker : authMarker;
  return {
    status: "added",
    text: `${text}${separator}${marker}${eol}${renderPrismaModels(dialect, prefix, eol, added)}`,
  };
}

const twoFactorMarker = "// Two-factor sign-in's state, for two-factor-store.ts (added by create-auth).";

/**
 * Adds two-factor sign-in's models to `text` (which has the auth models): present when both are there,
 * refused when one is, or when a table they would use is taken.
 */
export function mergeTwoFactorModels(text: string, dialect: Dialect, prefix?: string): PrismaMerge {
  const facts = parsePrismaSchema(text);
  const names = new Set(facts.blocks.filter((b) => b.kind === "model").map((b) => b.name));
  const taken = twoFactorModelNames.filter((m) => names.has(m));
  if (taken.length === twoFactorModelNames.length) return { status: "present" };
  if (taken.length > 0)
    return {
      status: "refused",
      reason: `it has a model ${taken[0]} but not ${twoFactorModelNames.filter((m) => !names.has(m)).join(", ")}: two-factor sign-in needs both as create-auth writes them`,
    };
  const tables = tablesOf(facts);
  const inUse = new Map([...tables].map(([model, table]) => [table.toLowerCase(), model]));
  for (const model of twoFactorModelNames) {
    const owner = inUse.get(tableName(model, prefix).toLowerCase());
    if (owner)
      return {
        status: "refused",
        reason: `its model ${owner} is stored in the table ${tables.get(owner)}, which two-factor's model ${model} would use`,
      };
  }
  const eol = facts.eol;
  const separator = text === "" ? "" : text.endsWith(eol) ? (text.endsWith(eol + eol) ? "" : eol) : eol + eol;
  return {
    status: "added",
    text: `${text}${separator}${twoFactorMarker}${eol}${renderPrismaModels(dialect, prefix, eol, twoFactorModelNames)}`,
  };
}

/** A new schema.prisma: the generator, the datasource and the auth models. */
export function newPrismaSchema(dialect: Dialect, prefix: string | undefined, prismaMajor: number): string {
  // The first of the providers that mean the dialect is the one Prisma's own docs write.
  const provider = sqlDialects[dialect].prisma.providers[0];
  const head =
    prismaMajor >= 7
      ? [
          "// The connection string is in prisma.config.ts (DATABASE_URL).",
          "generator client {",
          '  provider = "prisma-client"',
          '  output   = "../generated/prisma"',
          "}",
          "",
          "datasource db {",
          `  provider = "${provider}"`,
          "}",
        ]
      : [
          "generator client {",
          '  provider = "prisma-client-js"',
          "}",
          "",
          "datasource db {",
          `  provider = "${provider}"`,
          '  url      = env("DATABASE_URL")',
          "}",
        ];
  return `${head.join("\n")}\n\n${authMarker}\n${renderPrismaModels(dialect, prefix)}`;
}
