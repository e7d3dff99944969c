/** SvelteKit: the auth module under src/lib/server, its env bridge, and src/hooks.server.ts exporting the handle. */
import { renderTemplate } from "../generators/render.js";
import { configModule, type FrameworkDefinition } from "./framework.js";

export const sveltekit: FrameworkDefinition = {
  title: "SvelteKit",
  dependencies: ["@auth/sveltekit"],
  devDependencies: [],
  port: 5173,
  basePath: "/auth",
  devCommand: "npm run dev",
  authPackage: "@auth/sveltekit",
  configType: "SvelteKitAuthConfig",
  detection: { dependency: "@sveltejs/kit", configFile: "svelte.config" },
  layout: () => ({ configPath: "src/lib/server/auth.ts", authDir: "src/lib/server/auth" }),
  async plan(request, part) {
    const hooks = "src/hooks.server.ts";
    const module = configModule(hooks, request);
    const theirs = request.facts.existing.find((f) => f.startsWith("src/hooks.server.") && f !== hooks);
    part.envPath = `${request.authDir}/env.ts`;
    part.files.push({ path: part.envPath, contents: await renderTemplate("config/sveltekit-env.ts.hbs", {}) });
    const line = `export { handle } from "${module}" (or add it with sequence() from @sveltejs/kit/hooks if the file has a handle)`;
    if (theirs) {
      part.notes.push(`${theirs} is yours and was left alone; in it: ${line}.`);
      return;
    }
    part.files.push({
      path: hooks,
      contents: await renderTemplate("frameworks/sveltekit-hooks.ts.hbs", { configModule: module }),
    });
    part.instructions[hooks] = line;
  },
};
