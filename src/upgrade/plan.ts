/**
 * The whole next-auth v4 → v5 upgrade as one plan: every file it would
 * write, create or remove, with what it cannot do safely as manual steps.
 * Nothing here writes; `create-auth upgrade` applies the plan (or prints it
 * with --dry-run) and installs.
 */
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { clientAddressFile } from "../frameworks/client-address.js";
import { isEnvFile } from "../render/env-file.js";
import { readAliases, resolveSpecifier } from "../workspace/auth-setup/aliases.js";
import type { AuthSetup } from "../workspace/auth-setup/index.js";
import { listSourceFiles } from "../workspace/auth-setup/walk.js";
import { detectPackageVersion } from "../workspace/package-version.js";
import { type FileChange, readIfExists } from "../workspace/plan.js";
import { importExtension } from "../workspace/project.js";
import { securePackages } from "../workspace/secure-packages.js";
import { compatModule, routeFile } from "./generated.js";
import { planPackages } from "./packages.js";

export const migrationGuide = "https://authjs.dev/getting-started/migrating-to-v5";

export type UpgradePlan =
  | {
      status: "planned";
      root: string;
      changes: FileChange[];
      /** What the upgrade could not do safely, one line each. */
      manual: string[];
      /** What it did that the user should know (sessions kept, names renamed). */
      notes: string[];
      packageJsonChanged: boolean;
    }
  | { status: "current"; root: string; reason: string }
  | { status: "refused"; root: string; reason: string };

/** `import x from "<this>"` from `from` to `file`: relative, POSIX, no .ts, `.js` under node16 resolution. */
function specifierFor(from: string, file: string, extension: string): string {
  const rel = relative(dirname(from), file)
    .split("\\")
    .join("/")
    .replace(/\.(?:[cm]?[jt]s|[jt]sx)$/, "");
  return `${rel.startsWith(".") ? rel : `./${rel}`}${extension}`;
}

function firstExisting(root: string, names: string[]): string | undefined {
  return names.map((n) => join(root, n)).find((p) => existsSync(p) && statSync(p).isFile());
}

/** Next.js's version (major.minor) from the project, for what its middleware can run on. */
function nextVersion(root: string): { major: number; minor: number } | undefined {
  const found = detectPackageVersion(root, "next");
  const match = found && /(\d+)\.(\d+)/.exec(found.version);
  return match
    ? { major: Number(match[1]), minor: Number(match[2]) }
    : found?.major
      ? { major: found.major, minor: 0 }
      : undefined;
}

export async function planUpgrade(start: string, config?: string): Promise<UpgradePlan> {
  // The edits bring the parser: loaded here, when an upgrade is planned, not when the CLI starts.
  const [
    { editConfig },
    { editMiddleware },
    { addRuntime, isBoilerplateRoute, nodeOnlyPackages },
    { addTranspilePackage, envRenames, newNextConfig, renameEnv, renameInCode },
    { rewriteServerCalls },
  ] = await Promise.all([
    import("../ast/upgrade/config-edit.js"),
    import("../ast/upgrade/middleware-edit.js"),
    import("../ast/upgrade/middleware-runtime.js"),
    import("../ast/upgrade/project-edits.js"),
    import("../ast/upgrade/server-calls.js"),
  ]);
  const { findAuthSetup } = await import("../ast/setup/find.js");
  const setup: AuthSetup = await findAuthSetup(start, { config });
  const { root } = setup;
  const version = detectPackageVersion(root, "next-auth");
  if (!version)
    return { status: "refused", root, reason: `${root} does not depend on next-auth: there is nothing to upgrade.` };
  if (setup.kind !== "v4-options") {
    const already = setup.kind === "v5-call" || setup.kind === "v5-split";
    return already
      ? {
          status: "current",
          root,
          reason: `The auth config (${relative(start, setup.configFile) || setup.configFile}) is next-auth v5's already: nothing to upgrade.`,
        }
      : {
          status: "refused",
          root,
          reason: `${relative(start, setup.configFile)} is not a next-auth config (it uses another framework's Auth.js).`,
        };
  }

  const changes: FileChange[] = [];
  const manual: string[] = [];
  const notes: string[] = [];
  const show = (file: string) => relative(root, file) || file;
  const ext = importExtension(root);
  const write = (path: string, after: string) => {
    const before = readIfExists(path);
    if (before !== after) changes.push({ path, before, after });
  };
  const refuse = (reason: string): UpgradePlan => ({ status: "refused", root, reason });

  // Where the config goes: in place, or out of the pages route (a file under pages/ is a route, not a module).
  const oldConfig = setup.configFile;
  const pagesRoute = setup.routeFile && /(?:^|\/)pages\//.test(show(setup.routeFile)) ? setup.routeFile : undefined;
  const appRoute = setup.routeFile && !pagesRoute ? setup.routeFile : undefined;
  const typescript = /\.[cm]?tsx?$/.test(oldConfig);
  const srcLayout = existsSync(join(root, "src/app")) || existsSync(join(root, "src/pages"));
  let newConfig = oldConfig;
  if (oldConfig === pagesRoute) {
    newConfig = join(root, srcLayout ? "src" : "", `auth${typescript ? ".ts" : ".js"}`);
    if (existsSync(newConfig))
      return refuse(
        `${show(newConfig)} exists already, where the config moves out of ${show(oldConfig)}; rename one of them first.`,
      );
  }
  const compatPath = join(dirname(newConfig), `auth-v4-compat${typescript ? ".ts" : ".js"}`);
  const configText = readIfExists(oldConfig) ?? "";
  const edited = editConfig({
    text: configText,
    fileName: newConfig,
    compatModule: specifierFor(newConfig, compatPath, ext),
    moveImport:
      newConfig === oldConfig
        ? undefined
        : (specifier) => specifierFor(newConfig, resolve(dirname(oldConfig), specifier), "").replace(/\/index$/, ""),
  });
  if (edited.status === "refused") return refuse(edited.reason);
  manual.push(...edited.manual);
  const selfCalls = rewriteServerCalls({
    text: edited.text,
    fileName: newConfig,
    authModule: "",
    compatModule: specifierFor(newConfig, compatPath, ext),
    isConfigModule: () => false,
  });
  manual.push(...selfCalls.manual);
  const configAfter = renameInCode(selfCalls.text, newConfig);
  if (newConfig === oldConfig) write(oldConfig, configAfter);
  else {
    changes.push({ path: newConfig, before: null, after: configAfter });
    changes.push({ path: oldConfig, before: configText, after: "", remove: true });
  }

  // The route: v5 serves its endpoints from the App Router, Pages Router apps included.
  const appDir = existsSync(join(root, "app")) ? "app" : srcLayout ? "src/app" : "app";
  const routeExt = typescript || existsSync(join(root, "tsconfig.json")) ? "ts" : "js";
  const newRoute = appRoute ?? join(root, appDir, "api/auth/[...nextauth]", `route.${routeExt}`);
  const semicolon = /;\r?\n/.test(configText) ? ";" : "";
  if (pagesRoute && pagesRoute !== oldConfig) {
    const text = readIfExists(pagesRoute) ?? "";
    if (!isBoilerplateRoute(text, pagesRoute))
      return refuse(
        `${show(pagesRoute)} does more than hand the options to NextAuth(); move what else it does, then run upgrade again.`,
      );
    changes.push({ path: pagesRoute, before: text, after: "", remove: true });
  }
  if (appRoute && !isBoilerplateRoute(readIfExists(appRoute) ?? "", appRoute))
    return refuse(
      `${show(appRoute)} does more than hand the options to NextAuth(); move what else it does, then run upgrade again.`,
    );
  // The route passes the client's address, as init's does: the module that carries it goes where init puts it,
  // beside create-auth's adapter when the app has one, else beside the config (in auth/ when that is the app's
  // root or src/), and is kept when it is there already.
  const adapterDir = ["auth", "src/auth"].find((d) => existsSync(join(root, d, "adapter.ts")));
  const configDir = dirname(newConfig);
  const besideConfig = [root, join(root, "src")].includes(configDir) ? join(configDir, "auth") : configDir;
  const addressModule = adapterDir
    ? join(root, adapterDir, "client-address.ts")
    : join(besideConfig, `client-address.${routeExt}`);
  if (!existsSync(addressModule.replace(/\.[jt]s$/, ".ts")) && !existsSync(addressModule.replace(/\.[jt]s$/, ".js"))) {
    const module = await clientAddressFile("auth");
    const { stripTypes } = await import("../ast/strip-types.js");
    write(addressModule, addressModule.endsWith(".js") ? stripTypes(module.contents) : module.contents);
  }
  write(
    newRoute,
    routeFile(
      { auth: specifierFor(newRoute, newConfig, ext), clientAddress: specifierFor(newRoute, addressModule, ext) },
      semicolon,
      newRoute.endsWith(".ts"),
    ),
  );

  // Every other module of the package: session calls, the adapters' packages, NEXTAUTH_ names in code.
  const aliases = readAliases(root);
  const isOldConfig = (from: string) => (specifier: string) => {
    const target = resolveSpecifier(aliases, from, specifier);
    return target === oldConfig || target === pagesRoute;
  };
  const middlewareFile = firstExisting(root, [
    "middleware.ts",
    "middleware.js",
    "src/middleware.ts",
    "src/middleware.js",
  ]);
  const handled = new Set([oldConfig, newConfig, pagesRoute, appRoute, middlewareFile, compatPath].filter(Boolean));
  let csrfUsed = false;
  const pagesImportAuth: string[] = [];
  for (const file of listSourceFiles(root).files) {
    if (handled.has(file)) continue;
    const text = readIfExists(file);
    if (text === null || !/next-auth|NEXTAUTH_/.test(text)) continue;
    const rel = show(file);
    const calls = rewriteServerCalls({
      text,
      fileName: rel,
      authModule: specifierFor(file, newConfig, ext),
      compatModule: specifierFor(file, compatPath, ext),
      isConfigModule: isOldConfig(file),
    });
    manual.push(...calls.manual);
    const after = renameInCode(calls.text, file);
    csrfUsed ||= after.includes("getServerCsrfToken") && !text.includes("getServerCsrfToken");
    if (/^(?:src\/)?pages\//.test(rel) && (/["']next-auth/.test(after) || calls.changed)) pagesImportAuth.push(rel);
    for (const old of ["next-auth/next", "next-auth/middleware"])
      if (after.includes(`"${old}"`) || after.includes(`'${old}'`))
        manual.push(`${rel}: still imports ${old}, which next-auth 5 no longer has.`);
    write(file, after);
  }

  // The middleware: withAuth's protection, in v5's terms.
  if (middlewareFile) {
    const text = readIfExists(middlewareFile) ?? "";
    const result = editMiddleware({
      text,
      fileName: show(middlewareFile),
      authModule: specifierFor(middlewareFile, newConfig, ext),
    });
    if (result.status === "refused") manual.push(result.reason);
    else if (result.status === "edited") {
      let after = renameInCode(result.text, middlewareFile);
      // The middleware now loads the config: Node-only code in it needs Node's runtime (Next.js 15.5 and later).
      const nodeOnly = nodeOnlyPackages(root, oldConfig);
      if (nodeOnly.length) {
        const next = nextVersion(root);
        if (next && (next.major > 15 || (next.major === 15 && next.minor >= 5))) {
          const withRuntime = addRuntime(after, show(middlewareFile));
          if (withRuntime) {
            after = withRuntime;
            notes.push(
              `${show(middlewareFile)} runs on Node.js now: the config it loads uses ${nodeOnly.join(", ")}, which the edge runtime cannot run.`,
            );
          } else
            manual.push(
              `${show(middlewareFile)}: set \`runtime: "nodejs"\` in its config export (the auth config uses ${nodeOnly.join(", ")}).`,
            );
        } else
          manual.push(
            `${show(middlewareFile)}: the auth config uses ${nodeOnly.join(", ")}, which the edge runtime cannot run: split the config (an auth.config.ts without them for the middleware), or move to Next.js 15.5 or later and set runtime: "nodejs".`,
          );
      }
      write(middlewareFile, after);
    }
  }

  // next.config: Pages Router server code that imports next-auth 5 needs it compiled by Next.js.
  if (pagesImportAuth.length) {
    const nextConfig = firstExisting(root, ["next.config.ts", "next.config.mjs", "next.config.js", "next.config.cjs"]);
    if (!nextConfig) write(join(root, "next.config.mjs"), newNextConfig);
    else {
      const after = addTranspilePackage(readIfExists(nextConfig) ?? "", show(nextConfig));
      if (after === undefined)
        manual.push(
          `${show(nextConfig)}: add transpilePackages: ["next-auth"] (Pages Router code imports next-auth 5).`,
        );
      else write(nextConfig, after);
    }
  }

  // The compatibility module: v4's cookie name and JWT decoder, and the server CSRF helper.
  if (edited.cookieKept || csrfUsed)
    write(compatPath, compatModule(typescript, { csrf: csrfUsed, jwtSecret: configAfter.includes("jwtWithSecret(") }));
  if (edited.strategy === "database" && edited.cookieKept)
    notes.push(
      "Signed-in users stay signed in: the session cookie keeps next-auth v4's name, so their database sessions are read.",
    );
  if (edited.decoderAdded)
    notes.push(
      `Signed-in users stay signed in: the session cookie keeps v4's name and ${show(compatPath)} reads v4's session tokens (v5 re-issues each in its own format on the next request).`,
    );

  // Env files: v4's names renamed, values kept; the host is trusted as v4 trusted NEXTAUTH_URL.
  const renamedAnywhere = new Set<string>();
  for (const name of readdirSync(root)
    .filter((n) => isEnvFile(n))
    .sort()) {
    const path = join(root, name);
    if (!statSync(path).isFile()) continue;
    const before = readIfExists(path) ?? "";
    const { text, renamed, kept } = renameEnv(before);
    for (const r of renamed) renamedAnywhere.add(r);
    for (const k of kept)
      manual.push(
        `${name}: ${k} and ${envRenames[k]} are both set; v5 reads ${envRenames[k]} only, so remove ${k} once they agree.`,
      );
    write(path, text);
  }
  if (renamedAnywhere.size)
    notes.push(
      `Renamed ${[...renamedAnywhere].map((n) => `${n} to ${envRenames[n]}`).join(" and ")} in the env files, values kept.`,
    );
  for (const [from, to] of Object.entries(envRenames)) {
    if (!renamedAnywhere.has(from))
      manual.push(
        from === "NEXTAUTH_URL"
          ? `Where your deployment sets NEXTAUTH_URL, rename it to AUTH_URL: v5 trusts the request's host only from AUTH_URL (or AUTH_TRUST_HOST), never from NEXTAUTH_URL.`
          : `Where your deployment sets ${from}, rename it to ${to}.`,
      );
  }

  // package.json: next-auth 5 and the adapters' new packages, at versions whose peers the project has, in one install.
  const pkgPath = join(root, "package.json");
  const pkgBefore = readIfExists(pkgPath) ?? "";
  const pkg = await planPackages(root, pkgBefore);
  if (pkg.status === "refused") return refuse(pkg.reason);
  for (const name of pkg.unknown)
    manual.push(`package.json: ${name} has no @auth/* successor create-auth knows; see ${migrationGuide}#adapters`);
  notes.push(...pkg.notes);
  // The project's other Auth.js entries, and what its packages pin, at versions without a known advisory.
  const secured = securePackages({ root, text: pkg.text });
  notes.push(...secured.notices);
  write(pkgPath, secured.text);
  if (secured.workspace) write(secured.workspace.path, secured.workspace.after);

  return { status: "planned", root, changes, manual, notes, packageJsonChanged: secured.text !== pkgBefore };
}

/** For tests and messages: the files of a plan relative to its root, and what happens to each. */
export function describeChanges(root: string, changes: FileChange[]): string[] {
  return changes.map(
    (c) => `${c.remove ? "removed" : c.before === null ? "created" : "updated"} ${relative(root, c.path)}`,
  );
}
