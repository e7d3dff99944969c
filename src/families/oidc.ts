/** `add-provider oidc`: an OpenID Connect provider, discovered from its issuer. */
import { z } from "zod";
import { defineFamily, idOption, nameOption, opt } from "./family.js";
import {
  checksSchema,
  httpUrl,
  oauthCommonFlags,
  oauthSharedOptions,
  oidcChecks,
  planOAuth,
  quoted,
  redirectProxyIssue,
  report,
  withChecks,
} from "./shared.js";

/** Auth.js discovers from `${issuer}/.well-known/openid-configuration`; it never reads wellKnown itself. */
const wellKnownSuffix = "/.well-known/openid-configuration";

export const oidcSchema = z
  .object({
    ...oauthSharedOptions,
    wellKnown: httpUrl
      .refine(
        (v) => new URL(v).pathname.endsWith(wellKnownSuffix),
        (v) => ({ message: `${quoted(v)} does not end with ${wellKnownSuffix}` }),
      )
      .optional(),
    checks: checksSchema(oidcChecks).optional(),
  })
  .superRefine((o, ctx) => {
    if (!o.issuer && !o.wellKnown) report(ctx, { path: "issuer", message: "is required unless --well-known is given" });
    report(ctx, redirectProxyIssue(o));
  })
  .transform((o) => {
    const issuer = o.issuer ?? o.wellKnown!.slice(0, o.wellKnown!.length - wellKnownSuffix.length);
    // OIDC needs the "openid" scope; Auth.js sends no scope at all for an issuer-only config.
    return withChecks({ ...o, issuer, name: o.name ?? o.id, scope: o.scope ?? "openid profile email" });
  });

export const oidcFamily = defineFamily({
  kind: "oidc",
  title: "OpenID Connect",
  description: "an OpenID Connect provider, discovered from its issuer",
  options: [
    idOption(),
    nameOption("the id"),
    opt("issuer", "--issuer <url>", "issuer URL (or --well-known)"),
    opt("wellKnown", "--well-known <url>", "discovery document URL ending in /.well-known/openid-configuration"),
    ...oauthCommonFlags(oidcChecks).map((o) => (o.key === "scope" ? { ...o, fallback: "openid profile email" } : o)),
  ],
  schema: oidcSchema,
  alternatives: (has) => (has("issuer") || has("wellKnown") ? [] : ["issuer"]),
  // OpenID Connect Core §11: offline_access asks for a refresh token, and needs prompt=consent to be honoured.
  // Whether the provider has an end-session endpoint is in its discovery document.
  tokens: () => ({ refreshParams: { prompt: "consent" } }),
  plan: (options, names, context) => planOAuth("oidc", options, names, context),
});
