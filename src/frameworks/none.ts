/** No framework: the framework-neutral authConfig, for the user to mount. */
import { part } from "../render/parts.js";
import { clientAddressFile, clientAddressPath } from "./client-address.js";
import { defineFramework, plainConfig, rootLayout } from "./framework.js";

export const none = defineFramework<Record<string, never>>({
  id: "none",
  title: "no framework",
  precedence: 0,
  detect: () => undefined,
  assume: () => ({}),
  dependencies: [],
  devDependencies: [],
  app: { port: 3000, devCommand: "" },
  basePath: "/api/auth",
  authPackage: "@auth/core",
  envOrder: "next",
  protects: false,
  layout: rootLayout,
  plan: async (request) => ({
    ...part({ files: [await clientAddressFile(request.authDir)] }),
    config: plainConfig({
      header: [
        `Mount it with Auth(withClientAddress(request, address), authConfig): withClientAddress (${clientAddressPath(request.authDir)})`,
        "gives Auth.js the connection's address, which the sign-in throttle counts attempts by.",
      ],
    }),
  }),
  doctor: {
    env: { url: ["AUTH_URL"], secret: ["AUTH_SECRET"] },
    ownServer: () => undefined,
    load: async () => ({ checks: [], read: () => ({}), run: () => [] }),
  },
});
