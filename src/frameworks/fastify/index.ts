/**
 * Fastify 5 on Node: the generic wiring, registered in the app's own entry
 * module as a plugin (its own scope, where request bodies stay raw: Fastify
 * parses no form bodies, and Auth.js reads the Request's itself), and with
 * --protect an onRequest hook that sends visitors who are not signed in to
 * sign in. No extra package: @fastify/formbody would parse the form only for
 * it to be encoded again.
 */
import { posix } from "node:path";
import { containerFile } from "../../doctor-model/facts.js";
import { specifier } from "../../render/modules.js";
import { renderTemplate } from "../../render/templates.js";
import type { ProjectView } from "../../workspace/project-view.js";
import { clientAddressPath } from "../client-address.js";
import { defineFramework } from "../framework.js";
import { findServerEntry, mountInEntry, type ServerEntry, serverLibrary } from "../server-entry.js";
import { webStandardPart } from "../web-standard.js";

export interface FastifyFacts {
  entry: ServerEntry | undefined;
}

const facts = (project: ProjectView): FastifyFacts => ({ entry: findServerEntry(project) });

const basePath = "/auth";

export const fastify = defineFramework<FastifyFacts>({
  id: "fastify",
  title: "Fastify",
  ...serverLibrary("fastify", facts),
  async plan(request) {
    const { entry } = request.facts;
    const sessionPath = `${request.authDir}/session.ts`;
    const pluginPath = `${request.authDir}/fastify.ts`;
    const loadEnvPath = `${request.authDir}/load-env.ts`;
    const ext = request.importExtension;
    const wiring = await webStandardPart(request, {
      title: "Fastify",
      basePath,
      envOrder: "next",
      sessionPath,
      loadEnvPath,
      header: [
        `Fastify: ${entry?.path ?? "your server module"} registers authRoutes from ${pluginPath}, which hands requests`,
        `under ${basePath} to Auth.js; getSession(webRequest(request)) reads the session in a handler.`,
        "https://authjs.dev/reference/core",
      ],
    });
    wiring.files.push({
      path: pluginPath,
      contents: await renderTemplate("frameworks/fastify/auth.ts.hbs", {
        basePath,
        sessionModule: specifier(pluginPath, sessionPath, ext),
        twoFactorPages: request.twoFactorPages ? specifier(pluginPath, request.twoFactorPages, ext) : false,
        clientAddressModule: specifier(pluginPath, clientAddressPath(request.authDir), ext),
      }),
    });
    const protecting = Boolean(request.protect?.length);
    const session = protecting ? ["getSession", "isProtected", "signInUrl"] : [];
    const plugin = ["authRoutes", ...(protecting ? ["webRequest"] : [])];
    const protect = protecting
      ? [
          `// Visitors who are not signed in are sent to sign in first on: ${request.protect!.join(", ")} (the list is in ${sessionPath}).`,
          '$app.addHook("onRequest", async (request, reply) => {',
          "  const page = webRequest(request);",
          "  if (isProtected(new URL(page.url).pathname) && !(await getSession(page))?.user) return reply.redirect(signInUrl(page));",
          "});",
        ]
      : [];
    await mountInEntry(
      entry,
      {
        creates: { name: "Fastify", package: "fastify", exports: ["default", "fastify"], construct: false },
        wiring: (from) => ({
          firstImport: specifier(from, loadEnvPath, ext),
          imports: [
            `import { ${plugin.join(", ")} } from "${specifier(from, pluginPath, ext)}";`,
            ...(protecting ? [`import { ${session.join(", ")} } from "${specifier(from, sessionPath, ext)}";`] : []),
          ],
          mount: [
            `// Auth.js's routes (signin, signout, session, callback/<provider>...) under ${basePath}.`,
            "$app.register(authRoutes);",
            ...protect,
          ].join("\n"),
          marker: "authRoutes",
        }),
        where: "src/server.ts, or the file your dev script runs",
        fallback: posix.join(posix.dirname(request.configPath), "server.ts"),
      },
      wiring,
    );
    return wiring;
  },
  doctor: {
    ownServer: (facts) =>
      /\bnode\b/.test(facts.packageJson.scripts.start ?? "") ? "a Node server (Fastify)" : containerFile(facts),
    load: () => import("./doctor.js").then((m) => m.fastifyDoctor),
  },
});
