/** doctor for SvelteKit: whether src/hooks.server exports Auth.js's handle. */
import { existsSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { defineCheck } from "../../doctor-model/finding.js";
import type { WiringDoctor } from "../framework.js";
import { scriptExtensions } from "../wiring-files.js";
import { libModule } from "./lib-module.js";

interface SvelteKitWiring {
  hooks?: { file: string; exportsHandle: boolean };
}

const handleMissing = defineCheck(
  "sveltekit.handle-missing",
  "error",
  "SvelteKit: src/hooks.server.ts does not export Auth.js's handle.",
);

const isFile = (path: string) => existsSync(path) && statSync(path).isFile();

export const sveltekitDoctor: WiringDoctor = {
  checks: [handleMissing],
  read({ root, configPath, reader }) {
    const path = scriptExtensions.map((e) => join(root, `src/hooks.server.${e}`)).find(isFile);
    if (!path) return {};
    const handle = reader.exported(path, "handle");
    const reach = reader.reach(path);
    // The handle is Auth.js's when the hooks reach the auth config or @auth/sveltekit.
    const reachesAuth = reach.files.includes(configPath) || reach.packages.includes("@auth/sveltekit");
    return { hooks: { file: relative(root, path), exportsHandle: handle !== undefined && reachesAuth } };
  },
  run(facts) {
    const { hooks } = facts.wiring as SvelteKitWiring;
    if (hooks?.exportsHandle) return [];
    const module = facts.config.file.startsWith("src/lib/") ? libModule(facts.config.file) : "./auth";
    return [
      handleMissing.report(
        hooks
          ? `${hooks.file} does not export Auth.js's handle, so no request reaches Auth.js (its routes 404).`
          : "There is no src/hooks.server.ts, so no request reaches Auth.js (its routes 404).",
        `In src/hooks.server.ts: export { handle } from "${module}" (with sequence() from @sveltejs/kit/hooks beside a handle of your own). https://authjs.dev/getting-started/installation?framework=sveltekit`,
        hooks?.file,
      ),
    ];
  },
};
