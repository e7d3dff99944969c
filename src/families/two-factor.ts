/**
 * Two-factor sign-in for the credentials family (--two-factor totp): the
 * modules written beside the adapter (templates/two-factor/): the TOTP
 * codes, the QR code of the enrolment page, the service the provider's
 * authorize() and the config's signIn callback call, and the pages the
 * framework mounts at twoFactorPath. The store they keep their state in is
 * the storage's (two-factor-store.ts, from its module), and the route that
 * mounts the pages is the framework's.
 */
import { posix } from "node:path";
import { specifier } from "../render/modules.js";
import type { PlannedFile } from "../render/parts.js";
import { renderTemplate } from "../render/templates.js";
import { opt } from "./family.js";

export const twoFactorMethods = ["none", "totp"] as const;
export type TwoFactorMethod = (typeof twoFactorMethods)[number];

export const twoFactorOption = opt(
  "twoFactor",
  "--two-factor <method>",
  "a second step after the password: totp (codes of an authenticator app, with recovery codes) or none",
  {
    fallback: "none",
    values: twoFactorMethods,
    hints: { none: "the password alone signs in", totp: "then a code from an authenticator app" },
    ask: true,
  },
);

/** Where every framework mounts the pages: the enrolment here, the sign-in's code page at /verify below. */
export const twoFactorPath = "/two-factor";

export const twoFactorModulePath = (authDir: string) => `${authDir}/two-factor.ts`;
export const twoFactorPagesPath = (authDir: string) => `${authDir}/two-factor-pages.ts`;
export const twoFactorStorePath = (authDir: string) => `${authDir}/two-factor-store.ts`;

export interface TwoFactorRequest {
  authDir: string;
  ext: "" | ".js";
  /** The auth config the pages read the session and Auth.js's CSRF token through. */
  configPath: string;
  /** Where Auth.js answers, and the credentials provider the code page posts to. */
  basePath: string;
  providerId: string;
  /** For the pages' header: which framework mounts them. */
  framework: string;
  /** throttle.ts is beside it: code attempts are counted like passwords. */
  throttle: boolean;
}

/** The framework-neutral modules; the storage adds two-factor-store.ts, the framework the route. */
export async function twoFactorFiles(request: TwoFactorRequest): Promise<PlannedFile[]> {
  const { authDir, ext } = request;
  const pages = twoFactorPagesPath(authDir);
  const view = {
    ext,
    path: twoFactorPath,
    ticketMinutes: 5,
    throttle: request.throttle,
    basePath: request.basePath,
    providerId: request.providerId,
    framework: request.framework,
    configModule: specifier(pages, request.configPath, ext),
  };
  const render = async (template: string, file: string) => ({
    path: posix.join(authDir, file),
    contents: await renderTemplate(`two-factor/${template}`, view),
  });
  return Promise.all([
    render("totp.ts.hbs", "totp.ts"),
    render("qr-code.ts.hbs", "qr-code.ts"),
    render("two-factor.ts.hbs", "two-factor.ts"),
    render("pages.ts.hbs", "two-factor-pages.ts"),
  ]);
}
