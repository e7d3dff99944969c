/**
 * doctor for a server library whose app hands a route to Auth.js in the
 * server module (Hono, Elysia): where it mounts, so doctor compares that with
 * AUTH_URL, and an error when no route reaches Auth.js.
 */
import { join } from "node:path";
import { mountPath } from "../doctor-model/facts.js";
import { defineCheck } from "../doctor-model/finding.js";
import { authMounts } from "./doctor-mounts.js";
import type { WiringDoctor } from "./framework.js";
import { findServerEntry } from "./server-entry.js";

export function entryMountDoctor(options: {
  id: string;
  title: string;
  /** The line init writes, as the check's meaning names it. */
  example: string;
  /** What to add to the server module, for the mount path. */
  fix(path: string): string;
}): WiringDoctor {
  const mountMissing = defineCheck(
    `${options.id}.mount-missing`,
    "error",
    `${options.title}: the server module hands no route to Auth.js (${options.example}).`,
  );
  return {
    checks: [mountMissing],
    read({ root, project, reader }) {
      const entry = findServerEntry(project);
      // The entry, then the modules it imports: the app may be created (and Auth.js mounted) in one of them.
      for (const file of Object.keys(entry?.modules ?? {})) {
        const module = reader.read(join(root, file));
        const [path] = module
          ? authMounts(module, ["on", "all", "get", "post", "route", "mount"], /\b(?:handleAuth|Auth)\(/)
          : [];
        if (path !== undefined) return { entry: entry!.path, mount: { path, file } };
      }
      return { entry: entry?.path };
    },
    run(facts) {
      if (facts.wiring.mount) return [];
      const entry = facts.wiring.entry as string | undefined;
      return [
        mountMissing.report(
          `${entry ?? "The server module"} hands no request to Auth.js, so ${mountPath(facts)}/signin and every callback answer 404.`,
          `${options.fix(mountPath(facts))}, with handleAuth from the session module create-auth init writes (or Auth(request, authConfig) from @auth/core).`,
          entry,
        ),
      ];
    },
  };
}
