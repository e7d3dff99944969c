/** `add-provider oauth`: any OAuth 2.0 provider, from its authorization, token and userinfo URLs. */
import { z } from "zod";
import { defineFamily, idOption, nameOption, opt } from "./family.js";
import {
  checksSchema,
  httpUrl,
  oauthChecks,
  oauthCommonFlags,
  oauthSharedOptions,
  planOAuth,
  redirectProxyIssue,
  report,
  withChecks,
} from "./shared.js";

export const oauthSchema = z
  .object({
    ...oauthSharedOptions,
    authorization: httpUrl.optional(),
    token: httpUrl.optional(),
    userinfo: httpUrl.optional(),
    checks: checksSchema(oauthChecks).optional(),
  })
  .superRefine((o, ctx) => {
    // For type "oauth", Auth.js (core 0.41, callback handleOAuth) discovers from the issuer only when
    // neither token nor userinfo is set, and then still fails with "No userinfo endpoint configured";
    // so both URLs are always needed, and the issuer can only stand in for the authorization URL.
    const needs =
      "is required for an oauth provider (Auth.js does not discover it for type oauth; the oidc kind discovers everything from --issuer)";
    if (!o.token) report(ctx, { path: "token", message: needs });
    else if (!o.userinfo) report(ctx, { path: "userinfo", message: needs });
    else if (!o.issuer && !o.authorization)
      report(ctx, { path: "authorization", message: "is required unless --issuer is given" });
    report(ctx, redirectProxyIssue(o));
  })
  .transform((o) => withChecks({ ...o, name: o.name ?? o.id }));

export const oauthFamily = defineFamily({
  kind: "oauth",
  title: "OAuth 2.0",
  description: "any OAuth 2.0 provider, from its authorization, token and userinfo URLs",
  options: [
    idOption(),
    nameOption("the id"),
    opt("authorization", "--authorization <url>", "authorization endpoint (or --issuer)"),
    opt("token", "--token <url>", "token endpoint", { required: true }),
    opt("userinfo", "--userinfo <url>", "userinfo endpoint that returns the profile", { required: true }),
    opt(
      "issuer",
      "--issuer <url>",
      "issuer URL, instead of --authorization (its metadata gives the authorization endpoint)",
    ),
    ...oauthCommonFlags(oauthChecks),
  ],
  schema: oauthSchema,
  alternatives: (has) => (has("issuer") || has("authorization") ? [] : ["authorization"]),
  tokens: () => ({
    noEndSession:
      "plain OAuth 2.0 has no end-session endpoint (the oidc kind reads one from the provider's discovery document)",
  }),
  plan: (options, names, context) => planOAuth("oauth", options, names, context),
});
