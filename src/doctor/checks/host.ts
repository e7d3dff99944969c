/**
 * Host trust, as the installed Auth.js really decides it. Auth.js v5
 * (@auth/core's setEnvDefaults, which next-auth 5 and every other
 * integration call) takes the first of AUTH_URL, AUTH_TRUST_HOST, VERCEL,
 * CF_PAGES that is set at all — an empty value counts, and reads as false —
 * else trusts any NODE_ENV but production; it never reads NEXTAUTH_URL for
 * this. next-auth v4 builds its URLs from NEXTAUTH_URL, else from the request
 * when VERCEL or AUTH_TRUST_HOST is set, else from http://localhost:3000.
 */

import type { ProjectFacts } from "../../doctor-model/facts.js";
import { type CheckGroup, defineCheck, type Finding } from "../../doctor-model/finding.js";
import { frameworkById } from "../../frameworks/registry.js";

const untrusted = defineCheck(
  "host.untrusted",
  "error",
  "The app runs on its own server (next start, a Node server, a proxy) and nothing tells Auth.js to trust the host: sign-in fails with UntrustedHost.",
);

/** Hosts that set VERCEL or CF_PAGES themselves, which Auth.js trusts. */
const managedHosts = ["vercel.json", "netlify.toml"];
const errorsPage = "https://authjs.dev/reference/core/errors#untrustedhost";

/** Why the app runs as a server of its own in production, or undefined when it does not look so. */
function ownServer(facts: ProjectFacts): string | undefined {
  if (facts.deployFiles.some((f) => managedHosts.includes(f))) return undefined;
  return frameworkById(facts.framework).doctor.ownServer(facts);
}

/** A variable as the app reads it: undefined when unset, "" when set but empty. */
const raw = (facts: ProjectFacts, name: string) => facts.env[name]?.value;
const where = (facts: ProjectFacts, name: string) => {
  const source = facts.env[name]?.source;
  return source === undefined || source === "environment" ? undefined : source;
};

/** Auth.js v5: the variable that decides, and whether it trusts; undefined when none is set (production then distrusts). */
function v5Decision(facts: ProjectFacts): { name: string; trusted: boolean } | undefined {
  for (const name of ["AUTH_URL", "AUTH_TRUST_HOST", "VERCEL", "CF_PAGES"]) {
    const value = raw(facts, name);
    if (value !== undefined) return { name, trusted: value !== "" };
  }
  return undefined;
}

function v5Findings(facts: ProjectFacts, server: string): Finding[] {
  const decision = v5Decision(facts);
  if (decision?.trusted) return [];
  if (decision)
    return [
      untrusted.report(
        `${decision.name} is set but empty${where(facts, decision.name) ? ` in ${where(facts, decision.name)}` : ""}: Auth.js reads the empty value as "do not trust" and looks no further, so on ${server} every request fails with UntrustedHost.`,
        `Give ${decision.name} a value (AUTH_TRUST_HOST=true, or AUTH_URL=https://your.app), or delete the empty line. ${errorsPage}`,
        where(facts, decision.name),
      ),
    ];
  const v4Only = ["NEXTAUTH_URL"].filter((name) => raw(facts, name));
  return [
    untrusted.report(
      v4Only.length
        ? `The app runs on ${server} with only next-auth v4's NEXTAUTH_URL: Auth.js v5 never trusts the host from it, so under ${server} every request fails with UntrustedHost.`
        : `The app runs on ${server}, and neither AUTH_TRUST_HOST nor AUTH_URL is set: in production Auth.js rejects every request with UntrustedHost.`,
      `Set AUTH_TRUST_HOST=true where the app runs behind your own server or proxy (\`create-auth doctor --fix\` adds it to .env.local), or set AUTH_URL to the public URL. ${errorsPage}`,
    ),
  ];
}

function v4Findings(facts: ProjectFacts, server: string): Finding[] {
  if (raw(facts, "NEXTAUTH_URL")) return [];
  // v4: `VERCEL ?? AUTH_TRUST_HOST`, the first one set decides.
  const decider = ["VERCEL", "AUTH_TRUST_HOST"].find((name) => raw(facts, name) !== undefined);
  if (decider && raw(facts, decider) !== "") return [];
  return [
    untrusted.report(
      `The app runs on ${server} on next-auth v4 without NEXTAUTH_URL${decider ? ` (${decider} is set but empty)` : ""}: v4 then builds its redirect and callback URLs from http://localhost:3000, so sign-in sends users there.`,
      "Set NEXTAUTH_URL to the app's public URL, or AUTH_TRUST_HOST=true behind your own proxy (`create-auth doctor --fix` adds it to .env.local). https://next-auth.js.org/configuration/options#nextauth_url",
      decider ? where(facts, decider) : undefined,
    ),
  ];
}

function hostFindings(facts: ProjectFacts): Finding[] {
  const server = ownServer(facts);
  if (!server || facts.config.trustHost) return [];
  return facts.nextAuthMajor === 4 ? v4Findings(facts, server) : v5Findings(facts, server);
}

export const hostChecks: CheckGroup = { checks: [untrusted], run: hostFindings };
