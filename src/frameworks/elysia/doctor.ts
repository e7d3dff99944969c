/** doctor for Elysia: where the server module hands requests to Auth.js, and whether AUTH_URL agrees. */
import { join } from "node:path";
import { mountPath } from "../../doctor/model/facts.js";
import { defineCheck } from "../../doctor/model/finding.js";
import { authMounts } from "../doctor-mounts.js";
import type { WiringDoctor } from "../framework.js";
import { findServerEntry } from "../server-entry.js";

const mountMissing = defineCheck(
  "elysia.mount-missing",
  "error",
  'Elysia: the server module hands no route to Auth.js (.all("/auth/*", ...)).',
);

export const elysiaDoctor: WiringDoctor = {
  checks: [mountMissing],
  read({ root, project, reader }) {
    const entry = findServerEntry(project);
    const module = entry ? reader.read(join(root, entry.path)) : null;
    const mounts = module
      ? authMounts(module, ["on", "all", "get", "post", "route", "mount"], /\b(?:handleAuth|Auth)\(/)
      : [];
    return { entry: entry?.path, ...(mounts[0] ? { mount: { path: mounts[0], file: entry!.path } } : {}) };
  },
  run(facts) {
    if (facts.wiring.mount) return [];
    const entry = facts.wiring.entry as string | undefined;
    return [
      mountMissing.report(
        `${entry ?? "The server module"} hands no request to Auth.js, so ${mountPath(facts)}/signin and every callback answer 404.`,
        `Right after new Elysia(...): .all("${mountPath(facts)}/*", ({ request }) => handleAuth(request), { parse: "none" }), with handleAuth from the session module create-auth init writes (or Auth(request, authConfig) from @auth/core).`,
        entry,
      ),
    ];
  },
};
