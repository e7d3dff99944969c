/**
 * The upgrade's first steps: the config itself (v5's NextAuth(), its own
 * session calls, v4's names), then the route v5 serves its endpoints from.
 */
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { clientAddressFile } from "../../frameworks/client-address.js";
import { readIfExists } from "../../workspace/plan.js";
import { routeFile } from "./generated.js";
import { merge, show, specifierFor, type UpgradeStep } from "./upgrade-state.js";

export const configStep: UpgradeStep = {
  name: "the config: v5's NextAuth(), the calls it makes of itself, v4's names, moved out of a pages route",
  run(upgrade) {
    const { oldConfig, newConfig, compatPath, ext, configText } = upgrade;
    const { editConfig } = upgrade.edits.config;
    const { rewriteServerCalls } = upgrade.edits.serverCalls;
    const edited = editConfig({
      text: configText,
      fileName: newConfig,
      compatModule: specifierFor(newConfig, compatPath, ext),
      moveImport:
        newConfig === oldConfig
          ? undefined
          : (specifier) => specifierFor(newConfig, resolve(dirname(oldConfig), specifier), "").replace(/\/index$/, ""),
    });
    if (edited.status === "refused") return edited.reason;
    upgrade.manual.push(...edited.manual);
    upgrade.config = edited;
    const selfCalls = rewriteServerCalls({
      text: edited.text,
      fileName: newConfig,
      authModule: "",
      compatModule: specifierFor(newConfig, compatPath, ext),
      isConfigModule: () => false,
    });
    upgrade.manual.push(...selfCalls.manual);
    upgrade.configAfter = upgrade.edits.project.renameInCode(selfCalls.text, newConfig);
    if (newConfig === oldConfig) merge(upgrade, oldConfig, upgrade.configAfter);
    else upgrade.parts.push({ files: [{ path: newConfig, contents: upgrade.configAfter }] }, { removed: [oldConfig] });
    return undefined;
  },
};

export const routeStep: UpgradeStep = {
  name: "the route: v5's handlers under app/ (Pages Router apps too), handed the client's address",
  async run(upgrade) {
    const { root, pagesRoute, appRoute, oldConfig, newConfig, ext } = upgrade;
    const { isBoilerplateRoute } = upgrade.edits.runtime;
    const appDir = existsSync(join(root, "app")) ? "app" : upgrade.srcLayout ? "src/app" : "app";
    const routeExt = upgrade.typescript || existsSync(join(root, "tsconfig.json")) ? "ts" : "js";
    const newRoute = appRoute ?? join(root, appDir, "api/auth/[...nextauth]", `route.${routeExt}`);
    const semicolon = /;\r?\n/.test(upgrade.configText) ? ";" : "";
    const doesMore = (route: string) =>
      `${show(upgrade, route)} does more than hand the options to NextAuth(); move what else it does, then run upgrade again.`;
    if (pagesRoute && pagesRoute !== oldConfig) {
      if (!isBoilerplateRoute(readIfExists(pagesRoute) ?? "", pagesRoute)) return doesMore(pagesRoute);
      upgrade.parts.push({ removed: [pagesRoute] });
    }
    if (appRoute && !isBoilerplateRoute(readIfExists(appRoute) ?? "", appRoute)) return doesMore(appRoute);
    // The route passes the client's address, as init's does: the module that carries it goes where init puts it,
    // beside create-auth's adapter when the app has one, else beside the config (in auth/ when that is the app's
    // root or src/), and is kept when it is there already, in either language.
    const adapterDir = ["auth", "src/auth"].find((d) => existsSync(join(root, d, "adapter.ts")));
    const configDir = dirname(newConfig);
    const besideConfig = [root, join(root, "src")].includes(configDir) ? join(configDir, "auth") : configDir;
    const addressModule = adapterDir
      ? join(root, adapterDir, "client-address.ts")
      : join(besideConfig, `client-address.${routeExt}`);
    const other = addressModule.endsWith(".ts")
      ? addressModule.replace(/\.ts$/, ".js")
      : addressModule.replace(/\.js$/, ".ts");
    if (!existsSync(other)) {
      const module = await clientAddressFile("auth");
      const { stripTypes } = await import("../../ast/strip-types.js");
      const contents = addressModule.endsWith(".js") ? stripTypes(module.contents) : module.contents;
      upgrade.parts.push({ ifMissing: [{ path: addressModule, contents }] });
    }
    merge(
      upgrade,
      newRoute,
      routeFile(
        { auth: specifierFor(newRoute, newConfig, ext), clientAddress: specifierFor(newRoute, addressModule, ext) },
        semicolon,
        newRoute.endsWith(".ts"),
      ),
    );
    return undefined;
  },
};
