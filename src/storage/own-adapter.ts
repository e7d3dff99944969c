/**
 * The app's own adapter, kept: a project that already has auth keeps its
 * storage, so init writes no adapter, schema or database driver of its own.
 * What it adds is the module verify-adapter runs, which makes the adapter the
 * config makes (its expression, with the imports it reads, followed from the
 * config to wherever they point) and loads the env files first, so the app's
 * own client finds its database.
 */
import { posix } from "node:path";
import type { AdapterExpression, AdapterImport } from "../ast/adapter-expression.js";
import { loadEnvModule } from "../render/env-files.js";
import { type GeneratedPart, part } from "../render/parts.js";
import type { EnvOrder } from "../render/project-env.js";
import { renderTemplate } from "../render/templates.js";

export interface OwnAdapter {
  /** The config that makes it, relative to the project root. */
  configPath: string;
  adapter: AdapterExpression;
}

export interface OwnAdapterRequest extends OwnAdapter {
  /** The folder the verify module goes in, relative to the root. */
  authDir: string;
  ext: "" | ".js";
  envOrder: EnvOrder;
  /** An import of the config as a project file (relative to the root), or undefined for a package. */
  projectFile(module: string): string | undefined;
}

function importLine(spec: AdapterImport, from: string): string {
  if (spec.kind === "default") return `import ${spec.local} from "${from}";`;
  if (spec.kind === "namespace") return `import * as ${spec.local} from "${from}";`;
  const name =
    spec.imported === spec.local || spec.imported === undefined ? spec.local : `${spec.imported} as ${spec.local}`;
  return `import { ${name} } from "${from}";`;
}

export async function ownAdapterPart(request: OwnAdapterRequest): Promise<GeneratedPart> {
  const { adapter, authDir, ext } = request;
  const verifyPath = `${authDir}/verify-adapter.ts`;
  if (adapter.locals.length)
    return part({
      notices: [
        `${request.configPath} keeps its adapter (${adapter.text}); it reads ${adapter.locals.join(", ")}, made in the config itself, so no verify-adapter module was written: check the adapter with create-auth verify-adapter <a module exporting it>.`,
      ],
    });
  const imports = adapter.imports.map((spec) => {
    const file = request.projectFile(spec.module);
    if (file === undefined) return importLine(spec, spec.module);
    const rel = posix.relative(posix.dirname(verifyPath), file).replace(/\.[cm]?[jt]sx?$/, ext);
    return importLine(spec, rel.startsWith(".") ? rel : `./${rel}`);
  });
  const contents = await renderTemplate("adapters/own-verify-adapter.ts.hbs", {
    configPath: request.configPath,
    ext,
    imports,
    expression: adapter.text,
  });
  return part({
    files: [{ path: verifyPath, contents }, await loadEnvModule(`${authDir}/load-env.ts`, request.envOrder)],
    scripts: { "verify-adapter": `create-auth verify-adapter ${verifyPath}` },
    notices: [
      `${request.configPath} keeps its adapter (${adapter.text}): no second storage; npm run verify-adapter checks that adapter.`,
    ],
  });
}
