/**
 * The upgrade's last steps: the module that keeps v4's users signed in,
 * the env files' v4 names, and package.json (next-auth 5, the adapters'
 * successors, the Auth.js packages raised past their advisories).
 */
import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { isEnvFile } from "../../render/env-file.js";
import { readIfExists } from "../../workspace/plan.js";
import { securePackages } from "../../workspace/secure-packages.js";
import { compatModule } from "./generated.js";
import { planPackages } from "./packages.js";
import { merge, show, type UpgradeStep } from "./upgrade-state.js";

export const migrationGuide = "https://authjs.dev/getting-started/migrating-to-v5";

export const compatStep: UpgradeStep = {
  name: "the compatibility module: v4's cookie name and JWT decoder, and the server CSRF helper",
  run(upgrade) {
    const { config, compatPath } = upgrade;
    if (config.cookieKept || upgrade.csrfUsed)
      merge(
        upgrade,
        compatPath,
        compatModule(upgrade.typescript, {
          csrf: upgrade.csrfUsed,
          jwtSecret: upgrade.configAfter.includes("jwtWithSecret("),
        }),
      );
    if (config.strategy === "database" && config.cookieKept)
      upgrade.notes.push(
        "Signed-in users stay signed in: the session cookie keeps next-auth v4's name, so their database sessions are read.",
      );
    if (config.decoderAdded)
      upgrade.notes.push(
        `Signed-in users stay signed in: the session cookie keeps v4's name and ${show(upgrade, compatPath)} reads v4's session tokens (v5 re-issues each in its own format on the next request).`,
      );
    return undefined;
  },
};

export const envStep: UpgradeStep = {
  name: "the env files: v4's names renamed, values kept; where none is set, what to rename in the deployment",
  run(upgrade) {
    const { root } = upgrade;
    const { envRenames, renameEnv } = upgrade.edits.project;
    const renamedAnywhere = new Set<string>();
    for (const name of readdirSync(root)
      .filter((n) => isEnvFile(n))
      .sort()) {
      const path = join(root, name);
      if (!statSync(path).isFile()) continue;
      const { text, renamed, kept } = renameEnv(readIfExists(path) ?? "");
      for (const r of renamed) renamedAnywhere.add(r);
      for (const k of kept)
        upgrade.manual.push(
          `${name}: ${k} and ${envRenames[k]} are both set; v5 reads ${envRenames[k]} only, so remove ${k} once they agree.`,
        );
      merge(upgrade, path, text);
    }
    if (renamedAnywhere.size)
      upgrade.notes.push(
        `Renamed ${[...renamedAnywhere].map((n) => `${n} to ${envRenames[n]}`).join(" and ")} in the env files, values kept.`,
      );
    for (const [from, to] of Object.entries(envRenames)) {
      if (!renamedAnywhere.has(from))
        upgrade.manual.push(
          from === "NEXTAUTH_URL"
            ? `Where your deployment sets NEXTAUTH_URL, rename it to AUTH_URL: v5 trusts the request's host only from AUTH_URL (or AUTH_TRUST_HOST), never from NEXTAUTH_URL.`
            : `Where your deployment sets ${from}, rename it to ${to}.`,
        );
    }
    return undefined;
  },
};

export const packagesStep: UpgradeStep = {
  name: "package.json: next-auth 5 and the adapters' new packages at versions whose peers the project has",
  async run(upgrade) {
    const { root } = upgrade;
    const pkgPath = join(root, "package.json");
    const pkgBefore = readIfExists(pkgPath) ?? "";
    const pkg = await planPackages(root, pkgBefore);
    if (pkg.status === "refused") return pkg.reason;
    for (const name of pkg.unknown)
      upgrade.manual.push(
        `package.json: ${name} has no @auth/* successor create-auth knows; see ${migrationGuide}#adapters`,
      );
    upgrade.notes.push(...pkg.notes);
    // The project's other Auth.js entries, and what its packages pin, at versions without a known advisory.
    const secured = securePackages({ root, text: pkg.text });
    upgrade.notes.push(...secured.notices);
    merge(upgrade, pkgPath, secured.text);
    if (secured.workspace) merge(upgrade, secured.workspace.path, secured.workspace.after);
    upgrade.packageJsonChanged = secured.text !== pkgBefore;
    return undefined;
  },
};
