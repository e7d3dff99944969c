/** The auth secret: set, long enough, not in code, templates, git or the browser. */

import { envValue, type ProjectFacts } from "../../doctor-model/facts.js";
import { type CheckGroup, defineCheck, type Finding } from "../../doctor-model/finding.js";
import { holdsSecret, secretNames } from "../gather.js";

const missing = defineCheck(
  "secret.missing",
  "error",
  "The auth secret (AUTH_SECRET) is not set: Auth.js refuses to sign anyone in.",
);
const short = defineCheck(
  "secret.short",
  "error",
  "The auth secret is shorter than 32 bytes: cookies and tokens are easier to forge.",
  "security",
);
const inCode = defineCheck(
  "secret.in-code",
  "error",
  "The config's `secret` is a string written in the code, so it is in git.",
  "security",
);
const example = defineCheck(
  "secret.example",
  "error",
  "The auth secret's value is also in .env.example (or another template), which is committed.",
  "security",
);
const tracked = defineCheck("secret.tracked", "error", "A secret's value is in a file git tracks.", "security");
const browser = defineCheck(
  "secret.public",
  "error",
  "A secret is in a variable the framework sends to the browser (NEXT_PUBLIC_, PUBLIC_, VITE_).",
  "security",
);

const docs = "https://authjs.dev/getting-started/installation#setup-environment";
const generate = "`npx auth secret` or `openssl rand -base64 32`";
const publicPrefix = /^(?:NEXT_PUBLIC_|PUBLIC_|VITE_)/;

/** The variable the secret is read from, and its value: the config's own, else AUTH_SECRET (next-auth: NEXTAUTH_SECRET too). */
export function secretSource(facts: ProjectFacts): { name: string; value?: string } {
  if (facts.config.secretVariable)
    return { name: facts.config.secretVariable, value: envValue(facts, facts.config.secretVariable) };
  const rotated = ["AUTH_SECRET", "AUTH_SECRET_1", "AUTH_SECRET_2", "AUTH_SECRET_3"].find((n) => envValue(facts, n));
  if (rotated) return { name: rotated, value: envValue(facts, rotated) };
  const fallback = facts.frameworkEnv.secret.find((n) => !n.startsWith("AUTH_") && envValue(facts, n));
  if (fallback) return { name: fallback, value: envValue(facts, fallback) };
  return { name: "AUTH_SECRET" };
}

function secretFindings(facts: ProjectFacts): Finding[] {
  const found: Finding[] = [];
  if (facts.config.literalSecret) {
    found.push(
      inCode.report(
        "The auth config sets `secret` to a string in the code: anyone who can read the repository can forge sessions.",
        `Read it from the environment (secret: process.env.AUTH_SECRET), set AUTH_SECRET in .env.local, and replace the old value: ${generate}.`,
        facts.config.file,
      ),
    );
    return found;
  }
  const { name, value } = secretSource(facts);
  if (value === undefined) {
    const v4 =
      !facts.frameworkEnv.secret.includes("NEXTAUTH_SECRET") && envValue(facts, "NEXTAUTH_SECRET")
        ? " (NEXTAUTH_SECRET is set, but only next-auth reads that name)"
        : "";
    found.push(
      missing.report(
        `${name} is not set${v4}: Auth.js cannot sign or encrypt sessions, and every sign-in fails with MissingSecret.`,
        `Run \`create-auth doctor --fix\` to write a fresh one to .env.local; in production, set ${name} in the host's environment (${generate}). ${docs}`,
      ),
    );
    return found;
  }
  const source = facts.env[name]?.source;
  if (Buffer.byteLength(value) < 32)
    found.push(
      short.report(
        `${name} is ${Buffer.byteLength(value)} bytes long; Auth.js secrets should be at least 32 random bytes.`,
        `Replace it with ${generate} (\`create-auth doctor --fix\` does so in .env.local); everyone signs in again afterwards.`,
        source === "environment" ? undefined : source,
      ),
    );
  for (const file of facts.envFiles.filter((f) => f.template && Object.values(f.values).includes(value)))
    found.push(
      example.report(
        `${file.name} holds the same value as ${name}: the template is committed, so the secret is public.`,
        `Empty the value in ${file.name} (leave \`${name}=\`) and replace the secret: ${generate}.`,
        file.name,
      ),
    );
  return found;
}

function trackedFindings(facts: ProjectFacts): Finding[] {
  return Object.entries(facts.trackedSecrets).map(([name, files]) =>
    tracked.report(
      `The value of ${name} is in ${files.join(", ")}, which git tracks: anyone with the repository has it.`,
      `Remove it from those files (\`git rm --cached <file>\` for an env file, then ignore it), and replace the secret: it is in the history.`,
      files[0],
    ),
  );
}

function browserFindings(facts: ProjectFacts): Finding[] {
  const secrets = new Map<string, string>();
  for (const name of secretNames(facts)) {
    const value = envValue(facts, name);
    if (value && value.length >= 8) secrets.set(value, name);
  }
  const found: Finding[] = [];
  const seen = new Set<string>();
  const sources = [
    ...facts.envFiles.filter((f) => !f.template).map((f) => ({ file: f.name as string | undefined, values: f.values })),
    { file: undefined, values: Object.fromEntries(Object.entries(facts.env).map(([k, v]) => [k, v.value])) },
  ];
  for (const { file, values } of sources) {
    for (const [name, value] of Object.entries(values)) {
      if (!publicPrefix.test(name) || value === "" || seen.has(name)) continue;
      const same = secrets.get(value);
      if (!same && !holdsSecret(name.replace(publicPrefix, ""), value, [])) continue;
      seen.add(name);
      found.push(
        browser.report(
          `${name}${same ? ` holds the value of ${same}` : " looks like a secret"}: its prefix makes the framework put it in the JavaScript every visitor downloads.`,
          `Rename it without the ${publicPrefix.exec(name)![0]} prefix (read it only on the server) and replace the secret.`,
          file,
        ),
      );
    }
  }
  return found;
}

export const secretChecks: CheckGroup = {
  checks: [missing, short, inCode, example, tracked, browser],
  run: (facts) => [...secretFindings(facts), ...trackedFindings(facts), ...browserFindings(facts)],
};
