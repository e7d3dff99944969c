/**
 * doctor --fix: the fixes that cannot lose anything, planned from the
 * findings and applied through plan-then-apply under the project's lock: a
 * fresh secret into .env.local, AUTH_TRUST_HOST, v4 names renamed, ignore
 * rules, file modes, an Auth.js package with an advisory raised within its
 * major (or overridden where a package pins it) in package.json. Each line it
 * reports names what changed, never a value. Running it again finds nothing
 * to do. Nothing here writes: the files are a part of edits, the modes a list
 * the command applies.
 */
import { randomBytes } from "node:crypto";
import { join, relative } from "node:path";
import { secretFiles } from "../doctor/checks/files.js";
import { v4Names, v5Name } from "../doctor/checks/names.js";
import { secretSource } from "../doctor/checks/secret.js";
import type { ProjectFacts } from "../doctor-model/facts.js";
import type { Finding } from "../doctor-model/finding.js";
import { parseEnv, renameEnvVariable, setEnvValue } from "../render/env-file.js";
import { addIgnoreEntries } from "../render/gitignore.js";
import { describeSecurity } from "../render/package-security.js";
import { changesOfParts } from "../workspace/parts-to-changes.js";
import { type FileChange, readIfExists } from "../workspace/plan.js";
import { securePackages } from "../workspace/secure-packages.js";

export interface FixPlan {
  changes: FileChange[];
  modes: { path: string; mode: number }[];
  /** One line per fix, for the user. */
  done: string[];
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
  // Files only read (to decide) are edits that change nothing, so only what a fix set becomes a change.
  const edits = [...texts].flatMap(([path, contents]) => (contents === null ? [] : [{ path, contents }]));
  const { changes } = changesOfParts(facts.root, [{ edits }], { force: false });
  return { changes, modes, done };
}
