/**
 * Hono on Node (@hono/node-server): the generic wiring, mounted in the
 * app's own entry module with app.on(["GET", "POST"], "/auth/*"), and with
 * --protect a middleware that sends visitors who are not signed in to sign
 * in. Not @hono/auth-js: it declares react as a required peer, which npm
 * would install into a server-only app.
 */
import { posix } from "node:path";
import { containerFile } from "../../doctor-model/facts.js";
import { twoFactorPath } from "../../families/two-factor.js";
import { specifier } from "../../render/modules.js";
import type { ProjectView } from "../../workspace/project-view.js";
import { defineFramework } from "../framework.js";
import { findServerEntry, mountInEntry, type ServerEntry, serverLibrary } from "../server-entry.js";
import { twoFactorImports } from "../two-factor-route.js";
import { webStandardPart } from "../web-standard.js";

export interface HonoFacts {
  entry: ServerEntry | undefined;
}

const facts = (project: ProjectView): HonoFacts => ({ entry: findServerEntry(project) });
const basePath = "/auth";

export const hono = defineFramework<HonoFacts>({
  id: "hono",
  title: "Hono",
  ...serverLibrary("hono", facts),
  async plan(request) {
    const { entry } = request.facts;
    const sessionPath = `${request.authDir}/session.ts`;
    const loadEnvPath = `${request.authDir}/load-env.ts`;
    const ext = request.importExtension;
    const wiring = await webStandardPart(request, {
      title: "Hono",
      basePath,
      envOrder: "next",
      sessionPath,
      loadEnvPath,
      header: [
        `Hono: ${entry?.path ?? "your server module"} hands requests under ${basePath} to Auth.js (handleAuth from ${sessionPath});`,
        "getSession(c.req.raw) reads the session in a handler.",
        "https://authjs.dev/reference/core",
      ],
    });
    const names = ["handleAuth", ...(request.protect?.length ? ["getSession", "isProtected", "signInUrl"] : [])];
    const protect = request.protect?.length
      ? [
          `// Visitors who are not signed in are sent to sign in first on: ${request.protect.join(", ")} (the list is in ${sessionPath}).`,
          "$app.use(async (c, next) => {",
          "  if (isProtected(c.req.path) && !(await getSession(c.req.raw))?.user) return c.redirect(signInUrl(c.req.raw));",
          "  await next();",
          "});",
        ]
      : [];
    await mountInEntry(
      entry,
      {
        creates: { name: "Hono", package: "hono", exports: ["Hono"], construct: true },
        wiring: (from) => ({
          firstImport: specifier(from, loadEnvPath, ext),
          imports: [
            'import { getConnInfo } from "@hono/node-server/conninfo";',
            `import { ${names.sort().join(", ")} } from "${specifier(from, sessionPath, ext)}";`,
            ...twoFactorImports(request, from),
          ],
          mount: [
            `// Auth.js's routes (signin, signout, session, callback/<provider>...) under ${basePath}, given the`,
            "// connection's address, which the sign-in throttle counts attempts by.",
            `$app.on(["GET", "POST"], "${basePath}/*", (c) => handleAuth(c.req.raw, getConnInfo(c).remote.address));`,
            ...(request.twoFactorPages
              ? [
                  `// The two-factor pages (enrolment, recovery codes, the sign-in's code page) under ${twoFactorPath}.`,
                  `$app.on(["GET", "POST"], ["${twoFactorPath}", "${twoFactorPath}/*"], (c) =>`,
                  "  handleTwoFactor(withClientAddress(c.req.raw, getConnInfo(c).remote.address)),",
                  ");",
                ]
              : []),
            ...protect,
          ].join("\n"),
          marker: "handleAuth(",
        }),
        where: "src/index.ts, or the file your dev script runs",
        fallback: posix.join(posix.dirname(request.configPath), "index.ts"),
      },
      wiring,
    );
    return wiring;
  },
  doctor: {
    ownServer: (facts) =>
      /\bnode\b/.test(facts.packageJson.scripts.start ?? "")
        ? "a Node server (@hono/node-server)"
        : containerFile(facts),
    load: () => import("./doctor.js").then((m) => m.honoDoctor),
  },
});
