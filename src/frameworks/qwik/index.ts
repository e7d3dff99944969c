/**
 * Qwik City with @auth/qwik: src/routes/plugin@auth.ts runs QwikAuth$ on
 * every request (its routes under /auth, the session in sharedMap), refuses
 * cross-site POSTs to /auth (@auth/qwik turns Auth.js's CSRF check off), and
 * with --protect sends visitors who are not signed in to sign in. That plugin is
 * in the browser's build as well, so it reaches the auth config only through
 * an import the client build drops (isServer); the config loads the env
 * files first, since the production Node server (server/entry.node-server)
 * loads none.
 */
import { containerFile } from "../../doctor-model/facts.js";
import { loadEnvModule } from "../../render/env-files.js";
import { specifier } from "../../render/modules.js";
import { part } from "../../render/parts.js";
import { renderTemplate } from "../../render/templates.js";
import type { ProjectView } from "../../workspace/project-view.js";
import { clientAddressFile, clientAddressPath } from "../client-address.js";
import { defineFramework, existingEntry, trustHostVariable } from "../framework.js";
import { twoFactorRoute } from "../two-factor-route.js";
import { pathPattern } from "../web-standard.js";

export interface QwikFacts {
  /** A plugin@auth module of the project's own (any extension), which init leaves alone. */
  ownPlugin: string | undefined;
}

const facts = (project: ProjectView): QwikFacts => ({ ownPlugin: existingEntry(project, "src/routes/plugin@auth") });

export const qwik = defineFramework<QwikFacts>({
  id: "qwik",
  title: "Qwik City",
  facts,
  shownBy: { packages: ["@builder.io/qwik-city", "@builder.io/qwik"] },
  dependencies: ["@auth/qwik"],
  app: { port: 5173 },
  basePath: "/auth",
  authPackage: "@auth/qwik",
  envOrder: "vite",
  layout: () => ({ configPath: "src/auth.ts", authDir: "src/auth" }),
  async plan(request) {
    const plugin = "src/routes/plugin@auth.ts";
    const loadEnv = `${request.authDir}/load-env.ts`;
    const ext = request.importExtension;
    const protect = request.protect?.length ? request.protect : undefined;
    const wiring = {
      ...part({
        env: [trustHostVariable],
        files: [await loadEnvModule(loadEnv, "vite"), await clientAddressFile(request.authDir)],
      }),
      config: {
        header: [
          `Qwik City: ${plugin} runs Auth.js (QwikAuth$) on every request; pages read the session`,
          'with useSession() from it, request handlers with event.sharedMap.get("session").',
          "https://authjs.dev/getting-started/installation?framework=qwik",
        ],
        first: [
          "// First: the env files into process.env (the Node server loads none), before the modules below read it.",
          `import "${specifier(request.configPath, loadEnv, ext)}";`,
        ],
        imports: [
          ...(request.federatedSignOut
            ? [
                'import { Auth, type AuthConfig, setEnvDefaults } from "@auth/core";',
                'import type { Session } from "@auth/core/types";',
              ]
            : []),
          'import type { QwikAuthConfig } from "@auth/qwik";',
        ],
        configType: "QwikAuthConfig",
        options: [],
        exports: request.federatedSignOut ? federatedSignOutExports : [],
      },
    };
    const line = `export const { onRequest, useSession, useSignIn, useSignOut } = QwikAuth$(...) returning the authConfig of ${request.configPath}`;
    if (request.facts.ownPlugin) {
      wiring.steps.push(`${request.facts.ownPlugin} is yours and was left alone; in it: ${line}.`);
      return wiring;
    }
    wiring.files.push({
      path: plugin,
      contents: await renderTemplate("frameworks/qwik/plugin.ts.hbs", {
        configModule: specifier(plugin, request.configPath, ext),
        clientAddressModule: specifier(plugin, clientAddressPath(request.authDir), ext),
        protect: protect?.map(pathPattern) ?? false,
        protectList: protect?.join(",") ?? "",
        federatedSignOut: request.federatedSignOut ?? false,
      }),
    });
    wiring.instructions[plugin] = line;
    // An endpoint for /two-factor and every path below it (a rest parameter matches none too).
    wiring.files.push(
      ...(await twoFactorRoute(request, "src/routes/two-factor/[...path]/index.ts", "frameworks/qwik")),
    );
    if (protect)
      wiring.steps.push(`${plugin} sends visitors who are not signed in to the sign-in page on: ${protect.join(", ")}`);
    return wiring;
  },
  doctor: {
    ownServer: (facts) =>
      /\bnode\b/.test(facts.packageJson.scripts.serve ?? facts.packageJson.scripts.start ?? "")
        ? "the Qwik City Node server"
        : containerFile(facts),
    load: () => import("./doctor.js").then((m) => m.qwikDoctor),
  },
});

/**
 * With --federated-logout, the plugin hands @auth/qwik a sign-out request (POST /auth/signout) rewritten by
 * this: @auth/qwik passes the request to Auth.js as it came and reads no session for Auth.js's own routes,
 * so the user is read here, as Auth.js reads it, with the config prepared as @auth/qwik prepares it.
 */
const federatedSignOutExports = [
  "/**",
  " * Auth.js's sign-out request with the provider's end-session URL as its callbackUrl, for the user of the",
  " * request's session (@auth/qwik reads none for Auth.js's own routes); src/routes/plugin@auth.ts uses it.",
  " */",
  "export function federatedSignOutRequest(request: Request): Promise<Request> {",
  "  return signOutRequest(request, async () => {",
  "    // @auth/qwik types its config with a copy of @auth/core of its own: the object is the same either way.",
  "    const config = authConfig as unknown as AuthConfig;",
  "    // Prepared as @auth/qwik prepares it before each request: Auth.js at /auth, the rest from the env.",
  '    config.basePath = "/auth";',
  "    setEnvDefaults(process.env, config, true);",
  '    const url = new URL("/auth/session", request.url);',
  '    const response = await Auth(new Request(url, { headers: { cookie: request.headers.get("cookie") ?? "" } }), config);',
  "    return ((await response.json()) as Session | null)?.user?.id;",
  "  });",
  "}",
];
