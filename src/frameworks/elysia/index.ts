/**
 * Elysia on Node (@elysiajs/node): the generic wiring, mounted in the app's
 * own entry module right after `new Elysia(...)` — in its chain when the app
 * is built as one — with a route that leaves the body unparsed for Auth.js,
 * and with --protect an onRequest hook (Elysia runs a hook for the routes
 * declared after it, hence first) that sends visitors who are not signed in
 * to sign in.
 */
import { containerFile } from "../../doctor-model/facts.js";
import { twoFactorPath } from "../../families/two-factor.js";
import { specifier } from "../../render/modules.js";
import type { ProjectView } from "../../workspace/project-view.js";
import { defineFramework } from "../framework.js";
import { findServerEntry, mountInEntry, type ServerEntry, serverLibrary } from "../server-entry.js";
import { twoFactorImports } from "../two-factor-route.js";
import { webStandardPart } from "../web-standard.js";

export interface ElysiaFacts {
  entry: ServerEntry | undefined;
  /** It runs on Node through @elysiajs/node (else on Bun, which loads .env files itself). */
  nodeAdapter: boolean;
}

const facts = (project: ProjectView): ElysiaFacts => ({
  entry: findServerEntry(project),
  nodeAdapter: project.has("@elysiajs/node"),
});
const basePath = "/auth";

export const elysia = defineFramework<ElysiaFacts>({
  id: "elysia",
  title: "Elysia",
  ...serverLibrary("elysia", facts),
  async plan(request) {
    const { entry, nodeAdapter } = request.facts;
    const sessionPath = `${request.authDir}/session.ts`;
    // Node reads no env file when the built server starts; Bun does.
    const loadEnvPath = nodeAdapter ? `${request.authDir}/load-env.ts` : undefined;
    const ext = request.importExtension;
    const wiring = await webStandardPart(request, {
      title: "Elysia",
      basePath,
      envOrder: "next",
      sessionPath,
      ...(loadEnvPath ? { loadEnvPath } : {}),
      header: [
        `Elysia: ${entry?.path ?? "your server module"} hands requests under ${basePath} to Auth.js (handleAuth from ${sessionPath});`,
        "getSession(request) reads the session in a handler.",
        "https://authjs.dev/reference/core",
      ],
    });
    const protecting = Boolean(request.protect?.length);
    const names = ["handleAuth", ...(protecting ? ["getSession", "isProtected", "signInUrl"] : [])];
    const hook = protecting
      ? [
          `// Visitors who are not signed in are sent to sign in first on: ${request.protect!.join(", ")} (the list is in ${sessionPath}).`,
          ".onRequest(async ({ request }) => {",
          "  if (isProtected(new URL(request.url).pathname) && !(await getSession(request))?.user)",
          "    return new Response(null, { status: 302, headers: { location: signInUrl(request) } });",
          "})",
        ]
      : [];
    // The connection's address, which the sign-in throttle counts attempts by: on Node, the server's request has it
    // (read with Reflect.get, which is JavaScript as well as TypeScript: the server module may be either).
    const context = nodeAdapter ? "({ request })" : "({ request, server })";
    const clientAddress = nodeAdapter ? 'Reflect.get(request, "ip")' : "server?.requestIP(request)?.address";
    const address = `${context} => handleAuth(request, ${clientAddress})`;
    const route = [
      `// Auth.js's routes (signin, signout, session, callback/<provider>...) under ${basePath}; it reads the body itself.`,
      `.all("${basePath}/*", ${address}, { parse: "none" })`,
      ...(request.twoFactorPages
        ? [
            `// The two-factor pages (enrolment, recovery codes, the sign-in's code page) under ${twoFactorPath}.`,
            ...[twoFactorPath, `${twoFactorPath}/*`].map(
              (path) =>
                `.all("${path}", ${context} => handleTwoFactor(withClientAddress(request, ${clientAddress})), { parse: "none" })`,
            ),
          ]
        : []),
    ];
    const chained = [...hook, ...route];
    await mountInEntry(
      entry,
      {
        creates: { name: "Elysia", package: "elysia", exports: ["Elysia"], construct: true },
        wiring: (from) => ({
          ...(loadEnvPath ? { firstImport: specifier(from, loadEnvPath, ext) } : {}),
          imports: [
            `import { ${names.sort().join(", ")} } from "${specifier(from, sessionPath, ext)}";`,
            ...twoFactorImports(request, from),
          ],
          // A declared app: one statement, the hook and the route chained on it.
          mount: `$app\n${chained.map((line) => `  ${line}`).join("\n")};`,
          chain: chained.map((line) => `\n  ${line}`).join(""),
          marker: "handleAuth(",
        }),
        where: "src/index.ts, or the file your dev script runs",
        fallback: request.configPath,
      },
      wiring,
    );
    return wiring;
  },
  doctor: {
    ownServer: (facts) =>
      /\b(?:node|bun)\b/.test(facts.packageJson.scripts.start ?? "") ? "an Elysia server" : containerFile(facts),
    load: () => import("./doctor.js").then((m) => m.elysiaDoctor),
  },
});
