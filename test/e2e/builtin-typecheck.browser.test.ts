/**
 * Every built-in provider add-provider generates, for each framework,
 * type-checks against the framework's real Auth.js package: one TypeScript
 * program per framework holding all of them. next-auth, @auth/sveltekit and
 * @auth/express come from the browser layer's installed apps (the versions
 * init installs); the framework-neutral modules from this repository's
 * @auth/core.
 */
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { generatedBuiltins } from "../../src/catalog/builtin-providers.js";
import { builtinFlags, parseBuiltin, planBuiltin } from "../../src/families/builtin.js";
import { frameworkById } from "../../src/frameworks/registry.js";

/** The Auth.js packages providers come from: each framework whose app the browser layer installs, and @auth/core. */
const frameworks = ["next", "sveltekit", "express", "none"] as const;
type Framework = (typeof frameworks)[number];

import { root, tempDir } from "../helpers.js";
import { installedApp } from "./apps.js";

/** A value each required flag accepts. */
const sample: Record<string, string> = {
  issuer: "https://issuer.example.com",
  redirectUri: "https://app.example.com/api/auth/callback/notion",
  connection: "conn_123",
  accountId: "TSTDRV1234567",
  userinfo: "https://example.restlets.api.netsuite.com/app/site/hosting/restlet.nl?script=1",
  transactionalId: "clfq6dinn000yl70fgwwyp82l",
};

function write(path: string, contents: string) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, contents);
}

async function project(framework: Framework): Promise<{ dir: string; files: string[] }> {
  const dir = tempDir(`create-auth-builtins-${framework}-`);
  const modules = framework === "none" ? root : await installedApp(framework);
  symlinkSync(join(modules, "node_modules"), join(dir, "node_modules"), "dir");
  write(join(dir, "package.json"), '{ "name": "app", "private": true, "type": "module" }\n');
  const files: string[] = [];
  const entries: string[] = [];
  for (const p of generatedBuiltins) {
    const given = Object.fromEntries(
      builtinFlags(p)
        .filter((f) => f.required)
        .map((f) => [f.key, f.values?.[0] ?? sample[f.key]!]),
    );
    const snippet = await planBuiltin(p, parseBuiltin(p, given), {
      authPackage: frameworkById(framework).authPackage,
      importExtension: ".js",
    });
    for (const f of snippet.files) {
      write(join(dir, f.path), f.contents);
      files.push(join(dir, f.path));
    }
    entries.push(`import { ${snippet.entry} } from "${snippet.imports[0]!.from}";`);
  }
  // The config's view of them: every one is a Provider.
  const names = entries.map((line) => line.match(/\{ (\w+) \}/)![1]);
  write(
    join(dir, "auth.ts"),
    `${entries.join("\n")}\nimport type { Provider } from "@auth/core/providers";\n\nexport const providers: Provider[] = [${names.join(", ")}];\n`,
  );
  files.push(join(dir, "auth.ts"));
  return { dir, files };
}

describe("built-in provider modules type-check against @auth/core", () => {
  it.each(frameworks)(
    "%s: every built-in, one program",
    async (framework) => {
      const { files } = await project(framework);
      const program = ts.createProgram(files, {
        target: ts.ScriptTarget.ES2022,
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        strict: true,
        skipLibCheck: true,
        noEmit: true,
        types: ["node"],
        typeRoots: [join(root, "node_modules/@types")],
      });
      const diagnostics = ts
        .getPreEmitDiagnostics(program)
        .map((d) => `${d.file?.fileName ?? ""}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`);
      expect(diagnostics).toEqual([]);
      expect(files.length).toBe(generatedBuiltins.length + 1);
    },
    120_000,
  );
});
