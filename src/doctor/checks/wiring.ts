/** Framework wiring: Next.js's route handler and edge middleware, SvelteKit's hooks, Express's mount. */
import { mountPath, type ProjectFacts } from "../facts.js";
import { type CheckGroup, defineCheck, type Finding } from "../finding.js";
import { authUrl } from "./names.js";

const routeMissing = defineCheck(
  "next.route-missing",
  "error",
  "Next.js: no route handler serves Auth.js (app/api/auth/[...nextauth]/route.ts).",
);
const routeMismatch = defineCheck(
  "next.route-mismatch",
  "error",
  "Next.js: the route handler is at another path than Auth.js's mount.",
);
const edgeNode = defineCheck(
  "middleware.edge-node",
  "error",
  "Next.js middleware on the edge runtime imports a config whose adapter needs Node.js (a database driver).",
);
const handleMissing = defineCheck(
  "sveltekit.handle-missing",
  "error",
  "SvelteKit: src/hooks.server.ts does not export Auth.js's handle.",
);
const mountMissing = defineCheck(
  "express.mount-missing",
  "warning",
  "Express: no app.use(<path>, ExpressAuth(...)) was found.",
);
const mountMismatch = defineCheck(
  "express.mount-mismatch",
  "error",
  "Express: Auth.js is mounted at another path than AUTH_URL's.",
);

/** Packages that need Node.js and cannot load on the edge runtime. */
const nodeOnlyPackages = [
  "better-sqlite3",
  "sqlite3",
  "pg",
  "mysql2",
  "mysql",
  "mongodb",
  "mongoose",
  "typeorm",
  "nodemailer",
  "bcrypt",
  "argon2",
  "node:fs",
  "fs",
  "node:child_process",
  "child_process",
];

function nextFindings(facts: ProjectFacts): Finding[] {
  const found: Finding[] = [];
  const mount = mountPath(facts);
  const routes = facts.wiring.nextRoutes;
  if (routes.length === 0)
    found.push(
      routeMissing.report(
        `No route handler serves Auth.js: requests to ${mount} get Next.js's 404.`,
        `Create ${facts.wiring.appDir}${mount}/[...nextauth]/route.ts with: export const { GET, POST } = handlers (imported from ${facts.config.file}). https://authjs.dev/getting-started/installation?framework=next.js`,
      ),
    );
  else if (!routes.some((r) => r.path === mount))
    found.push(
      routeMismatch.report(
        `The route handler ${routes[0]!.file} serves ${routes[0]!.path}, but Auth.js answers at ${mount}: sign-in links 404 or fail with UnknownAction.`,
        `Move it to ${facts.wiring.appDir}${mount}/[...nextauth]/route.ts, or set basePath: "${routes[0]!.path}" in the auth config.`,
        routes[0]!.file,
      ),
    );
  for (const file of facts.wiring.middleware) {
    const drivers = file.packages.filter((p) => nodeOnlyPackages.includes(p));
    if (file.runtime !== "edge" || drivers.length === 0) continue;
    found.push(
      edgeNode.report(
        `${file.file} runs on the edge runtime and imports ${drivers.join(", ")}${file.importsConfig ? " through the auth config" : ""}, which needs Node.js: the middleware fails to build or crashes.`,
        `Split the config: auth.config.ts without the adapter for the middleware, auth.ts adding it (https://authjs.dev/guides/edge-compatibility), or on Next.js 15.5+ add runtime: "nodejs" to the middleware's config.`,
        file.file,
      ),
    );
  }
  return found;
}

function sveltekitFindings(facts: ProjectFacts): Finding[] {
  const hooks = facts.wiring.hooks;
  if (hooks?.exportsHandle) return [];
  return [
    handleMissing.report(
      hooks
        ? `${hooks.file} does not export Auth.js's handle, so no request reaches Auth.js (its routes 404).`
        : "There is no src/hooks.server.ts, so no request reaches Auth.js (its routes 404).",
      `In src/hooks.server.ts: export { handle } from "${facts.config.file.startsWith("src/lib/") ? `$lib/${facts.config.file.slice(8).replace(/\.ts$/, "")}` : "./auth"}" (with sequence() from @sveltejs/kit/hooks beside a handle of your own). https://authjs.dev/getting-started/installation?framework=sveltekit`,
      hooks?.file,
    ),
  ];
}

function expressFindings(facts: ProjectFacts): Finding[] {
  const mounts = facts.wiring.expressMounts;
  if (mounts.length === 0)
    return [
      mountMissing.report(
        "No app.use(<path>, ExpressAuth(config)) was found in the server files at the top of the project or in src/, so the mount path could not be checked.",
        'Mount it: app.use("/auth", ExpressAuth(authConfig)). https://authjs.dev/getting-started/installation?framework=express',
      ),
    ];
  const url = authUrl(facts);
  if (!url || !URL.canParse(url.value)) return [];
  const path = new URL(url.value).pathname.replace(/\/+$/, "");
  const mount = mounts[0]!;
  if (path === "" || path === mount.path.replace(/\/+$/, "")) return [];
  return [
    mountMismatch.report(
      `Auth.js is mounted at ${mount.path} in ${mount.file}, but ${url.name}'s path is ${path}: its routes answer UnknownAction.`,
      `Set ${url.name} to ${new URL(url.value).origin} (or ${new URL(url.value).origin}${mount.path}), or mount Auth.js at ${path}.`,
      mount.file,
    ),
  ];
}

export const wiringChecks: CheckGroup = {
  checks: [routeMissing, routeMismatch, edgeNode, handleMissing, mountMissing, mountMismatch],
  run: (facts) =>
    facts.framework === "next"
      ? nextFindings(facts)
      : facts.framework === "sveltekit"
        ? sveltekitFindings(facts)
        : facts.framework === "express"
          ? expressFindings(facts)
          : [],
};
