/** Host trust: an app on its own server or behind a proxy must say Auth.js may trust the Host header. */
import { frameworkById } from "../../frameworks/registry.js";
import { authUrl, envValue, type ProjectFacts } from "../model/facts.js";
import { type CheckGroup, defineCheck, type Finding } from "../model/finding.js";

const untrusted = defineCheck(
  "host.untrusted",
  "error",
  "The app runs on its own server (next start, a Node server, a proxy) and nothing tells Auth.js to trust the host: sign-in fails with UntrustedHost.",
);

/** Hosts that set VERCEL or CF_PAGES themselves, which Auth.js trusts. */
const managedHosts = ["vercel.json", "netlify.toml"];

/** Why the app runs as a server of its own in production, or undefined when it does not look so. */
function ownServer(facts: ProjectFacts): string | undefined {
  if (facts.deployFiles.some((f) => managedHosts.includes(f))) return undefined;
  return frameworkById(facts.framework).doctor.ownServer(facts);
}

function hostFindings(facts: ProjectFacts): Finding[] {
  const server = ownServer(facts);
  if (!server || facts.config.trustHost) return [];
  const trusted =
    ["AUTH_TRUST_HOST", "VERCEL", "CF_PAGES"].some((n) => envValue(facts, n) !== undefined) || authUrl(facts);
  if (trusted) return [];
  return [
    untrusted.report(
      `The app runs on ${server}, and neither AUTH_TRUST_HOST nor AUTH_URL is set: in production Auth.js rejects every request with UntrustedHost.`,
      "Set AUTH_TRUST_HOST=true where the app runs behind your own server or proxy (`create-auth doctor --fix` adds it to .env.local), or set AUTH_URL to the public URL. https://authjs.dev/reference/core/errors#untrustedhost",
    ),
  ];
}

export const hostChecks: CheckGroup = { checks: [untrusted], run: hostFindings };
