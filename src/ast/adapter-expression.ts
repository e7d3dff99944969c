/**
 * The adapter an auth config uses, as written: `PrismaAdapter(prisma)`,
 * `MongoDBAdapter(clientPromise)`, `createAdapter()`, followed through a
 * const of the module (`const adapter = DrizzleAdapter(db)`), with the
 * imports it reads, so another module can build the same adapter (the
 * module verify-adapter runs), and the module its factory comes from (what
 * operations it has). Load it with `await import(...)`: the parser is half
 * a megabyte of code.
 */
import type { Node } from "@babel/types";
import { type Binding, collectBindings, localDeclarations } from "./bindings.js";
import { parentOf, textOf, unwrap } from "./nodes.js";
import { firstSyntaxError, parse, type SourceFile } from "./parse.js";
import { referencedNames } from "./references.js";
import { configObject, member, propertyValue } from "./token-wiring/config-object.js";

export interface AdapterImport {
  local: string;
  module: string;
  kind: Binding["kind"];
  imported?: string;
}

export interface AdapterExpression {
  /** The expression that makes the adapter, as written. */
  text: string;
  /** The imports it reads. */
  imports: AdapterImport[];
  /** Names it reads that the module declares itself (another module cannot import them). */
  locals: string[];
  /** Where the function making the adapter (or the adapter itself) is imported from, when it is. */
  factory?: AdapterImport;
}

/** Functions of create-auth's generated modules that take the adapter and return it, changed. */
const adapterWrappers = new Set(["withSignInEmailLimits"]);

const globals = new Set(["process", "globalThis", "undefined", "JSON", "Number", "String", "Boolean", "URL"]);

/** The config's adapter; undefined when the config has none; a string when the file cannot be read for it. */
export function readAdapter(source: string, fileName?: string): AdapterExpression | undefined | string {
  const file = parse(source, fileName);
  const broken = firstSyntaxError(file);
  if (broken) return `the file does not parse (${broken})`;
  const config = configObject(file);
  if ("refusal" in config) return config.refusal;
  const found = member(config.object, "adapter");
  if (found === undefined) return undefined;
  let value = found === "several" ? undefined : propertyValue(found);
  if (!value) return "its `adapter` is not one property";
  // Through `const adapter = X(...)` of the module, at most twice.
  for (let depth = 0; depth < 2 && value.type === "Identifier"; depth++) {
    const declared = localDeclarations(file).get(value.name);
    const declarator = declared && parentOf(file.root, declared);
    if (declarator?.type !== "VariableDeclarator" || !declarator.init) break;
    value = unwrap(declarator.init);
  }
  return describe(file, value);
}

function describe(file: SourceFile, value: Node): AdapterExpression {
  const bindings = collectBindings(file);
  const locals = localDeclarations(file);
  const imports: AdapterImport[] = [];
  const own: string[] = [];
  for (const name of referencedNames(value)) {
    const binding = bindings.find((b) => b.local === name && !b.typeOnly);
    if (binding) imports.push({ local: name, module: binding.module, kind: binding.kind, imported: binding.imported });
    else if (locals.has(name)) own.push(name);
    else if (!globals.has(name)) own.push(name);
  }
  // The sign-in throttle's wrapper (withSignInEmailLimits(createAdapter())): the factory is the one it wraps.
  const wrapped =
    value.type === "CallExpression" &&
    value.callee.type === "Identifier" &&
    adapterWrappers.has(value.callee.name) &&
    value.arguments.length === 1
      ? unwrap(value.arguments[0]!)
      : value;
  const callee = wrapped.type === "CallExpression" || wrapped.type === "NewExpression" ? wrapped.callee : wrapped;
  const factoryName = callee.type === "Identifier" ? callee.name : undefined;
  return {
    text: textOf(file.text, value),
    imports,
    locals: own,
    factory: imports.find((i) => i.local === factoryName),
  };
}
