/**
 * Next.js with next-auth v5: the auth module exporting handlers, auth,
 * signIn and signOut; the route handler under the App Router's api/auth
 * (also in a Pages Router app: v5 serves its endpoints from app/); with
 * --protect, proxy.ts (Next.js 16) or middleware.ts (15, on Node.js).
 *
 * The Pages Router is a fact of this module, not a framework of its own:
 * the package, the config, the route handler and the proxy are the same;
 * its pages read the session with auth(ctx) in getServerSideProps, for
 * which next.config gets transpilePackages: ["next-auth"].
 */
import { posix } from "node:path";
import { containerFile } from "../../doctor-model/facts.js";
import { specifier } from "../../render/modules.js";
import { part } from "../../render/parts.js";
import { renderTemplate } from "../../render/templates.js";
import type { ProjectView } from "../../workspace/project-view.js";
import { clientAddressFile, clientAddressPath } from "../client-address.js";
import {
  defineFramework,
  existingEntry,
  type FrameworkPart,
  type OwnFile,
  ownFile,
  rootLayout,
  trustHostVariable,
} from "../framework.js";
import { twoFactorRoute } from "../two-factor-route.js";
import { configModule } from "./config-module.js";

export interface NextFacts {
  /** The App Router folder ("app" or "src/app"; where it would go when there is none yet). */
  appDir: string;
  /** Next.js's major version (16 when unknown): 16 renamed middleware.ts to proxy.ts. */
  major: number;
  /** The project's own middleware or proxy module beside the app folder, when it has one. */
  ownMiddleware: OwnFile | undefined;
  /** The Pages Router folder ("pages" or "src/pages"), when the app has one. */
  pagesDir: string | undefined;
  /** The project's next.config, when it has one. */
  nextConfig: { path: string; text: string } | undefined;
}

function facts(project: ProjectView): NextFacts {
  const appDir = project.isDir("app") ? "app" : project.srcDir ? "src/app" : "app";
  const besideApp = posix.dirname(appDir) === "." ? "" : `${posix.dirname(appDir)}/`;
  const pagesDir = ["pages", "src/pages"].find((dir) => project.isDir(dir));
  const configPath = project.configFile("next.config");
  const configText = configPath ? project.read(configPath) : null;
  return {
    pagesDir,
    nextConfig: configPath && configText !== null ? { path: configPath, text: configText } : undefined,
    appDir,
    major: project.major("next") ?? 16,
    ownMiddleware: ownFile(
      project,
      existingEntry(project, `${besideApp}middleware`) ?? existingEntry(project, `${besideApp}proxy`),
    ),
  };
}

export const next = defineFramework<NextFacts>({
  id: "next",
  title: "Next.js",
  facts,
  shownBy: { packages: ["next"], config: "next.config" },
  dependencies: ["next-auth"],
  basePath: "/api/auth",
  authPackage: "next-auth",
  envOrder: "next",
  layout: rootLayout,
  async plan(request) {
    const { facts } = request;
    const route = `${facts.appDir}/api/auth/[...nextauth]/route.ts`;
    const wiring: FrameworkPart = {
      ...part(),
      files: [
        {
          path: route,
          contents: await renderTemplate("frameworks/next/route.ts.hbs", {
            configModule: configModule(route, request),
            clientAddressModule: specifier(route, clientAddressPath(request.authDir), request.importExtension),
          }),
        },
        await clientAddressFile(request.authDir),
      ],
      env: [trustHostVariable],
      instructions: {
        [route]: `export { GET, POST } from the handlers of ${request.configPath}, POST given the client's address (withClientAddress of ${clientAddressPath(request.authDir)}) for the sign-in throttle`,
      },
      config: {
        header: [
          `Next.js: the route handler in ${route} serves \`handlers\`; call \`auth()\``,
          "in server components and route handlers to read the session.",
          "https://authjs.dev/getting-started/installation?framework=next.js",
        ],
        first: [],
        imports: [
          'import NextAuth, { type NextAuthConfig } from "next-auth";',
          ...(request.federatedSignOut ? ['import { NextRequest } from "next/server";'] : []),
        ],
        configType: "NextAuthConfig",
        options: [],
        exports: request.federatedSignOut
          ? federatedSignOutExports
          : ["export const { handlers, auth, signIn, signOut } = NextAuth(authConfig);"],
      },
    };
    wiring.files.push(
      ...(await twoFactorRoute(request, `${facts.appDir}/two-factor/[[...path]]/route.ts`, "frameworks/next")),
    );
    if (facts.pagesDir) await pagesRouter(wiring, facts, request.configPath);
    if (!request.protect?.length) return wiring;
    // Next.js 16 renamed middleware.ts to proxy.ts (and runs it on Node.js); it sits beside app/.
    const path = posix.join(posix.dirname(facts.appDir), facts.major >= 16 ? "proxy.ts" : "middleware.ts");
    if (facts.ownMiddleware) {
      const { ownMiddlewareEdit } = await import("./protect.js");
      await ownMiddlewareEdit(wiring, facts.ownMiddleware, { ...request, protect: request.protect });
      return wiring;
    }
    wiring.files.push({
      path,
      contents: await renderTemplate("frameworks/next/proxy.ts.hbs", {
        configModule: configModule(path, request),
        matcher: request.protect,
        nodeRuntime: facts.major < 16,
      }),
    });
    wiring.instructions[path] =
      `export default auth((request) => ...) from ${request.configPath}, with config.matcher ${JSON.stringify(request.protect)}`;
    wiring.steps.push(
      `${path} sends visitors who are not signed in to the sign-in page on: ${request.protect.join(", ")}`,
    );
    return wiring;
  },
  doctor: {
    env: { url: ["AUTH_URL", "NEXTAUTH_URL"], secret: ["AUTH_SECRET", "NEXTAUTH_SECRET"] },
    ownServer(facts) {
      if (/\bnext start\b/.test(facts.packageJson.scripts.start ?? ""))
        return "`next start` (package.json's start script)";
      return containerFile(facts);
    },
    load: () => import("./doctor.js").then((m) => m.nextDoctor),
  },
});

/**
 * With --federated-logout, both ways next-auth signs out go on to the
 * provider's end-session endpoint: the route's POST /api/auth/signout (the
 * sign-out page, next-auth/react's signOut()) and the server-side signOut()
 * of server actions. Auth.js decides where its sign-out goes before it knows
 * who signs out, so the user is read first.
 */
const federatedSignOutExports = [
  "const nextAuth = NextAuth(authConfig);",
  "export const { auth, signIn } = nextAuth;",
  "",
  "/** Auth.js's routes; a sign-out (POST /api/auth/signout) goes on to the provider's end-session endpoint. */",
  "export const handlers = {",
  "  GET: nextAuth.handlers.GET,",
  "  POST: async (request: NextRequest) =>",
  "    nextAuth.handlers.POST(new NextRequest(await signOutRequest(request, async () => (await auth())?.user?.id))),",
  "};",
  "",
  "/** next-auth's signOut(); without a redirectTo, the browser goes on to the provider's end-session endpoint. */",
  "export async function signOut<R extends boolean = true>(options?: { redirectTo?: string; redirect?: R }) {",
  "  if (options?.redirectTo === undefined) {",
  "    const userId = (await auth())?.user?.id;",
  "    const redirectTo = userId ? await signOutUrl(userId).catch(() => null) : null;",
  "    if (redirectTo) return nextAuth.signOut<R>({ ...options, redirectTo });",
  "  }",
  "  return nextAuth.signOut<R>(options);",
  "}",
];

/**
 * Pages read the session with auth(ctx) in getServerSideProps; that server
 * code imports next-auth 5, which imports next/server, so Next.js must
 * compile it (transpilePackages), or `next build` fails to resolve it.
 */
async function pagesRouter(wiring: FrameworkPart, facts: NextFacts, configPath: string): Promise<void> {
  wiring.config.header.splice(2, 0, `In ${facts.pagesDir}/, read it in getServerSideProps with \`await auth(ctx)\`.`);
  const { addTranspilePackage, newNextConfig } = await import("../../ast/upgrade/project-edits.js");
  const line = 'transpilePackages: ["next-auth"]';
  if (!facts.nextConfig) {
    wiring.files.push({ path: "next.config.mjs", contents: newNextConfig });
    wiring.instructions["next.config.mjs"] = `${line} (Pages Router code that imports ${configPath})`;
    return;
  }
  const edited = addTranspilePackage(facts.nextConfig.text, facts.nextConfig.path);
  if (edited === undefined)
    wiring.steps.push(
      `${facts.nextConfig.path} was left alone (its exported config is not an object literal create-auth can edit); add ${line} to it, so that pages importing ${configPath} build.`,
    );
  else if (edited !== facts.nextConfig.text) wiring.edits.push({ path: facts.nextConfig.path, contents: edited });
}
