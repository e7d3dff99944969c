/**
 * The auth config's facts, read from its code: the config object (found
 * where Auth.js takes it: NextAuth(...), SvelteKitAuth(...), an object with
 * `providers`), its options with spreads of other config modules followed
 * (`{ ...authConfig, adapter }`, the edge split the Auth.js docs show),
 * its providers and its adapter.
 */
import type { Node, ObjectExpression } from "@babel/types";
import { collectBindings } from "../bindings.js";
import { descendants, ofType, propertyName, stringValue, unwrap } from "../nodes.js";
import { firstSyntaxError } from "../parse.js";
import type { AdapterFacts, ConfigFacts } from "./config-facts.js";
import { envReference, type Module, type ModuleReader } from "./modules.js";
import { readProvider } from "./read-providers.js";

const authCalls = /^(?:NextAuth|SvelteKitAuth|ExpressAuth|SolidAuth|QwikAuth\$?|Auth)$/;

interface Located {
  module: Module;
  node: Node;
}

/** The object a value is, through identifiers, imports and a lazy-init arrow. */
function asObject(found: Located | undefined, reader: ModuleReader, depth = 0): Located | undefined {
  if (!found || depth > 5) return undefined;
  const node = unwrap(found.node);
  if (node.type === "ObjectExpression") return { module: found.module, node };
  if (node.type === "Identifier") return asObject(reader.local(found.module, node.name), reader, depth + 1);
  if (node.type === "ArrowFunctionExpression" || node.type === "FunctionExpression") {
    const body =
      node.body.type === "BlockStatement" ? descendants(node.body, ofType("ReturnStatement"))[0]?.argument : node.body;
    return body ? asObject({ module: found.module, node: body }, reader, depth + 1) : undefined;
  }
  return undefined;
}

/** The config object of a module: what it passes to NextAuth() and friends, else the object holding `providers`. */
function findConfigObject(module: Module, reader: ModuleReader): Located | undefined {
  for (const call of descendants(module.file.root.program, ofType("CallExpression"))) {
    if (call.callee.type !== "Identifier" || !authCalls.test(call.callee.name) || !call.arguments[0]) continue;
    const found = asObject({ module, node: call.arguments[0] }, reader);
    if (found) return found;
  }
  const holder = descendants(module.file.root.program, ofType("ObjectExpression")).find((o) =>
    o.properties.some((p) => propertyName(p) === "providers"),
  );
  return holder && { module, node: holder };
}

/** Its properties by name, spreads included, in source order: a later key wins, as at run time. */
function properties(found: Located, reader: ModuleReader, depth = 0): Map<string, Located> {
  const out = new Map<string, Located>();
  if (depth > 4) return out;
  for (const property of (found.node as ObjectExpression).properties) {
    if (property.type === "SpreadElement") {
      const spread = asObject({ module: found.module, node: property.argument }, reader);
      if (spread) for (const [k, v] of properties(spread, reader, depth + 1)) out.set(k, v);
      continue;
    }
    const name = propertyName(property);
    if (name === undefined) continue;
    if (property.type === "ObjectProperty") out.set(name, { module: found.module, node: property.value });
    else out.set(name, { module: found.module, node: property });
  }
  return out;
}

function nested(value: Located | undefined, key: string, reader: ModuleReader): Located | undefined {
  const object = asObject(value, reader);
  return object ? properties(object, reader).get(key) : undefined;
}

function readAdapter(value: Located, reader: ModuleReader): AdapterFacts {
  let node = unwrap(value.node);
  let module = value.module;
  for (let depth = 0; depth < 4; depth++) {
    const name =
      node.type === "CallExpression" && node.callee.type === "Identifier"
        ? node.callee.name
        : node.type === "Identifier"
          ? node.name
          : undefined;
    if (!name) break;
    const binding = collectBindings(module.file).find((b) => b.local === name);
    if (binding) {
      const file = reader.resolve(module.path, binding.module);
      if (!file) return { module: binding.module };
      const reached = reader.reach(file);
      // A module of the project's that wraps a published @auth/*-adapter (init's ORM wiring patches two
      // of its methods) has every method the package has: nothing to search.
      if (reached.packages.some((name) => /^@auth\/[a-z0-9-]+-adapter$/.test(name)))
        return { module: binding.module, file: reader.relative(file) };
      // The adapter's module and the project's modules it imports: where its methods are written.
      const text = reached.files.map((f) => reader.read(f)?.file.text ?? "").join("\n");
      return { module: binding.module, file: reader.relative(file), text };
    }
    const local = reader.local(module, name);
    if (!local || local.module !== module) break;
    node = unwrap(local.node);
    module = local.module;
  }
  // Defined in the config itself: its methods are in the config's text.
  return { text: module.file.text, file: reader.relative(module.path) };
}

export function readConfig(path: string, reader: ModuleReader): ConfigFacts {
  const facts: ConfigFacts = {
    file: reader.relative(path),
    found: false,
    trustHost: false,
    literalSecret: false,
    enableWebAuthn: false,
    providers: [],
    packages: reader.reach(path).packages,
  };
  const module = reader.read(path);
  if (!module) return facts;
  const syntaxError = firstSyntaxError(module.file);
  if (syntaxError) facts.syntaxError = syntaxError;
  const config = findConfigObject(module, reader);
  if (!config) return facts;
  facts.found = true;
  const options = properties(config, reader);
  const basePath = options.get("basePath");
  if (basePath) facts.basePath = stringValue(unwrap(basePath.node));
  const trustHost = options.get("trustHost");
  if (trustHost) {
    const value = unwrap(trustHost.node);
    facts.trustHost = !(value.type === "BooleanLiteral" && !value.value);
  }
  const secret = options.get("secret");
  if (secret) {
    facts.secretVariable = envReference(secret.node, secret.module);
    facts.literalSecret = stringValue(unwrap(secret.node)) !== undefined;
  }
  const strategy = nested(options.get("session"), "strategy", reader);
  if (strategy) facts.strategy = stringValue(unwrap(strategy.node));
  const webauthn = nested(options.get("experimental"), "enableWebAuthn", reader);
  if (webauthn) {
    const value = unwrap(webauthn.node);
    facts.enableWebAuthn = !(value.type === "BooleanLiteral" && !value.value);
  }
  const adapter = options.get("adapter");
  if (adapter) {
    const call = unwrap(adapter.node);
    facts.adapter = {
      ...readAdapter(adapter, reader),
      ...(call.type === "CallExpression" ? { arguments: call.arguments.length } : {}),
    };
  }
  const providers = options.get("providers");
  const list = providers && unwrap(providers.node);
  let elements: Located[] = [];
  if (list?.type === "ArrayExpression")
    elements = list.elements.flatMap((e) => (e ? [{ module: providers!.module, node: e }] : []));
  else if (list?.type === "Identifier") {
    const found = reader.local(providers!.module, list.name);
    const array = found && unwrap(found.node);
    if (array?.type === "ArrayExpression")
      elements = array.elements.flatMap((e) => (e ? [{ module: found!.module, node: e }] : []));
  }
  for (const element of elements) {
    const node = element.node.type === "SpreadElement" ? undefined : element.node;
    const provider = node && readProvider(node, element.module, reader);
    if (provider) facts.providers.push(provider);
  }
  return facts;
}
