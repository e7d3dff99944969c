/** Provider and session combinations Auth.js refuses: credentials with database sessions, passkeys switched off, no adapter. */

import type { ProjectFacts } from "../../doctor-model/facts.js";
import { type CheckGroup, defineCheck, type Finding } from "../../doctor-model/finding.js";
import { emailAdapterMethods } from "../../workspace/project.js";

const credentialsDatabase = defineCheck(
  "session.credentials-database",
  "error",
  'The credentials provider with session.strategy "database": Auth.js refuses it (UnsupportedStrategy).',
);
const passkeyOff = defineCheck(
  "passkey.experimental-off",
  "error",
  "A passkey (WebAuthn) provider without experimental.enableWebAuthn: Auth.js refuses it.",
);
const noAdapter = defineCheck(
  "adapter.missing",
  "error",
  "Email or passkey sign-in without an adapter to store tokens and users.",
);
const methods = defineCheck(
  "adapter.methods-missing",
  "error",
  "The project's adapter lacks methods that email or passkey sign-in calls.",
);

const webauthnMethods = [
  "createAuthenticator",
  "getAuthenticator",
  "listAuthenticatorsByUserId",
  "updateAuthenticatorCounter",
];

function strategyFindings(facts: ProjectFacts): Finding[] {
  const { config } = facts;
  const found: Finding[] = [];
  const types = new Set(config.providers.map((p) => p.type));
  const byType = (type: string) =>
    config.providers
      .filter((p) => p.type === type)
      .map((p) => `"${p.id}"`)
      .join(", ");
  if (types.has("credentials") && config.strategy === "database")
    found.push(
      credentialsDatabase.report(
        `Provider ${byType("credentials")} (credentials) with session.strategy "database": Auth.js signs no one in with it (UnsupportedStrategy).`,
        'Use session: { strategy: "jwt" } (an adapter still stores users). https://authjs.dev/getting-started/authentication/credentials',
        config.file,
      ),
    );
  if (types.has("webauthn") && !config.enableWebAuthn)
    found.push(
      passkeyOff.report(
        `Provider ${byType("webauthn")} is a passkey, but the config does not switch on experimental.enableWebAuthn.`,
        "Add experimental: { enableWebAuthn: true } to the auth config. https://authjs.dev/getting-started/authentication/webauthn",
        config.file,
      ),
    );
  const needs = [
    ...(types.has("email") ? [{ kind: "email", methods: [...emailAdapterMethods] }] : []),
    ...(types.has("webauthn") ? [{ kind: "webauthn", methods: webauthnMethods }] : []),
  ];
  if (needs.length && !config.adapter) {
    found.push(
      noAdapter.report(
        `Provider ${needs.map((n) => byType(n.kind)).join(", ")} needs an adapter to store ${types.has("email") ? "verification tokens" : "passkeys"}, and the config has none: sign-in fails (MissingAdapter).`,
        "Add an adapter (`create-auth init` generates one, or use a published @auth/*-adapter). https://authjs.dev/getting-started/database",
        config.file,
      ),
    );
  }
  // A published @auth/*-adapter has them; a module of the project's own is searched for their names.
  const text = config.adapter?.text;
  if (text !== undefined) {
    const lacking = needs.flatMap((n) => n.methods).filter((m) => !new RegExp(`\\b${m}\\b`).test(text));
    if (lacking.length)
      found.push(
        methods.report(
          `The adapter in ${config.adapter!.file} has no ${lacking.join(", ").replace(/, ([^,]*)$/, " or $1")}, which ${needs.map((n) => n.kind).join(" and ")} sign-in calls.`,
          `Implement them, then check the adapter with \`npx create-auth verify-adapter ${config.adapter!.file}\`. https://authjs.dev/guides/creating-a-database-adapter`,
          config.adapter!.file,
        ),
      );
  }
  return found;
}

export const strategyChecks: CheckGroup = {
  checks: [credentialsDatabase, passkeyOff, noAdapter, methods],
  run: strategyFindings,
};
