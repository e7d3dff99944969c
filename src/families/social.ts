/**
 * `add-provider social`: the social network VK, by its classic OAuth 2.0
 * dialog (the default, §2.8/§9) or VK ID; each flow a provider module and
 * its profile schema.
 */
import { z } from "zod";
import { defineFamily, type FamilyPlan, idOption, nameOption, opt, type PlanNames } from "./family.js";
import { clientEnv, commonOptions, idSchema, joinOr, quoted, report, text } from "./shared.js";

/** VK's two sign-in flows: the classic OAuth 2.0 dialog (the spec's default) and VK ID's OAuth 2.1. */
export const vkFlows = ["oauth", "vkid"] as const;

/** VK's domains: vk.ru since VK moved its OAuth and API hosts there in October 2025, vk.com before. */
export const vkDomains = ["vk.ru", "vk.com"] as const;
export type VkDomain = (typeof vkDomains)[number];

/** §9: the VK API version goes into a `v=` query parameter on every endpoint, so nothing but digits and one dot. */
export const vkApiVersion = /^\d+\.\d+$/;

export const socialSchema = z
  .object({
    ...commonOptions,
    id: idSchema.default("vk"),
    flow: z.enum(vkFlows, { errorMap: () => ({ message: `expected ${joinOr(vkFlows)}` }) }).default("oauth"),
    apiVersion: text("a VK API version such as 5.126")
      .refine(
        (v) => vkApiVersion.test(v),
        (v) => ({ message: `${quoted(v)} is not a VK API version; expected MAJOR.MINOR such as 5.126` }),
      )
      .optional(),
    domain: z
      .enum(vkDomains, {
        errorMap: (_issue, ctx) => ({
          message: `${quoted(ctx.data)} is not one of VK's domains; expected ${joinOr(vkDomains)}`,
        }),
      })
      .default("vk.ru"),
  })
  .superRefine((o, ctx) => {
    // VK ID's endpoints (id.vk.ru) are versioned by their path, not by v=: a version there would be silently ignored.
    if (o.flow === "vkid" && o.apiVersion !== undefined)
      report(ctx, {
        path: "apiVersion",
        message: "applies to --flow oauth only; VK ID's endpoints take no API version",
      });
  })
  .transform((o) => ({ ...o, apiVersion: o.apiVersion ?? "5.126" }));

/** The origins of VK's services on `domain`: the OAuth dialog, the API, VK ID and the developer docs. */
export const vkOrigins = (domain: VkDomain) => ({
  oauth: `https://oauth.${domain}`,
  api: `https://api.${domain}`,
  id: `https://id.${domain}`,
  dev: `https://dev.${domain}`,
});

function planVk(o: z.output<typeof socialSchema>, names: PlanNames): FamilyPlan {
  const profileFile = names.file.replace(/\.ts$/, "-profile.ts");
  const origins = vkOrigins(o.domain);
  const common = {
    ...o,
    name: o.name ?? "VK",
    profileModule: `./${profileFile.slice("providers/".length, -".ts".length)}`,
    origins,
    // Said in the module's header so a reader knows how to get the other hosts back.
    otherDomain: o.domain === "vk.ru" ? "vk.com" : "vk.ru",
  };
  if (o.flow === "vkid") {
    return {
      // A public client (PKCE): the app ID only, no secret.
      env: clientEnv(o.id).slice(0, 1),
      files: [
        { template: "social-vkid.ts.hbs", path: names.file },
        { template: "social-vkid-profile.ts.hbs", path: profileFile },
      ],
      view: {
        ...common,
        authorizationUrl: `${origins.id}/authorize`,
        tokenUrl: `${origins.id}/oauth2/auth`,
        userinfoUrl: `${origins.id}/oauth2/user_info`,
      },
      hasCallback: true,
      notes: [
        `VK ID adds a device_id to the callback that its token request needs, and Auth.js passes on only the code: run your auth route handler inside withVkIdCallback() from ${names.file} (examples at the top of that file).`,
      ],
    };
  }
  const v = o.apiVersion;
  // §9: every endpoint carries v=<api_version>; URLSearchParams writes the query, so the URLs are well formed by construction.
  const url = (base: string, params: Record<string, string>) => `${base}?${new URLSearchParams({ ...params, v })}`;
  return {
    env: clientEnv(o.id),
    files: [
      { template: "social.ts.hbs", path: names.file },
      { template: "social-profile.ts.hbs", path: profileFile },
    ],
    view: {
      ...common,
      authorizationUrl: url(`${origins.oauth}/authorize`, { response_type: "code", scope: "email" }),
      tokenUrl: url(`${origins.oauth}/access_token`, {}),
      userinfoUrl: url(`${origins.api}/method/users.get`, { fields: "photo_100" }),
    },
    hasCallback: true,
    notes: [],
  };
}

export const socialFamily = defineFamily({
  kind: "social",
  title: "VK",
  description: "the social network VK: its classic OAuth 2.0 dialog with a pinned API version, or VK ID",
  options: [
    idOption("vk"),
    nameOption("VK"),
    opt("flow", "--flow <flow>", "how VK signs users in", {
      fallback: "oauth",
      values: vkFlows,
      hints: {
        oauth: "classic OAuth dialog with a pinned --api-version: apps created on vk.com before VK ID",
        vkid: "VK ID (OAuth 2.1 with PKCE): apps created in the VK ID console, which the classic dialog refuses",
      },
      ask: true,
      settledBy: ["apiVersion"],
    }),
    opt("apiVersion", "--api-version <version>", "VK API version sent as v= on every endpoint (--flow oauth)", {
      fallback: "5.126",
    }),
    opt("domain", "--domain <domain>", "VK's domain, the host of every endpoint (both flows)", {
      fallback: "vk.ru",
      values: vkDomains,
      hints: {
        "vk.ru": "oauth.vk.ru, api.vk.ru and id.vk.ru, where VK has served sign-in since October 2025",
        "vk.com": "oauth.vk.com, api.vk.com and id.vk.com, for apps that still need VK's old hosts",
      },
    }),
  ],
  // The generated profile schemas use the zod API common to v3 and v4.
  dependencies: ["zod"],
  schema: socialSchema,
  // VK ID refreshes through its module's own refreshTokens (the sign-in's device_id), which token rotation calls.
  tokens: (o) => ({
    noRefresh: o.flow === "oauth" ? "VK's classic OAuth dialog issues no refresh tokens" : undefined,
    noEndSession: "VK has no OpenID Connect end-session endpoint",
  }),
  plan: (o, names) => planVk(o, names),
});
