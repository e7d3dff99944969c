/**
 * --online: each OIDC provider's discovery document is fetched and its
 * `issuer` compared with the configured one, character for character as
 * Auth.js compares them (a trailing slash counts). Without --online doctor
 * opens no connection but the database's.
 */
import { envValue, type ProjectFacts } from "../doctor-model/facts.js";
import { defineCheck, type Finding } from "../doctor-model/finding.js";

const mismatch = defineCheck(
  "provider.issuer-mismatch",
  "error",
  "--online: the issuer in an OIDC provider's discovery document differs from the configured one.",
);
const unreachable = defineCheck(
  "provider.issuer-unreachable",
  "error",
  "--online: an OIDC provider's discovery document could not be fetched.",
);

export const onlineChecks = [mismatch, unreachable];

const discoveryTimeoutMs = 5_000;

export async function checkIssuers(facts: ProjectFacts, progress: (line: string) => void): Promise<Finding[]> {
  const found: Finding[] = [];
  for (const provider of facts.config.providers) {
    const env = provider.env.find((e) => e.role === "issuer");
    const issuer = (env?.name ? envValue(facts, env.name) : undefined) ?? env?.literal;
    if (!issuer || !URL.canParse(issuer)) continue;
    const url = `${issuer.replace(/\/+$/, "")}/.well-known/openid-configuration`;
    progress(`Fetching ${url}...`);
    let document: { issuer?: unknown };
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(discoveryTimeoutMs), redirect: "follow" });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      document = (await response.json()) as { issuer?: unknown };
    } catch (error) {
      const reason =
        error instanceof Error && error.name === "TimeoutError"
          ? "no answer in 5 s"
          : String((error as Error).message ?? error);
      found.push(
        unreachable.report(
          `The discovery document of provider "${provider.id}" (${url}) could not be read: ${reason}.`,
          `Check the issuer URL${env?.name ? ` in ${env.name}` : ""}: ${url} must return JSON. https://authjs.dev/getting-started/authentication/oauth`,
          provider.file,
        ),
      );
      continue;
    }
    if (document.issuer !== issuer)
      found.push(
        mismatch.report(
          `Provider "${provider.id}" is configured with issuer ${issuer}, but its discovery document says ${typeof document.issuer === "string" ? document.issuer : "nothing"}: sign-in fails the issuer check.`,
          `Set ${env?.name ?? "the issuer"} to exactly ${typeof document.issuer === "string" ? document.issuer : "the provider's issuer"} (a trailing slash counts).`,
          provider.file,
        ),
      );
  }
  return found;
}
