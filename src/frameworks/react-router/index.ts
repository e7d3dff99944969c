/**
 * React Router 7 and 8 in framework mode (@react-router/dev): the generic
 * wiring as a resource route (app/routes/api.auth.$.ts: loader and action
 * hand the Request to Auth.js) registered in app/routes.ts, everything of
 * Auth.js under app/.server/ (never in the browser's bundle), the env files
 * loaded by the auth module itself (react-router-serve and `react-router
 * dev` put none into process.env), and with --protect a loader in
 * app/root.tsx that sends visitors who are not signed in to sign in.
 */
import { posix } from "node:path";
import { containerFile } from "../../doctor-model/facts.js";
import { specifier } from "../../render/modules.js";
import { renderTemplate } from "../../render/templates.js";
import { defineFramework, type FrameworkPart } from "../framework.js";
import { twoFactorRoute } from "../two-factor-route.js";
import { webStandardPart } from "../web-standard.js";
import { type ReactRouterFacts, reactRouterFacts } from "./facts.js";

const basePath = "/api/auth";
const routePath = "api/auth/*";

export const reactRouter = defineFramework<ReactRouterFacts>({
  id: "react-router",
  title: "React Router",
  facts: reactRouterFacts,
  shownBy: {
    packages: ["@react-router/dev", "@react-router/serve", "@react-router/node"],
    config: "react-router.config",
  },
  // React Router 8 (npm's latest) needs Node.js 22.22; 7 runs on 20.
  minimumNodeFor: (f) => ((f.major ?? 8) >= 8 ? "22.22" : undefined),
  app: { port: 5173 },
  basePath,
  envOrder: "vite",
  // Under app/.server/: React Router refuses to put a .server module in the browser's bundle.
  layout: (f) => ({ configPath: `${f.appDir}/.server/auth.ts`, authDir: `${f.appDir}/.server/auth` }),
  async plan(request) {
    const { appDir, routesFile, rootFile } = request.facts;
    const sessionPath = `${request.authDir}/session.ts`;
    const loadEnvPath = `${request.authDir}/load-env.ts`;
    const route = `${appDir}/routes/api.auth.$.ts`;
    const ext = request.importExtension;
    const wiring = await webStandardPart(request, {
      title: "React Router",
      basePath,
      envOrder: "vite",
      sessionPath,
      loadEnvPath,
      header: [
        `React Router: the resource route ${route} hands requests under ${basePath} to Auth.js;`,
        `getSession(request) from ${sessionPath} reads the session in a loader or action.`,
        "https://authjs.dev/reference/core",
      ],
    });
    wiring.config.first = [
      "// First: the env files into process.env (React Router's servers load none), before the modules below read it.",
      `import "${specifier(request.configPath, loadEnvPath, ext)}";`,
    ];
    wiring.files.push({
      path: route,
      contents: await renderTemplate("frameworks/react-router/route.ts.hbs", {
        basePath,
        sessionModule: specifier(route, sessionPath, ext),
      }),
    });
    const routes = [{ path: routePath, file: route }];
    // Two-factor: a resource route for /two-factor and every path below it (a splat matches none too).
    const twoFactor = await twoFactorRoute(request, `${appDir}/routes/two-factor.$.ts`, "frameworks/react-router");
    wiring.files.push(...twoFactor);
    for (const file of twoFactor) routes.push({ path: "two-factor/*", file: file.path });
    await registerInRoutes(wiring, routesFile, appDir, routes);
    if (request.protect?.length)
      await protectInRoot(wiring, request.protect, rootFile, appDir, request.authDir, sessionPath, ext);
    return wiring;
  },
  doctor: {
    ownServer: (facts) =>
      /\breact-router-serve\b|\bnode\b/.test(facts.packageJson.scripts.start ?? "")
        ? "react-router-serve (package.json's start script)"
        : containerFile(facts),
    load: () => import("./doctor.js").then((m) => m.reactRouterDoctor),
  },
});

/** The routes in app/routes.ts, one after the other (a file-system routes app finds them by their names). */
async function registerInRoutes(
  wiring: FrameworkPart,
  routesFile: ReactRouterFacts["routesFile"],
  appDir: string,
  routes: { path: string; file: string }[],
) {
  const { registerRoute } = await import("../../ast/react-router-app.js");
  let text = routesFile?.text;
  for (const { path, file: route } of routes) {
    const file = posix.relative(appDir, route);
    const what = path === routePath ? "the auth route" : "the route";
    const line = `route("${path}", "${file}") in the array of ${routesFile?.path ?? `${appDir}/routes.ts`}`;
    if (!routesFile || text === undefined) {
      wiring.steps.push(`No ${appDir}/routes.ts was found; register ${what} there: ${line}.`);
      continue;
    }
    const edit = registerRoute(text, path, file, routesFile.path);
    if (edit.status === "edited") text = edit.text;
    else if (edit.status === "refused")
      wiring.steps.push(`${routesFile.path} was left alone (${edit.reason}); register ${what} there: ${line}.`);
  }
  if (routesFile && text !== undefined && text !== routesFile.text)
    wiring.edits.push({ path: routesFile.path, contents: text });
}

/** app/.server/auth/protect.ts, called by a loader added to app/root.tsx. */
async function protectInRoot(
  wiring: FrameworkPart,
  protect: string[],
  rootFile: ReactRouterFacts["rootFile"],
  appDir: string,
  authDir: string,
  sessionPath: string,
  ext: "" | ".js",
) {
  const protectPath = `${authDir}/protect.ts`;
  wiring.files.push({
    path: protectPath,
    contents: await renderTemplate("frameworks/react-router/protect.ts.hbs", {
      sessionModule: specifier(protectPath, sessionPath, ext),
    }),
  });
  const root = rootFile?.path ?? `${appDir}/root.tsx`;
  const importLine = `import { protectPages } from "${specifier(root, protectPath, ext)}";`;
  const loader = [
    `// Visitors who are not signed in are sent to sign in first on: ${protect.join(", ")} (the list is in ${sessionPath}).`,
    // url: the page's, where request.url is that of the data request (/dashboard.data) on a client-side navigation.
    "export const loader = ({ request, url }: { request: Request; url: URL }) => protectPages(request, url);",
  ].join("\n");
  const manual = `${importLine}\n    and in its loader: await protectPages(request, url);`;
  if (!rootFile) {
    wiring.steps.push(`No ${root} was found; in the root route module, add:\n    ${manual}`);
    return;
  }
  const { addRootLoader } = await import("../../ast/react-router-app.js");
  const edit = addRootLoader(rootFile.text, importLine, loader, rootFile.path);
  if (edit.status === "edited") wiring.edits.push({ path: rootFile.path, contents: edit.text });
  else if (edit.status === "refused")
    wiring.steps.push(`${rootFile.path} was left alone (${edit.reason}); in it, add:\n    ${manual}`);
  wiring.steps.push(
    `${root}'s loader sends visitors who are not signed in to the sign-in page on: ${protect.join(", ")}`,
  );
}
