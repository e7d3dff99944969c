/** `add-provider webauthn` (alias passkey): passkeys and security keys. */
import { z } from "zod";
import { defineFamily, idOption, nameOption } from "./family.js";
import { commonOptions, idSchema } from "./shared.js";

export const webauthnSchema = z.object({ ...commonOptions, id: idSchema.default("webauthn") });

export const webauthnFamily = defineFamily({
  kind: "webauthn",
  title: "Passkey (WebAuthn)",
  description: "passkeys and security keys (experimental in Auth.js; needs an adapter)",
  aliases: ["passkey"],
  options: [idOption("webauthn"), nameOption("Passkey")],
  // @auth/core's peer dependencies for WebAuthn.
  dependencies: ["@simplewebauthn/server", "@simplewebauthn/browser"],
  schema: webauthnSchema,
  plan: (o, names) => ({
    env: [],
    files: [{ template: "webauthn.ts.hbs", path: names.file }],
    view: { ...o, name: o.name ?? "Passkey" },
    hasCallback: false,
    notes: [
      "Passkeys need experimental: { enableWebAuthn: true } in the auth config.",
      "They need an adapter with createAuthenticator, getAuthenticator, listAuthenticatorsByUserId and updateAuthenticatorCounter, and an Authenticator table: https://authjs.dev/getting-started/authentication/webauthn",
    ],
  }),
});
