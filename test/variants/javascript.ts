/**
 * The JavaScript variant: the app written in JavaScript, as users who skip
 * TypeScript have it: its modules .js (the fixture's TypeScript transpiled
 * by TypeScript itself), no tsconfig, no TypeScript among its packages, and
 * its scripts running the modules with node as they are.
 */
import { readdirSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { editJson, read, type Variant } from "./index.js";
import { serverApps } from "./server.js";

/** The project's own modules (not its packages), project-relative. */
export function ownModules(dir: string, extension: RegExp, under = ""): string[] {
  return readdirSync(join(dir, under)).flatMap((name) => {
    const path = under ? `${under}/${name}` : name;
    if (name === "node_modules" || name.startsWith(".")) return [];
    if (statSync(join(dir, path)).isDirectory()) return ownModules(dir, extension, path);
    return extension.test(name) && !name.endsWith(".d.ts") ? [path] : [];
  });
}

export const javascript: Variant = {
  id: "javascript",
  title: "JavaScript: .js modules run by node, no tsconfig, no TypeScript",
  apps: serverApps,
  apply(project) {
    const dir = project.app;
    for (const path of ownModules(dir, /\.ts$/)) {
      const { outputText } = ts.transpileModule(read(dir, path), {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022, verbatimModuleSyntax: true },
      });
      writeFileSync(join(dir, path), outputText);
      renameSync(join(dir, path), join(dir, path.replace(/\.ts$/, ".js")));
    }
    rmSync(join(dir, "tsconfig.json"), { force: true });
    editJson<{ scripts?: Record<string, string>; devDependencies?: Record<string, string> }>(
      dir,
      "package.json",
      (pkg) => {
        for (const name of Object.keys(pkg.devDependencies ?? {}))
          if (name === "typescript" || name === "tsx" || name.startsWith("@types/")) delete pkg.devDependencies![name];
        const scripts = Object.entries(pkg.scripts ?? {}).filter(([name]) => name !== "build");
        const entry = /\S+\.ts\b/.exec(pkg.scripts?.dev ?? "")?.[0]?.replace(/\.ts$/, ".js");
        pkg.scripts = Object.fromEntries(
          scripts.map(([name, script]) => [
            name,
            name === "start" && entry ? `node ${entry}` : script.replace(/tsx watch (\S+)\.ts/, "node --watch $1.js"),
          ]),
        );
      },
    );
    return project;
  },
};
