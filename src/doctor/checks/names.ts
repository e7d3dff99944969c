/** Variable names and AUTH_URL: v4 names in a v5 project, a URL that does not match where Auth.js is mounted. */
import { authUrl, envValue, mountPath, type ProjectFacts } from "../../doctor-model/facts.js";
import { type CheckGroup, defineCheck, type Finding } from "../../doctor-model/finding.js";

const v4Name = defineCheck(
  "env.v4-name",
  "warning",
  "A next-auth v4 variable name (NEXTAUTH_URL, NEXTAUTH_SECRET, NEXTAUTH_<PROVIDER>_…) in a v5 project.",
);
const invalid = defineCheck("url.invalid", "error", "AUTH_URL is not an http(s) URL.");
const mismatch = defineCheck(
  "url.mount-mismatch",
  "error",
  "AUTH_URL's path is not where Auth.js is mounted, so every auth route answers UnknownAction.",
);
const insecure = defineCheck(
  "url.insecure",
  "error",
  "AUTH_URL is plain http on a host that is not local.",
  "security",
);

const migrationGuide = "https://authjs.dev/getting-started/migrating-to-v5#environment-variables";

/** A v5 project: next-auth 5 (or its beta), or an @auth/* framework package, which only v5 has. */
function isV5(facts: ProjectFacts): boolean {
  if (facts.nextAuthMajor !== undefined) return facts.nextAuthMajor >= 5;
  const range = facts.packageJson.dependencies["next-auth"];
  if (range === undefined) return true;
  return /(?:^|[^\d])5\.|beta|latest/.test(range) || !/\d/.test(range);
}

/** The v5 name of a v4 one: NEXTAUTH_URL -> AUTH_URL, NEXTAUTH_GITHUB_ID -> AUTH_GITHUB_ID. */
export const v5Name = (name: string) => name.replace(/^NEXTAUTH_/, "AUTH_");

/** v4 names in the env files and the environment that the config does not read by that name itself. */
export function v4Names(facts: ProjectFacts): string[] {
  const explicit = new Set([
    facts.config.secretVariable,
    ...facts.config.providers.flatMap((p) => p.env.map((e) => e.name)),
  ]);
  return Object.keys(facts.env)
    .filter((n) => /^NEXTAUTH_[A-Z0-9_]+$/.test(n) && !explicit.has(n) && n !== "NEXTAUTH_URL_INTERNAL")
    .sort();
}

function nameFindings(facts: ProjectFacts): Finding[] {
  if (!isV5(facts)) return [];
  return v4Names(facts).map((name) => {
    const source = facts.env[name]!.source;
    const both = envValue(facts, v5Name(name)) !== undefined;
    return v4Name.report(
      both
        ? `${name} is a v4 name and ${v5Name(name)} is set too: the old one is ignored or shadows it; keep one.`
        : `${name} is the v4 name of ${v5Name(name)}${[...facts.frameworkEnv.url, ...facts.frameworkEnv.secret].includes(name) ? "; next-auth v5 still reads it as a fallback, other Auth.js packages do not" : "; Auth.js v5 does not read it"}.`,
      `Rename it to ${v5Name(name)}${source === "environment" ? " in your environment" : ` in ${source} (\`create-auth doctor --fix\` renames it)`}. ${migrationGuide}`,
      source === "environment" ? undefined : source,
    );
  });
}

const localHost = /^(?:localhost|127\.\d+\.\d+\.\d+|\[::1\]|[\w.-]+\.localhost|0\.0\.0\.0)$/;

function urlFindings(facts: ProjectFacts): Finding[] {
  const url = authUrl(facts);
  if (!url) return [];
  const file = facts.env[url.name]!.source === "environment" ? undefined : facts.env[url.name]!.source;
  if (!URL.canParse(url.value) || !/^https?:$/.test(new URL(url.value).protocol))
    return [
      invalid.report(
        `${url.name} is not an http(s) URL, so Auth.js cannot build its redirect and callback URLs.`,
        `Set it to your app's address, such as https://app.example.com (or leave it unset behind a trusted proxy).`,
        file,
      ),
    ];
  const parsed = new URL(url.value);
  const found: Finding[] = [];
  const path = parsed.pathname.replace(/\/+$/, "");
  const mount = mountPath(facts);
  if (path !== "" && path !== mount && !facts.wiring.mountChecked)
    found.push(
      mismatch.report(
        `${url.name}'s path is ${path}, but Auth.js is mounted at ${mount}: its routes answer UnknownAction.`,
        `Set ${url.name} to ${parsed.origin} (or ${parsed.origin}${mount}), or move the handler to ${path}. https://authjs.dev/reference/core/errors#unknownaction`,
        file,
      ),
    );
  if (parsed.protocol === "http:" && !localHost.test(parsed.hostname))
    found.push(
      insecure.report(
        `${url.name} uses plain http on ${parsed.hostname}: session cookies and OAuth codes travel unencrypted.`,
        `Serve the app over https and set ${url.name} to https://${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}.`,
        file,
      ),
    );
  return found;
}

export const nameChecks: CheckGroup = {
  checks: [v4Name, invalid, mismatch, insecure],
  run: (facts) => [...nameFindings(facts), ...urlFindings(facts)],
};
