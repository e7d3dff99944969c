/**
 * The dotenv files and .gitignore, for init and add-provider alike.
 * .env.example documents every variable without a secret value; .env.local
 * holds the values (a fresh AUTH_SECRET from init, empty ones from
 * add-provider for the user to fill in); .gitignore keeps .env.local out of
 * git. A variable already in a file keeps its value, whatever it is.
 */
import { randomBytes } from "node:crypto";
import ignore from "ignore";
import { addEnvEntries, envValue, fillEmptyValue } from "../workspace/env-file.js";
import { addIgnoreEntries, type IgnoreEntry } from "./gitignore.js";
import type { EnvVariable } from "./parts.js";

/** 32 random bytes, base64: what `npx auth secret` writes. */
export const newSecret = () => randomBytes(32).toString("base64");

export const secretVariable: EnvVariable = {
  name: "AUTH_SECRET",
  description: "Signs and encrypts cookies and tokens: 32 random bytes, base64 (a secret: never commit it)",
  example: "",
};

export interface EnvFiles {
  /** Current texts, null for a missing file. */
  example: string | null;
  local: string | null;
}

/**
 * init: every variable documented, and in .env.local a fresh AUTH_SECRET
 * (one already set is kept; an empty one, as after copying .env.example, is
 * filled) and the other variables' examples.
 */
export function initEnvFiles(existing: EnvFiles, variables: EnvVariable[], secret = newSecret()) {
  const all = [secretVariable, ...variables];
  const local = addEnvEntries(
    existing.local,
    all,
    "Auth (added by create-auth init; keep this file out of git)",
    (v) => (v === secretVariable ? secret : v.example),
  );
  const filledSecret = envValue(local, secretVariable.name) === "";
  return {
    example: addEnvEntries(existing.example, all, "Auth (added by create-auth init)", (v) => v.example),
    local: filledSecret ? fillEmptyValue(local, secretVariable.name, secret) : local,
    /** AUTH_SECRET was there but empty, and is now set. */
    filledSecret,
  };
}

/** add-provider: the provider's variables documented, and empty in .env.local for the user to fill in. */
export function providerEnvFiles(existing: EnvFiles, variables: EnvVariable[], heading: string) {
  return {
    example: addEnvEntries(existing.example, variables, heading, (v) => v.example),
    local: addEnvEntries(existing.local, variables, heading, () => ""),
  };
}

/**
 * .env.local holds secrets; a store's own files (sqlite: the database file
 * and its -wal/-shm) hold users and sessions. .env.example documents the variables and stays
 * tracked, also under a rule such as Next.js's `.env*`.
 */
export function gitignore(existing: string | null, extra: readonly IgnoreEntry[] = []): string {
  const text = addIgnoreEntries(existing, [
    ...(existing === null ? [{ pattern: "node_modules", paths: ["node_modules/"] }] : []),
    ".env.local",
    ...extra,
  ]);
  return ignore().add(text).ignores(".env.example") ? addUnignore(text, "!.env.example") : text;
}

function addUnignore(text: string, rule: string): string {
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  return `${text}${text === "" || text.endsWith("\n") ? "" : eol}${rule}${eol}`;
}
