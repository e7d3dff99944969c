/**
 * The auth config init writes: one template (templates/config/auth.ts.hbs)
 * whose framework slots the framework module fills, with the chosen
 * providers (their modules come from the generator add-provider uses), the
 * storage's adapter and the session strategy. Pure: returns planned files,
 * paths relative to the project root.
 */
import { posix } from "node:path";
import type { ConfigShape } from "../frameworks/framework.js";
import { importLine, specifier } from "../render/modules.js";
import type { PlannedFile, ProviderSnippet } from "../render/parts.js";
import { renderTemplate } from "../render/templates.js";

export interface ConfigInput {
  /** Where the config goes, relative to the project root: "auth.ts" or "src/auth.ts". */
  configPath: string;
  providers: ProviderSnippet[];
  /** The generated adapter module; every adapter template exports `createAdapter()`. */
  adapterPath: string;
  session: "jwt" | "database";
  /** Named in the config's header: the backend, or the ORM and its database. */
  storage: string;
  importExtension: "" | ".js";
  /** Shown in the config's header, e.g. "npm run verify-adapter". */
  verifyCommand: string;
  /** The framework's pieces of the module. */
  shape: ConfigShape;
  /** With a federated sign-out: the post-logout redirect URI, the example of its variable. */
  postLogoutRedirectUri?: string;
  /** two-factor.ts, when a provider asks for a second factor: its signIn callback goes into the config. */
  twoFactorPath?: string;
  /** throttle.ts, when a provider's sign-in emails are counted: the adapter stores no token of a refused one. */
  throttlePath?: string;
}

/** The variable the config reads the post-logout redirect URI from (add-provider writes the same). */
export const postLogoutVariable = "AUTH_POST_LOGOUT_REDIRECT_URI";

/** The env entry a federated sign-out reads: where the provider sends the browser after its own sign-out. */
export const postLogoutEnv = (example = "http://localhost:3000/") => ({
  name: postLogoutVariable,
  description:
    "Where the provider sends the browser after its sign-out (registered there as a post-logout redirect URI)",
  example,
});

/** The token-rotation wiring of the config: the providers refreshed and signed out of, by their entries. */
function rotation(providers: ProviderSnippet[]) {
  const refresh = providers.filter((p) => p.tokens?.refresh).map((p) => p.entry);
  const federatedSignOut = providers.filter((p) => p.tokens?.federatedLogout).map((p) => p.entry);
  if (refresh.length === 0 && federatedSignOut.length === 0) return undefined;
  return { refresh, federatedSignOut, postLogoutVariable: federatedSignOut.length ? postLogoutVariable : undefined };
}

export async function generateConfig(input: ConfigInput): Promise<PlannedFile[]> {
  const dir = posix.dirname(input.configPath);
  const adapterFrom = specifier(input.configPath, input.adapterPath, input.importExtension);
  const imports = [
    ...input.providers.flatMap((p) => p.imports.map(importLine)),
    `import { createAdapter } from "${adapterFrom}";`,
  ];
  const tokens = rotation(input.providers);
  // Beside the adapter whose extra operations it uses.
  const rotationPath = posix.join(posix.dirname(input.adapterPath), "token-rotation.ts");
  if (tokens) {
    const from = specifier(input.configPath, rotationPath, input.importExtension);
    imports.push(`import { createTokenRotation } from "${from}";`);
  }
  const twoFactor = input.twoFactorPath !== undefined && input.providers.some((p) => p.twoFactor);
  if (twoFactor)
    imports.push(
      `import { twoFactorSignIn } from "${specifier(input.configPath, input.twoFactorPath!, input.importExtension)}";`,
    );
  // Auth.js stores an email's token while it asks for the mail: the throttle's refusal must reach the adapter too.
  const emailLimits = input.throttlePath !== undefined && input.providers.some((p) => p.throttledEmails);
  if (emailLimits)
    imports.push(
      `import { withSignInEmailLimits } from "${specifier(input.configPath, input.throttlePath!, input.importExtension)}";`,
    );
  const contents = await renderTemplate("config/auth.ts.hbs", {
    tokens,
    newAdapter: emailLimits ? "withSignInEmailLimits(createAdapter())" : "createAdapter()",
    twoFactor,
    ...input.shape,
    frameworkImports: input.shape.imports,
    imports,
    providers: input.providers.map((p) => p.entry),
    adapterModule: input.adapterPath,
    backend: input.storage,
    session: input.session,
    databaseSessions: input.session === "database",
    webauthn: input.providers.some((p) => p.kind === "webauthn"),
    providersDir: "providers",
    verifyCommand: input.verifyCommand,
  });
  const providerFiles = input.providers.flatMap((p) =>
    p.files.map((f) => ({ path: posix.join(dir, f.path), contents: f.contents })),
  );
  const rotationFiles = tokens
    ? [{ path: rotationPath, contents: await renderTemplate("config/token-rotation.ts.hbs", {}) }]
    : [];
  return [{ path: input.configPath, contents }, ...providerFiles, ...rotationFiles];
}
