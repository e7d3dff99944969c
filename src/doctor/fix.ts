/**
 * --fix: the fixes that cannot lose anything, planned from the findings and
 * applied through plan-then-apply under the project's lock: a fresh secret
 * into .env.local, AUTH_TRUST_HOST, v4 names renamed, ignore rules, file
 * modes, an Auth.js package with an advisory raised within its major (or
 * overridden where a package pins it) in package.json. Each line it reports names what changed, never a value. Running it
 * again finds nothing to do.
 */
import { randomBytes } from "node:crypto";
import { chmodSync } from "node:fs";
import { join, relative } from "node:path";
import type { ProjectFacts } from "../doctor-model/facts.js";
import type { Finding } from "../doctor-model/finding.js";
import { addEnvEntries, parseEnv } from "../render/env-file.js";
import { addIgnoreEntries } from "../render/gitignore.js";
import { describeSecurity } from "../render/package-security.js";
import { type FileChange, readIfExists } from "../workspace/plan.js";
import { securePackages } from "../workspace/secure-packages.js";
import { secretFiles } from "./checks/files.js";
import { v4Names, v5Name } from "./checks/names.js";
import { secretSource } from "./checks/secret.js";

export interface FixPlan {
  changes: FileChange[];
  modes: { path: string; mode: number }[];
  /** One line per fix, for the user. */
  done: string[];
}

/** Sets `name` to `value` in a dotenv text: its last assignment replaced, else a new line added. */
export function setEnvValue(text: string, name: string, value: string, description: string): string {
  const entry = parseEnv(text).findLast((e) => e.name === name);
  if (entry) return text.slice(0, entry.valueStart) + value + text.slice(entry.valueEnd);
  return addEnvEntries(text, [{ name, description, example: "" }], "Added by create-auth doctor --fix", () => value);
}

/** Renames every assignment of `from` to `to`, keeping values, comments, line endings and a byte-order mark. */
export function renameEnvVariable(text: string, from: string, to: string): string {
  let out = "";
  let at = 0;
  for (const entry of parseEnv(text).filter((e) => e.name === from)) {
    out += text.slice(at, entry.nameStart) + to;
    at = entry.nameStart + from.length;
  }
  return out + text.slice(at);
}

export function planFixes(facts: ProjectFacts, findings: Finding[]): FixPlan {
  const ids = new Set(findings.map((f) => f.id));
  const texts = new Map<string, string | null>();
  const textOf = (name: string) => {
    if (!texts.has(name)) texts.set(name, readIfExists(join(facts.root, name)));
    return texts.get(name) ?? "";
  };
  const done: string[] = [];
  // With --env files that leave .env.local out, a value written there would not be read.
  const writesLocal = facts.valueFiles.includes(".env.local");
  const secret = secretSource(facts);
  const fromEnvironment = facts.env[secret.name]?.source === "environment";
  if (
    writesLocal &&
    (ids.has("secret.missing") || ids.has("secret.short")) &&
    !fromEnvironment &&
    !facts.config.literalSecret
  ) {
    const name = secret.value === undefined ? (facts.config.secretVariable ?? "AUTH_SECRET") : secret.name;
    const value = randomBytes(32).toString("base64");
    texts.set(
      ".env.local",
      setEnvValue(
        textOf(".env.local"),
        name,
        value,
        "Signs and encrypts cookies and tokens (a secret: never commit it)",
      ),
    );
    done.push(`wrote a fresh ${name} (32 random bytes) to .env.local`);
  }
  if (writesLocal && ids.has("host.untrusted")) {
    texts.set(
      ".env.local",
      setEnvValue(
        textOf(".env.local"),
        "AUTH_TRUST_HOST",
        "true",
        "Trust the Host header behind your own server or proxy",
      ),
    );
    done.push("set AUTH_TRUST_HOST=true in .env.local");
  }
  if (ids.has("env.v4-name")) {
    for (const name of v4Names(facts)) {
      const file = facts.env[name]!.source;
      if (file === "environment") continue;
      const text = textOf(file);
      if (parseEnv(text).some((e) => e.name === v5Name(name))) continue;
      texts.set(file, renameEnvVariable(text, name, v5Name(name)));
      done.push(`renamed ${name} to ${v5Name(name)} in ${file}`);
    }
  }
  const modes: FixPlan["modes"] = [];
  for (const file of secretFiles(facts)) {
    if (!file.tracked && !file.ignored && ids.has("files.env-not-ignored")) {
      texts.set(".gitignore", addIgnoreEntries(textOf(".gitignore"), [file.name]));
      done.push(`added ${file.name} to .gitignore`);
    }
    if ((file.mode & 0o077) !== 0 && ids.has("files.env-mode")) {
      modes.push({ path: join(facts.root, file.name), mode: 0o600 });
      done.push(`made ${file.name} readable by its owner only (chmod 600)`);
    }
  }
  // An Auth.js package with an advisory: raised within its major, or overridden where a package pins it.
  const packageJson = readIfExists(join(facts.root, "package.json"));
  if (packageJson !== null && findings.some((f) => f.id.startsWith("advisory."))) {
    const secured = securePackages({ root: facts.root, text: packageJson, manager: facts.advisories.manager });
    const moved = describeSecurity({ ...secured.plan, manual: { raises: [], overrides: [] } }, secured.manager);
    if (secured.text !== packageJson) texts.set("package.json", secured.text);
    if (secured.workspace) texts.set(relative(facts.root, secured.workspace.path), secured.workspace.after);
    if (moved.length)
      done.push(...moved.slice(0, -1), `${moved.at(-1)}; run \`${secured.manager} install\` to move the lockfile`);
  }
  // A .env.local this run writes must be ignored too, or the next run has that to fix.
  if (texts.has(".env.local") && !facts.envLocalIgnored && !done.some((d) => d === "added .env.local to .gitignore")) {
    const after = addIgnoreEntries(textOf(".gitignore"), [".env.local"]);
    if (after !== textOf(".gitignore")) {
      texts.set(".gitignore", after);
      done.push("added .env.local to .gitignore");
    }
  }
  const changes: FileChange[] = [];
  for (const [name, after] of texts) {
    const path = join(facts.root, name);
    const before = readIfExists(path);
    if (after !== null && after !== before) changes.push({ path, before, after });
  }
  return { changes, modes, done };
}

export function applyModes(modes: FixPlan["modes"]): void {
  for (const { path, mode } of modes) chmodSync(path, mode);
}
