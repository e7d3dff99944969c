/**
 * The upgrade's steps over the app's code: every module that uses
 * next-auth, the middleware, and next.config where Pages Router code now
 * imports next-auth 5.
 */
import { join } from "node:path";
import { readAliases, resolveSpecifier } from "../../workspace/auth-setup/aliases.js";
import { listSourceFiles } from "../../workspace/auth-setup/walk.js";
import { readIfExists } from "../../workspace/plan.js";
import { firstExisting, merge, nextVersion, show, specifierFor, type UpgradeStep } from "./upgrade-state.js";

export const modulesStep: UpgradeStep = {
  name: "every other module: session calls, the adapters' packages, v4's names in code",
  run(upgrade) {
    const { root, oldConfig, newConfig, pagesRoute, appRoute, compatPath, ext } = upgrade;
    const { rewriteServerCalls } = upgrade.edits.serverCalls;
    const aliases = readAliases(root);
    const isOldConfig = (from: string) => (specifier: string) => {
      const target = resolveSpecifier(aliases, from, specifier);
      return target === oldConfig || target === pagesRoute;
    };
    upgrade.middlewareFile = firstExisting(root, [
      "middleware.ts",
      "middleware.js",
      "src/middleware.ts",
      "src/middleware.js",
    ]);
    const handled = new Set(
      [oldConfig, newConfig, pagesRoute, appRoute, upgrade.middlewareFile, compatPath].filter(Boolean),
    );
    for (const file of listSourceFiles(root).files) {
      if (handled.has(file)) continue;
      const text = readIfExists(file);
      if (text === null || !/next-auth|NEXTAUTH_/.test(text)) continue;
      const rel = show(upgrade, file);
      const calls = rewriteServerCalls({
        text,
        fileName: rel,
        authModule: specifierFor(file, newConfig, ext),
        compatModule: specifierFor(file, compatPath, ext),
        isConfigModule: isOldConfig(file),
      });
      upgrade.manual.push(...calls.manual);
      const after = upgrade.edits.project.renameInCode(calls.text, file);
      upgrade.csrfUsed ||= after.includes("getServerCsrfToken") && !text.includes("getServerCsrfToken");
      if (/^(?:src\/)?pages\//.test(rel) && (/["']next-auth/.test(after) || calls.changed))
        upgrade.pagesImportAuth.push(rel);
      for (const old of ["next-auth/next", "next-auth/middleware"])
        if (after.includes(`"${old}"`) || after.includes(`'${old}'`))
          upgrade.manual.push(`${rel}: still imports ${old}, which next-auth 5 no longer has.`);
      merge(upgrade, file, after);
    }
    return undefined;
  },
};

export const middlewareStep: UpgradeStep = {
  name: "the middleware: withAuth's protection in v5's terms, on Node.js where the config needs it",
  run(upgrade) {
    const { root, middlewareFile, oldConfig } = upgrade;
    if (!middlewareFile) return undefined;
    const { addRuntime, nodeOnlyPackages } = upgrade.edits.runtime;
    const shown = show(upgrade, middlewareFile);
    const result = upgrade.edits.middleware.editMiddleware({
      text: readIfExists(middlewareFile) ?? "",
      fileName: shown,
      authModule: specifierFor(middlewareFile, upgrade.newConfig, upgrade.ext),
    });
    if (result.status === "refused") upgrade.manual.push(result.reason);
    if (result.status !== "edited") return undefined;
    let after = upgrade.edits.project.renameInCode(result.text, middlewareFile);
    // The middleware now loads the config: Node-only code in it needs Node's runtime (Next.js 15.5 and later).
    const nodeOnly = nodeOnlyPackages(root, oldConfig);
    if (nodeOnly.length) {
      const next = nextVersion(root);
      if (next && (next.major > 15 || (next.major === 15 && next.minor >= 5))) {
        const withRuntime = addRuntime(after, shown);
        if (withRuntime) {
          after = withRuntime;
          upgrade.notes.push(
            `${shown} runs on Node.js now: the config it loads uses ${nodeOnly.join(", ")}, which the edge runtime cannot run.`,
          );
        } else
          upgrade.manual.push(
            `${shown}: set \`runtime: "nodejs"\` in its config export (the auth config uses ${nodeOnly.join(", ")}).`,
          );
      } else
        upgrade.manual.push(
          `${shown}: the auth config uses ${nodeOnly.join(", ")}, which the edge runtime cannot run: split the config (an auth.config.ts without them for the middleware), or move to Next.js 15.5 or later and set runtime: "nodejs".`,
        );
    }
    merge(upgrade, middlewareFile, after);
    return undefined;
  },
};

export const nextConfigStep: UpgradeStep = {
  name: "next.config: next-auth 5 compiled by Next.js for the Pages Router code that imports it",
  run(upgrade) {
    const { root } = upgrade;
    if (!upgrade.pagesImportAuth.length) return undefined;
    const { addTranspilePackage, newNextConfig } = upgrade.edits.project;
    const nextConfig = firstExisting(root, ["next.config.ts", "next.config.mjs", "next.config.js", "next.config.cjs"]);
    if (!nextConfig) {
      merge(upgrade, join(root, "next.config.mjs"), newNextConfig);
      return undefined;
    }
    const after = addTranspilePackage(readIfExists(nextConfig) ?? "", show(upgrade, nextConfig));
    if (after === undefined)
      upgrade.manual.push(
        `${show(upgrade, nextConfig)}: add transpilePackages: ["next-auth"] (Pages Router code imports next-auth 5).`,
      );
    else merge(upgrade, nextConfig, after);
    return undefined;
  },
};
