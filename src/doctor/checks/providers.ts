/** Providers: their variables set, no secret in the code, and the callback URL to register at each. */
import { authUrl, envValue, mountPath, type ProjectFacts, type ProviderFacts } from "../../doctor-model/facts.js";
import { type CheckGroup, defineCheck, type Finding } from "../../doctor-model/finding.js";

const envMissing = defineCheck(
  "provider.env-missing",
  "error",
  "A variable a provider needs (client id, secret, issuer, API key) is not set.",
);
const literal = defineCheck(
  "provider.literal-secret",
  "error",
  "A provider's client secret or API key is written in the code.",
  "security",
);
const callback = defineCheck(
  "provider.callback-url",
  "info",
  "The exact callback URL to register at an OAuth/OIDC provider.",
);

const what: Record<string, string> = { id: "client id", secret: "client secret", issuer: "issuer URL", key: "API key" };

const docsOf = (provider: ProviderFacts) =>
  provider.builtin
    ? `https://authjs.dev/getting-started/providers/${provider.builtin}`
    : "https://authjs.dev/getting-started/authentication/oauth";

/** The URL the provider redirects back to: AUTH_URL's origin (else localhost), the mount, callback/<id>. */
function callbackUrlOf(facts: ProjectFacts, id: string): string {
  const url = authUrl(facts);
  const origin = url && URL.canParse(url.value) ? new URL(url.value).origin : `http://localhost:${facts.appPort}`;
  return `${origin}${mountPath(facts).replace(/\/$/, "")}/callback/${id}`;
}

function providerFindings(facts: ProjectFacts): Finding[] {
  const found: Finding[] = [];
  for (const provider of facts.config.providers) {
    // A variable with a fallback in the code (process.env.X || "https://...") may stay unset.
    const unset = provider.env.filter(
      (e) => e.name && e.literal === undefined && envValue(facts, e.name) === undefined,
    );
    // `NAME=` counts as set for Auth.js: setEnvDefaults hands the empty string to the provider (issuer: "").
    const empty = (name: string) => facts.env[name]?.value === "";
    const described = (e: ProviderFacts["env"][number]) =>
      `${e.name} (${what[e.role]}${empty(e.name!) ? `, set but empty in ${facts.env[e.name!]!.source}` : ""})`;
    if (unset.length)
      found.push(
        envMissing.report(
          `Provider "${provider.id}" needs ${unset.map(described).join(", ")}, not set: its sign-in fails.`,
          `Set ${unset.map((e) => e.name).join(" and ")} in .env.local and in production's environment, with the values from the provider's console. ${docsOf(provider)}`,
          provider.file,
        ),
      );
    for (const env of provider.env.filter((e) => e.literal && (e.role === "secret" || e.role === "key")))
      found.push(
        literal.report(
          `Provider "${provider.id}" has its ${what[env.role]} written in the code, so it is in git.`,
          `Read it from the environment (process.env.AUTH_${provider.id.toUpperCase().replace(/-/g, "_")}_${env.role === "key" ? "KEY" : "SECRET"}) and create a new one at the provider: the old one is public.`,
          provider.file,
        ),
      );
    if (provider.type === "oauth" || provider.type === "oidc")
      found.push(
        callback.report(
          `Register ${callbackUrlOf(facts, provider.id)} as the callback (redirect) URL of provider "${provider.id}".`,
          `Add it in the provider's console; a URL that differs in any character fails with redirect_uri_mismatch. ${docsOf(provider)}`,
          provider.file,
        ),
      );
  }
  return found;
}

export const providerChecks: CheckGroup = { checks: [envMissing, literal, callback], run: providerFindings };
