/**
 * SvelteKit: the auth module under src/lib/server, its env bridge, and
 * src/hooks.server.ts exporting the handle (a hooks module of the project's
 * own gets it composed in with sequence()); with --protect a second handle,
 * and a root server load that reads the URL, so that client-side navigation
 * asks the server for data (through the hooks) too.
 */
import { containerFile } from "../../doctor-model/facts.js";
import { loadEnvModule } from "../../render/env-files.js";
import { specifier } from "../../render/modules.js";
import { part } from "../../render/parts.js";
import { renderTemplate } from "../../render/templates.js";
import type { ProjectView } from "../../workspace/project-view.js";
import { clientAddressFile, clientAddressPath } from "../client-address.js";
import { defineFramework, existingEntry, type FrameworkPart, type OwnFile, ownFile } from "../framework.js";
import { twoFactorRoute } from "../two-factor-route.js";
import { pathPattern } from "../web-standard.js";
import { ownHooksEdit } from "./hooks.js";
import { libModule } from "./lib-module.js";

export interface SvelteKitFacts {
  /** The project's own src/hooks.server module (any extension), into which the handle is composed. */
  hooks: OwnFile | undefined;
  /** The root layout's server load of the project's own (src/routes/+layout.server.ts). */
  ownRootLoad: string | undefined;
}

const rootLoad = "src/routes/+layout.server";

const facts = (project: ProjectView): SvelteKitFacts => ({
  hooks: ownFile(project, existingEntry(project, "src/hooks.server")),
  ownRootLoad: existingEntry(project, rootLoad),
});

export const sveltekit = defineFramework<SvelteKitFacts>({
  id: "sveltekit",
  title: "SvelteKit",
  facts,
  shownBy: { packages: ["@sveltejs/kit"], config: "svelte.config" },
  dependencies: ["@auth/sveltekit"],
  app: { port: 5173 },
  basePath: "/auth",
  authPackage: "@auth/sveltekit",
  envOrder: "vite",
  layout: () => ({ configPath: "src/lib/server/auth.ts", authDir: "src/lib/server/auth" }),
  async plan(request) {
    const hooks = "src/hooks.server.ts";
    const module = libModule(request.configPath);
    const envPath = `${request.authDir}/env.ts`;
    const loadEnvPath = `${request.authDir}/load-env.ts`;
    const protect = request.protect?.length ? request.protect : undefined;
    const protectPath = `${request.authDir}/protect.ts`;
    const ext = request.importExtension;
    const wiring: FrameworkPart = {
      ...part({
        files: [
          { path: envPath, contents: await renderTemplate("config/sveltekit-env.ts.hbs", {}) },
          await loadEnvModule(loadEnvPath, "vite"),
          await clientAddressFile(request.authDir),
        ],
      }),
      config: {
        header: [
          "SvelteKit: src/hooks.server.ts runs `handle`; `event.locals.auth()` reads the session.",
          "https://authjs.dev/getting-started/installation?framework=sveltekit",
        ],
        first: [
          "// First: copies SvelteKit's private env into process.env, which the modules below read;",
          "// then the env files, for a server that loads none (adapter-node's `node build`).",
          `import "${specifier(request.configPath, envPath, ext)}";`,
          `import "${specifier(request.configPath, loadEnvPath, ext)}";`,
        ],
        imports: [
          'import { SvelteKitAuth, type SvelteKitAuthConfig } from "@auth/sveltekit";',
          ...(request.federatedSignOut
            ? [
                'import { Auth, setEnvDefaults } from "@auth/core";',
                'import type { Session } from "@auth/core/types";',
                'import type { Action, Handle, RequestEvent } from "@sveltejs/kit";',
              ]
            : ['import type { Handle, RequestEvent } from "@sveltejs/kit";']),
          `import { withClientAddress } from "${specifier(request.configPath, clientAddressPath(request.authDir), ext)}";`,
        ],
        configType: "SvelteKitAuthConfig",
        options: [
          "// Trust the Host header, so `vite preview` and a Node server behind your proxy work (set ORIGIN in production).",
          "trustHost: true,",
        ],
        exports: [...(request.federatedSignOut ? federatedSignOutExports : plainExports), ...withAddress],
      },
    };
    wiring.files.push(
      ...(await twoFactorRoute(request, "src/routes/two-factor/[...path]/+server.ts", "frameworks/sveltekit")),
    );
    const protectModule = protect ? libModule(protectPath) : undefined;
    if (protect)
      wiring.files.push({
        path: protectPath,
        contents: await renderTemplate("frameworks/sveltekit/protect.ts.hbs", {
          hooks: request.facts.hooks?.path ?? hooks,
          protect: protect.map(pathPattern),
          protectList: protect.join(","),
        }),
      });
    const { hooks: own } = request.facts;
    if (own) await ownHooksEdit(wiring, own, { configPath: request.configPath, configModule: module, protectModule });
    else {
      wiring.files.push({
        path: hooks,
        contents: await renderTemplate("frameworks/sveltekit/hooks.ts.hbs", {
          configModule: module,
          protectModule: protectModule ?? false,
        }),
      });
      wiring.instructions[hooks] = `export { handle } from "${module}"`;
    }
    const hooksPath = own?.path ?? hooks;
    if (!protect) return wiring;
    wiring.steps.push(
      `${hooksPath} sends visitors who are not signed in to the sign-in page on: ${protect.join(", ")}`,
    );
    const { ownRootLoad } = request.facts;
    if (ownRootLoad)
      wiring.steps.push(
        `${ownRootLoad} is yours and was left alone; for pages reached by client-side navigation to pass ${hooksPath} too, read url.pathname in its load (SvelteKit then asks the server for its data on every navigation).`,
      );
    else
      wiring.files.push({
        path: `${rootLoad}.ts`,
        contents: await renderTemplate("frameworks/sveltekit/layout.server.ts.hbs", { hooks: hooksPath }),
      });
    return wiring;
  },
  doctor: {
    ownServer: (facts) =>
      "@sveltejs/adapter-node" in facts.packageJson.dependencies ? "@sveltejs/adapter-node" : containerFile(facts),
    load: () => import("./doctor.js").then((m) => m.sveltekitDoctor),
  },
});

const plainExports = [
  "const svelteKitAuth = SvelteKitAuth(authConfig);",
  "export const { signIn, signOut } = svelteKitAuth;",
  "",
  "/** Auth.js's handle, its requests given the client's address. */",
  "export const handle: Handle = ({ event, resolve }) => svelteKitAuth.handle({ event: withAddress(event), resolve });",
];

/** After either handle: Auth.js's own requests carry the address the sign-in throttle counts attempts by. */
const withAddress = [
  "",
  "/** The event with the connection's address on its request, under /auth only (there is none while prerendering). */",
  "function withAddress(event: RequestEvent): RequestEvent {",
  '  if (!event.url.pathname.startsWith("/auth/")) return event;',
  "  return { ...event, request: withClientAddress(event.request, event.getClientAddress()) };",
  "}",
];

/**
 * With --federated-logout, both ways Auth.js signs out in SvelteKit go on to
 * the provider's end-session endpoint: POST /auth/signout (the sign-out page,
 * a client's form), which the handle rewrites before Auth.js answers it, and
 * the signOut form action. Auth.js decides where its sign-out goes before it
 * knows who signs out, so the user is read first.
 */
const federatedSignOutExports = [
  "const svelteKitAuth = SvelteKitAuth(authConfig);",
  "export const { signIn } = svelteKitAuth;",
  "",
  "/** The user of the request's session, read as Auth.js reads it (before its handle has run). */",
  "async function userIdOf(request: Request): Promise<string | undefined> {",
  "  const config: SvelteKitAuthConfig = authConfig;",
  "  setEnvDefaults(process.env, config);",
  "  const url = new URL(`${config.basePath}/session`, request.url);",
  '  const response = await Auth(new Request(url, { headers: { cookie: request.headers.get("cookie") ?? "" } }), config);',
  "  return ((await response.json()) as Session | null)?.user?.id;",
  "}",
  "",
  "/** Auth.js's handle; a sign-out (POST /auth/signout) goes on to the provider's end-session endpoint. */",
  "export const handle: Handle = async ({ event, resolve }) => {",
  '  if (event.request.method !== "POST" || event.url.pathname !== "/auth/signout")',
  "    return svelteKitAuth.handle({ event: withAddress(event), resolve });",
  "  const request = await signOutRequest(event.request, () => userIdOf(event.request));",
  "  return svelteKitAuth.handle({ event: { ...event, request }, resolve });",
  "};",
  "",
  "/** Auth.js's sign-out form action; without a redirectTo, the browser goes on to the provider's end-session endpoint. */",
  "export const signOut: Action = async (event) => {",
  "  const form = await event.request.formData();",
  '  if (!form.has("redirectTo")) {',
  "    const userId = (await event.locals.auth())?.user?.id;",
  "    const endSession = userId ? await signOutUrl(userId).catch(() => null) : null;",
  '    if (endSession) form.set("redirectTo", endSession);',
  "  }",
  "  const headers = new Headers(event.request.headers);",
  '  headers.delete("content-type");',
  '  headers.delete("content-length");',
  '  const request = new Request(event.request.url, { method: "POST", headers, body: form });',
  "  return svelteKitAuth.signOut({ ...event, request });",
  "};",
];
