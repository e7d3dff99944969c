/** No framework: the framework-neutral authConfig, for the user to mount. */
import { part } from "../render/parts.js";
import { clientAddressFile, clientAddressPath } from "./client-address.js";
import { defineFramework, plainConfig, rootLayout } from "./framework.js";

/**
 * With --federated-logout the config exports the request handler to mount:
 * Auth.js decides where its sign-out goes before it knows who signs out, so
 * the handler reads the user first and a sign-out goes on to the provider's
 * end-session endpoint; a config of no framework has no other wiring to do it.
 */
const federatedSignOut = {
  imports: ['import { Auth, setEnvDefaults } from "@auth/core";', 'import type { Session } from "@auth/core/types";'],
  exports: [
    "const config: AuthConfig = authConfig;",
    "",
    "/**",
    " * Auth.js's answer to a request under the config's basePath (signin, signout, session, callback/<provider>...):",
    " * mount it in your server. A sign-out (POST <basePath>/signout) goes on to the provider's end-session endpoint.",
    " */",
    "export async function handleAuth(request: Request): Promise<Response> {",
    "  setEnvDefaults(process.env, config);",
    "  return Auth(await signOutRequest(request, () => userIdOf(request)), config);",
    "}",
    "",
    "/** The user of the request's session, read as Auth.js reads it (before Auth.js answers the sign-out). */",
    "async function userIdOf(request: Request): Promise<string | undefined> {",
    "  const url = new URL(`${config.basePath}/session`, request.url);",
    '  const response = await Auth(new Request(url, { headers: { cookie: request.headers.get("cookie") ?? "" } }), config);',
    "  return ((await response.json()) as Session | null)?.user?.id;",
    "}",
  ],
};

export const none = defineFramework<Record<string, never>>({
  id: "none",
  title: "no framework",
  precedence: 0,
  detect: () => undefined,
  facts: () => ({}),
  app: { devCommand: "" },
  basePath: "/api/auth",
  envOrder: "next",
  protects: false,
  layout: rootLayout,
  plan: async (request) => {
    const address = clientAddressPath(request.authDir);
    const shape = plainConfig({
      header: request.federatedSignOut
        ? [
            `Mount it with handleAuth(withClientAddress(request, address)): withClientAddress (${address})`,
            "gives Auth.js the connection's address, which the sign-in throttle counts attempts by.",
          ]
        : [
            `Mount it with Auth(withClientAddress(request, address), authConfig): withClientAddress (${address})`,
            "gives Auth.js the connection's address, which the sign-in throttle counts attempts by.",
          ],
    });
    if (request.federatedSignOut)
      Object.assign(shape, {
        imports: [...shape.imports, ...federatedSignOut.imports],
        exports: federatedSignOut.exports,
      });
    return { ...part({ files: [await clientAddressFile(request.authDir)] }), config: shape };
  },
  doctor: {
    ownServer: () => undefined,
    load: async () => ({ checks: [], read: () => ({}), run: () => [] }),
  },
});
