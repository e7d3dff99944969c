/** doctor for Fastify: whether the server module registers Auth.js's routes. */
import { join } from "node:path";
import type { Node } from "@babel/types";
import { descendants, ofType, textOf } from "../../ast/nodes.js";
import { mountPath } from "../../doctor-model/facts.js";
import { defineCheck } from "../../doctor-model/finding.js";
import { authMounts } from "../doctor-mounts.js";
import type { WiringDoctor } from "../framework.js";
import { findServerEntry } from "../server-entry.js";

const mountMissing = defineCheck(
  "fastify.mount-missing",
  "error",
  "Fastify: the server module registers no Auth.js routes (app.register(authRoutes)).",
);

/** An `app.register(plugin)` whose plugin hands requests to Auth.js (create-auth's authRoutes, or one written inline). */
const registersAuth = (module: import("../../ast/project/modules.js").Module) =>
  descendants(module.file.root.program, ofType("CallExpression")).some(
    (call) =>
      call.callee.type === "MemberExpression" &&
      call.callee.property.type === "Identifier" &&
      call.callee.property.name === "register" &&
      call.arguments.some((a) => /\bauthRoutes\b|\bhandleAuth\(|\bAuth\(/.test(textOf(module.file.text, a as Node))),
  );

export const fastifyDoctor: WiringDoctor = {
  checks: [mountMissing],
  read({ root, project, reader }) {
    const entry = findServerEntry(project);
    if (!entry) return { entry: undefined };
    // The entry, then the modules it imports: the app may be created (and the plugin registered) in one of them.
    const modules = Object.keys(entry.modules).flatMap((file) => {
      const module = reader.read(join(root, file));
      return module ? [{ file, module }] : [];
    });
    for (const { file, module } of modules) {
      // A route of the user's own says where it mounts; the plugin mounts at the config's basePath.
      const [path] = authMounts(module, ["all", "get", "post", "route"], /\b(?:handleAuth|Auth)\(/);
      if (path) return { entry: entry.path, mount: { path, file } };
    }
    return { entry: entry.path, registered: modules.some(({ module }) => registersAuth(module)) };
  },
  run(facts) {
    if (facts.wiring.mount || facts.wiring.registered) return [];
    const entry = facts.wiring.entry as string | undefined;
    return [
      mountMissing.report(
        `${entry ?? "The server module"} registers no Auth.js routes, so ${mountPath(facts)}/signin and every callback answer 404.`,
        "After the app is created: app.register(authRoutes), with authRoutes from the fastify.ts module create-auth init writes beside the session module.",
        entry,
      ),
    ];
  },
};
