/**
 * From the modules that look like auth to the one setup: modules that reach
 * each other through their imports are one setup, and within it the entry
 * point the app uses (not the middleware's edge copy, the one the route
 * imports) decides which module holds the config and which the providers.
 */
import { relative } from "node:path";
import type { PathAlias } from "../../workspace/auth-setup/aliases.js";
import { probeFile } from "../../workspace/auth-setup/aliases.js";
import type { AuthSetup, AuthSetupKind } from "../../workspace/auth-setup/index.js";
import {
  type AuthCall,
  type ModuleFacts,
  objectOf,
  providersModule,
  readModuleFacts,
  SetupReader,
} from "./read-module.js";

export type Choice =
  | { status: "found"; setup: AuthSetup }
  | { status: "ambiguous"; setups: AuthSetup[] }
  | { status: "none" };

const isMiddleware = (root: string, file: string) =>
  /^(?:src\/)?(?:middleware|proxy)\.[cm]?[jt]sx?$/.test(relative(root, file));

/** Union-find over file paths. */
function grouper() {
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    const p = parent.get(x) ?? x;
    if (p === x) return x;
    const top = find(p);
    parent.set(x, top);
    return top;
  };
  return {
    add: (x: string) => void (parent.has(x) || parent.set(x, x)),
    union: (a: string, b: string) => void parent.set(find(a), find(b)),
    find,
  };
}

interface Call extends AuthCall {
  file: string;
}

function describeGroup(
  root: string,
  reader: SetupReader,
  files: string[],
  facts: Map<string, ModuleFacts>,
  routes: string[],
): AuthSetup | undefined {
  const routeFile = routes.find((r) => files.includes(r));
  const reachedByRoute = new Set(routeFile ? reader.reach(routeFile).files : []);
  const calls: Call[] = files.flatMap((file) => (facts.get(file)?.calls ?? []).map((c) => ({ ...c, file })));
  const appCalls = calls.filter((c) => !isMiddleware(root, c.file));
  const ranked = (appCalls.length ? appCalls : calls).sort(
    (a, b) =>
      Number(!reachedByRoute.has(a.file)) - Number(!reachedByRoute.has(b.file)) ||
      Number(!a.destructured.length) - Number(!b.destructured.length) ||
      a.file.localeCompare(b.file),
  );
  const call = ranked[0];
  const typedV4 = files.some((f) => facts.get(f)?.typedV4);
  if (call) {
    const object = objectOf(reader, call.argument);
    const configFile = object?.module.path ?? call.file;
    const providersFile = (object && providersModule(reader, object)?.path) ?? configFile;
    let kind: AuthSetupKind;
    if (call.callee !== "NextAuth") kind = "auth-call";
    else if (call.destructured.length === 0 || (typedV4 && !call.destructured.includes("handlers")))
      kind = "v4-options";
    else kind = providersFile !== configFile ? "v5-split" : "v5-call";
    return { root, configFile, providersFile, authFile: call.file, routeFile, kind, files };
  }
  const exporter =
    files.find((f) => facts.get(f)?.exportsConfig && !isMiddleware(root, f)) ??
    files.find((f) => facts.get(f)?.exportsConfig);
  if (!exporter) return undefined;
  return {
    root,
    configFile: exporter,
    providersFile: exporter,
    routeFile,
    kind: typedV4 ? "v4-options" : "config-only",
    files,
  };
}

export function chooseSetup(root: string, candidates: string[], routes: string[], aliases: PathAlias[]): Choice {
  const reader = new SetupReader(root, aliases);
  const facts = new Map<string, ModuleFacts>();
  for (const file of candidates) {
    const read = readModuleFacts(reader, file);
    if (read) facts.set(file, read);
  }
  const relevant = [...facts.values()].filter((f) => f.calls.length > 0 || f.exportsConfig).map((f) => f.path);
  const nodes = [...new Set([...relevant, ...routes])];
  const groups = grouper();
  for (const node of nodes) groups.add(node);
  const inNodes = new Set(nodes);
  for (const node of nodes) {
    for (const reached of reader.reach(node).files) if (inNodes.has(reached)) groups.union(node, reached);
  }
  const byTop = new Map<string, string[]>();
  for (const node of nodes) {
    const top = groups.find(node);
    byTop.set(top, [...(byTop.get(top) ?? []), node]);
  }
  const setups = [...byTop.values()]
    .filter((files) => files.some((f) => relevant.includes(f)))
    .map((files) => describeGroup(root, reader, files.sort(), facts, routes))
    .filter((s): s is AuthSetup => s !== undefined)
    .sort((a, b) => a.configFile.localeCompare(b.configFile));
  if (setups.length === 0) {
    // A module that names an entry point but does not parse: the command reads it and says where it breaks.
    const broken = [...facts.values()].filter((f) => f.unparsable).map((f) => f.path);
    if (broken.length === 1) {
      const [file] = broken as [string];
      return {
        status: "found",
        setup: { root, configFile: file, providersFile: file, kind: "config-only", files: broken },
      };
    }
    return { status: "none" };
  }
  if (setups.length > 1) return { status: "ambiguous", setups };
  return { status: "found", setup: setups[0]! };
}

const routeBases = [
  "pages/api/auth/[...nextauth]",
  "src/pages/api/auth/[...nextauth]",
  "app/api/auth/[...nextauth]/route",
  "src/app/api/auth/[...nextauth]/route",
];

/** `--config FILE`: that file is the config and where providers go; the rest is read around it. */
export function describeGiven(root: string, path: string, aliases: PathAlias[]): AuthSetup {
  const reader = new SetupReader(root, aliases);
  const facts = readModuleFacts(reader, path);
  const routeFile = routeBases.map((base) => probeFile(`${root}/${base}`)).find((f) => f !== undefined);
  const call = facts?.calls[0];
  let kind: AuthSetupKind = facts?.typedV4 ? "v4-options" : "config-only";
  if (call)
    kind =
      call.callee !== "NextAuth"
        ? "auth-call"
        : call.destructured.length === 0 || facts?.typedV4
          ? "v4-options"
          : "v5-call";
  return {
    root,
    configFile: path,
    providersFile: path,
    authFile: call ? path : undefined,
    routeFile,
    kind,
    files: [path],
  };
}
