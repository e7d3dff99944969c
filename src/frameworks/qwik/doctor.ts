/** doctor for Qwik City: the plugin that runs Auth.js on every request (src/routes/plugin@auth.ts). */
import { defineCheck } from "../../doctor-model/finding.js";
import { existingEntry, type WiringDoctor } from "../framework.js";

const pluginMissing = defineCheck(
  "qwik.plugin-missing",
  "error",
  "Qwik City: no src/routes/plugin@auth.ts exports QwikAuth$'s onRequest.",
);

export const qwikDoctor: WiringDoctor = {
  checks: [pluginMissing],
  read({ project }) {
    const plugin = existingEntry(project, "src/routes/plugin@auth");
    const text = plugin ? (project.read(plugin) ?? "") : "";
    return { plugin, runsAuth: /\bQwikAuth\$\(/.test(text) && /\bonRequest\b/.test(text) };
  },
  run(facts) {
    if (facts.wiring.runsAuth) return [];
    const plugin = facts.wiring.plugin as string | undefined;
    return [
      pluginMissing.report(
        `${plugin ?? "src/routes/plugin@auth.ts"} ${plugin ? "does not export QwikAuth$'s onRequest" : "is missing"}, so /auth/signin and every callback answer 404 and no page has a session.`,
        "In src/routes/plugin@auth.ts: export const { onRequest, useSession, useSignIn, useSignOut } = QwikAuth$(...) (from @auth/qwik), returning the auth config.",
        plugin,
      ),
    ];
  },
};
