/**
 * What one module is to the auth setup, read from its code (parsed, never
 * run): the Auth.js entry points it calls (`NextAuth(...)`, `SvelteKitAuth`,
 * `ExpressAuth`, `Auth`, `QwikAuth$`...), the config objects it exports
 * (typed `NextAuthOptions`, `AuthOptions`, `NextAuthConfig`, `AuthConfig`, or
 * shaped as one), and where an object's `providers` really live.
 * Loaded with `await import(...)`: it brings the parser.
 */
import { basename } from "node:path";
import type { Node, ObjectExpression } from "@babel/types";
import { type PathAlias, resolveSpecifier } from "../../workspace/auth-setup/aliases.js";
import { collectBindings, variablesOf } from "../bindings.js";
import { descendants, ofType, parentOf, propertyName, textOf, unwrap } from "../nodes.js";
import { type Module, ModuleReader } from "../project/modules.js";

/** Auth.js's entry points, by the name a module imports them under. */
const authCallees = /^(?:NextAuth|SvelteKitAuth|ExpressAuth|SolidAuth|QwikAuth\$|Auth)$/;
/** The packages they come from. */
const authPackages = /^(?:next-auth(?:\/next)?|@auth\/[a-z-]+|@solid-mediakit\/auth)$/;
const configTypes =
  /\b(?:NextAuthOptions|AuthOptions|NextAuthConfig|AuthConfig|SvelteKitAuthConfig|ExpressAuthConfig|SolidAuthConfig|QwikAuthConfig)\b/;
const v4Types = /\b(?:NextAuthOptions|AuthOptions)\b/;

/** A module reader that resolves the project's own aliases (tsconfig `paths`, `$lib`). */
export class SetupReader extends ModuleReader {
  constructor(
    root: string,
    private readonly aliases: readonly PathAlias[],
  ) {
    super(root, undefined);
  }

  override resolve(from: string, specifier: string): string | undefined {
    return resolveSpecifier(this.aliases, from, specifier) ?? super.resolve(from, specifier);
  }
}

export interface Located {
  module: Module;
  node: Node;
}

export interface AuthCall {
  /** `NextAuth`, `SvelteKitAuth`... as the module names it. */
  callee: string;
  /** The package it is imported from. */
  from: string;
  /** The names its result is destructured into (`handlers`, `auth`...), v5's way. */
  destructured: string[];
  argument: Located | undefined;
}

export interface ModuleFacts {
  path: string;
  calls: AuthCall[];
  /** Config objects the module exports, and whether one is typed as v4's `NextAuthOptions`/`AuthOptions`. */
  exportsConfig: boolean;
  typedV4: boolean;
  /** Any import from next-auth or @auth/*: a shaped object counts only beside one. */
  importsAuth: boolean;
  /** The module has a syntax error and names an entry point: the command that edits or reads it says what is wrong. */
  unparsable: boolean;
}

function typeText(module: Module, node: Node | null | undefined): string {
  return node ? textOf(module.file.text, node) : "";
}

/** The type a declared or wrapped object is given: `const x: T = {}`, `{} satisfies T`, `{} as T`. */
function declaredType(module: Module, declarator: Node | undefined, value: Node | null | undefined): string {
  let type = "";
  if (declarator?.type === "VariableDeclarator" && "typeAnnotation" in declarator.id)
    type += typeText(module, declarator.id.typeAnnotation);
  let node = value;
  while (node && (node.type === "TSSatisfiesExpression" || node.type === "TSAsExpression")) {
    type += ` ${typeText(module, node.typeAnnotation)}`;
    node = node.expression;
  }
  return type;
}

const hasProviders = (node: Node) =>
  node.type === "ObjectExpression" && node.properties.some((p) => propertyName(p) === "providers");

export function readModuleFacts(reader: SetupReader, path: string): ModuleFacts | undefined {
  const module = reader.read(path);
  if (!module) return undefined;
  const unparsable =
    module.file.syntaxErrors.length > 0 &&
    /\b(?:NextAuth|SvelteKitAuth|ExpressAuth|SolidAuth|QwikAuth\$|Auth)\s*\(|\bproviders\s*:/.test(module.file.text);
  const facts: ModuleFacts = {
    path,
    calls: [],
    exportsConfig: false,
    typedV4: false,
    importsAuth: false,
    unparsable,
  };
  if (module.file.statements.length === 0) return facts;
  const bindings = collectBindings(module.file);
  // An object with `providers` counts beside an import of an auth package, or in a module named for auth.
  const namedAuth = /auth/i.test(basename(path));
  facts.importsAuth = bindings.some((b) => authPackages.test(b.module) || b.module.startsWith("next-auth/"));
  const program = module.file.root.program;

  for (const call of descendants(program, ofType("CallExpression"))) {
    if (call.callee.type !== "Identifier" || !authCallees.test(call.callee.name)) continue;
    const binding = bindings.find((b) => b.local === (call.callee as { name: string }).name);
    if (!binding || !authPackages.test(binding.module)) continue;
    const parent = parentOf(program, call);
    const pattern = parent?.type === "VariableDeclarator" && parent.id.type === "ObjectPattern" ? parent.id : undefined;
    const destructured = (pattern?.properties ?? []).flatMap((p) =>
      p.type === "ObjectProperty" && !p.computed ? [propertyName(p) ?? ""] : [],
    );
    // @auth/core's Auth(request, config) takes the config second; the framework initialisers take it first.
    const arg = call.arguments[call.callee.name === "Auth" ? 1 : 0];
    facts.calls.push({
      callee: call.callee.name,
      from: binding.module,
      destructured,
      argument:
        arg && arg.type !== "SpreadElement" && arg.type !== "ArgumentPlaceholder" ? { module, node: arg } : undefined,
    });
  }

  // Exported config objects: `export const x: NextAuthOptions = {...}`, `export default {...} satisfies NextAuthConfig`,
  // `module.exports = {...}`, and an exported object with `providers` in a module that imports an auth package.
  const consider = (declarator: Node | undefined, value: Node | null | undefined) => {
    if (!value) return;
    const type = declaredType(module, declarator, value);
    const object = unwrap(value);
    if (configTypes.test(type)) {
      facts.exportsConfig = true;
      if (v4Types.test(type) && !/\bNextAuthConfig\b/.test(type)) facts.typedV4 = true;
    } else if ((facts.importsAuth || namedAuth) && hasProviders(object)) facts.exportsConfig = true;
  };
  const exportedNames = new Set<string>();
  for (const statement of module.file.statements) {
    if (statement.type === "ExportNamedDeclaration") {
      for (const d of variablesOf(statement)?.declarations ?? []) consider(d, d.init);
      for (const s of statement.specifiers)
        if (s.type === "ExportSpecifier" && !statement.source) exportedNames.add(s.local.name);
    } else if (statement.type === "ExportDefaultDeclaration") {
      const d = statement.declaration;
      if (d.type === "Identifier") exportedNames.add(d.name);
      else consider(undefined, d as Node);
    } else if (statement.type === "ExpressionStatement" && statement.expression.type === "AssignmentExpression") {
      if (/^(?:module\.)?exports\b/.test(textOf(module.file.text, statement.expression.left)))
        consider(undefined, statement.expression.right);
    }
  }
  for (const d of descendants(program, ofType("VariableDeclarator"))) {
    if (d.id.type === "Identifier" && exportedNames.has(d.id.name)) consider(d, d.init);
  }
  // A typed local config passed to the module's own NextAuth() (v4's route file) is the config too.
  if (!facts.typedV4) {
    for (const d of descendants(program, ofType("VariableDeclarator"))) {
      const type = declaredType(module, d, d.init);
      if (v4Types.test(type) && !/\bNextAuthConfig\b/.test(type)) facts.typedV4 = true;
    }
  }
  return facts;
}

/** The object a value is, through identifiers, imports, `satisfies` and a lazy-init function's return. */
export function objectOf(reader: SetupReader, found: Located | undefined, depth = 0): Located | undefined {
  if (!found || depth > 6) return undefined;
  const node = unwrap(found.node);
  if (node.type === "ObjectExpression") return { module: found.module, node };
  if (node.type === "Identifier")
    return objectOf(
      reader,
      reader.local(found.module, node.name) ?? requiredExport(reader, found.module, node.name),
      depth + 1,
    );
  // A function that returns the config (`Auth(request, configured())`): what it returns.
  if (node.type === "CallExpression" && node.callee.type === "Identifier")
    return objectOf(reader, { module: found.module, node: node.callee }, depth + 1);
  // `(await import("./auth")).authConfig`: a config loaded on demand (Qwik's plugin, kept out of the browser's build).
  if (node.type === "MemberExpression" && !node.computed && node.property.type === "Identifier") {
    const specifier = dynamicImportOf(node.object);
    const target = specifier && reader.resolve(found.module.path, specifier);
    const imported = target && reader.read(target);
    return imported ? objectOf(reader, { module: imported, node: node.property }, depth + 1) : undefined;
  }
  if (node.type === "ArrowFunctionExpression" || node.type === "FunctionExpression") {
    const body =
      node.body.type === "BlockStatement" ? descendants(node.body, ofType("ReturnStatement"))[0]?.argument : node.body;
    return body ? objectOf(reader, { module: found.module, node: body }, depth + 1) : undefined;
  }
  return undefined;
}

/** The specifier of `await import("...")`, when the node is one. */
function dynamicImportOf(node: Node): string | undefined {
  const awaited = unwrap(node);
  if (awaited.type !== "AwaitExpression") return undefined;
  const call = unwrap(awaited.argument);
  const source =
    call.type === "ImportExpression"
      ? call.source
      : call.type === "CallExpression" && call.callee.type === "Import"
        ? call.arguments[0]
        : undefined;
  return source?.type === "StringLiteral" ? source.value : undefined;
}

/** What a CommonJS `require` binding names: `exports.x = ...`, `module.exports.x = ...` or `module.exports = { x }`. */
function requiredExport(reader: SetupReader, module: Module, name: string): Located | undefined {
  const binding = collectBindings(module.file).find((b) => b.local === name && b.style === "cjs");
  const target = binding && reader.resolve(module.path, binding.module);
  const required = target && reader.read(target);
  if (!binding || !required) return undefined;
  const wanted = binding.kind === "named" ? binding.imported : undefined;
  for (const statement of required.file.statements) {
    if (statement.type !== "ExpressionStatement" || statement.expression.type !== "AssignmentExpression") continue;
    const { left, right } = statement.expression;
    const target = textOf(required.file.text, left).replace(/\s+/g, "");
    if (wanted && (target === `exports.${wanted}` || target === `module.exports.${wanted}`))
      return { module: required, node: right };
    if (target !== "module.exports") continue;
    if (!wanted) return { module: required, node: right };
    const value = unwrap(right);
    if (value.type !== "ObjectExpression") continue;
    for (const property of value.properties) {
      if (propertyName(property) !== wanted) continue;
      if (property.type === "ObjectProperty") return { module: required, node: property.value };
    }
  }
  return undefined;
}

/** The module whose object literal holds the `providers` the config ends up with (a later key wins, spreads included). */
export function providersModule(reader: SetupReader, config: Located, depth = 0): Module | undefined {
  if (depth > 4) return undefined;
  let found: Module | undefined;
  for (const property of (config.node as ObjectExpression).properties) {
    if (property.type === "SpreadElement") {
      const spread = objectOf(reader, { module: config.module, node: property.argument });
      const inner = spread && providersModule(reader, spread, depth + 1);
      if (inner) found = inner;
    } else if (propertyName(property) === "providers") found = config.module;
  }
  return found;
}
