/** doctor for Express: where app.use(<path>, ExpressAuth(...)) mounts Auth.js, and whether AUTH_URL agrees. */
import { readdirSync, statSync } from "node:fs";
import { join, posix } from "node:path";
import { descendants, ofType, stringValue, textOf } from "../../ast/nodes.js";
import type { Module } from "../../ast/project/modules.js";
import { authUrl, type ProjectFacts } from "../../doctor-model/facts.js";
import { defineCheck, type Finding } from "../../doctor-model/finding.js";
import type { WiringContext, WiringDoctor } from "../framework.js";
import { findServerEntry } from "../server-entry.js";

interface ExpressWiring {
  mounts: { file: string; path: string }[];
}

const mountMissing = defineCheck(
  "express.mount-missing",
  "warning",
  "Express: no app.use(<path>, ExpressAuth(...)) was found.",
);
const mountMismatch = defineCheck(
  "express.mount-mismatch",
  "error",
  "Express: Auth.js is mounted at another path than AUTH_URL's.",
);

const isDir = (path: string) => statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
const isFile = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() === true;

const useCalls = (module: Module) =>
  descendants(module.file.root.program, ofType("CallExpression")).filter(
    (call) =>
      call.callee.type === "MemberExpression" &&
      call.callee.property.type === "Identifier" &&
      call.callee.property.name === "use",
  );

/**
 * `app.use("/auth", ExpressAuth(...))` in the server's modules: the server entry and what it imports (the
 * router init writes among them), and the files at the project's top or in src/. A mount on a router
 * (`authRoutes.use(...)` on `Router()`) counts when some module uses that router (`app.use(authRoutes)`).
 */
function mounts({ root, project, reader }: WiringContext): ExpressWiring["mounts"] {
  const files = new Set(Object.keys(findServerEntry(project)?.modules ?? {}));
  for (const dir of ["", "src"]) {
    if (!isDir(join(root, dir))) continue;
    for (const name of readdirSync(join(root, dir)))
      if (/\.(?:[cm]?[jt]s)$/.test(name) && !name.endsWith(".d.ts")) files.add(posix.join(dir, name));
  }
  const modules = [...files].flatMap((file) => {
    const absolute = join(root, file);
    const module = isFile(absolute) ? reader.read(absolute) : null;
    return module ? [{ file, module }] : [];
  });
  const used = new Set(
    modules.flatMap(({ module }) =>
      useCalls(module).flatMap((call) => call.arguments.flatMap((a) => (a.type === "Identifier" ? [a.name] : []))),
    ),
  );
  const out: ExpressWiring["mounts"] = [];
  for (const { file, module } of modules) {
    if (!module.file.text.includes("ExpressAuth")) continue;
    const routers = new Set(
      descendants(module.file.root.program, ofType("VariableDeclarator")).flatMap((d) =>
        d.id.type === "Identifier" && d.init && /^(?:express\.)?Router\(/.test(textOf(module.file.text, d.init))
          ? [d.id.name]
          : [],
      ),
    );
    for (const call of useCalls(module)) {
      const [first, second] = call.arguments;
      const mounted =
        second?.type === "CallExpression" &&
        second.callee.type === "Identifier" &&
        second.callee.name === "ExpressAuth";
      const on =
        call.callee.type === "MemberExpression" && call.callee.object.type === "Identifier"
          ? call.callee.object.name
          : "";
      const path = stringValue(first);
      if (mounted && path !== undefined && (!routers.has(on) || used.has(on))) out.push({ file, path });
    }
  }
  return out;
}

function findings(facts: ProjectFacts): Finding[] {
  const { mounts } = facts.wiring as unknown as ExpressWiring;
  if (mounts.length === 0)
    return [
      mountMissing.report(
        "No app.use(<path>, ExpressAuth(config)) was found in the server files at the top of the project or in src/, so the mount path could not be checked.",
        'Mount it: app.use("/auth", ExpressAuth(authConfig)). https://authjs.dev/getting-started/installation?framework=express',
      ),
    ];
  const url = authUrl(facts);
  if (!url || !URL.canParse(url.value)) return [];
  const path = new URL(url.value).pathname.replace(/\/+$/, "");
  const mount = mounts[0]!;
  if (path === "" || path === mount.path.replace(/\/+$/, "")) return [];
  return [
    mountMismatch.report(
      `Auth.js is mounted at ${mount.path} in ${mount.file}, but ${url.name}'s path is ${path}: its routes answer UnknownAction.`,
      `Set ${url.name} to ${new URL(url.value).origin} (or ${new URL(url.value).origin}${mount.path}), or mount Auth.js at ${path}.`,
      mount.file,
    ),
  ];
}

export const expressDoctor: WiringDoctor = {
  checks: [mountMissing, mountMismatch],
  read(context) {
    const found = mounts(context);
    return { mounts: found, mount: found[0], mountChecked: true };
  },
  run: findings,
};
