/**
 * What each entry of the config's `providers` list is, read from the code:
 * a built-in called with options (`GitHub({ clientId: process.env.X })`), a
 * bare built-in (`GitHub`), an object literal, or a name imported from one of
 * the project's modules, followed there. The variables a provider needs are
 * the ones its options name, else the ones @auth/core reads for its id.
 */
import type { Node } from "@babel/types";
import { envRoot } from "../../catalog/builtin-provider-types.js";
import { type BuiltinProvider, findBuiltin } from "../../catalog/builtin-providers.js";
import { collectBindings } from "../bindings.js";
import { propertyName, stringValue, unwrap } from "../nodes.js";
import type { ProviderEnv, ProviderFacts } from "./config-facts.js";
import { envReference, type Module, type ModuleReader } from "./modules.js";

const providerModule = /^(?:@auth\/core|next-auth|@auth\/[\w-]+)\/providers\/([\w-]+)$/;
/** Email providers that send through an SMTP server (EMAIL_SERVER), not an API key. */
const smtpProviders = new Set(["nodemailer", "email"]);
const providerTypes = ["oauth", "oidc", "email", "webauthn", "credentials"] as const;

/** The option of each variable role, as a provider's options name it. */
const optionOf: Record<ProviderEnv["role"], string> = {
  id: "clientId",
  secret: "clientSecret",
  issuer: "issuer",
  key: "apiKey",
};

function objectProperty(object: Node | undefined, name: string): Node | undefined {
  if (object?.type !== "ObjectExpression") return undefined;
  const property = object.properties.find((p) => propertyName(p) === name);
  return property?.type === "ObjectProperty" ? property.value : undefined;
}

/** The built-in an imported name stands for: `import GitHub from "next-auth/providers/github"`. */
function builtinOf(module: Module, name: string): BuiltinProvider | undefined {
  const binding = collectBindings(module.file).find((b) => b.local === name);
  const match = binding && providerModule.exec(binding.module);
  return match ? findBuiltin(match[1]!) : undefined;
}

/** An option's value as code: a variable (with the fallback after `||` or `??`, if any), or a literal. */
function readOption(role: ProviderEnv["role"], given: Node | undefined, module: Module): ProviderEnv | undefined {
  if (given === undefined) return undefined;
  const value = unwrap(given);
  const name = envReference(value, module);
  const fallback =
    value.type === "LogicalExpression" && value.operator !== "&&" ? stringValue(unwrap(value.right)) : undefined;
  const literal = name ? fallback : stringValue(value);
  if (!name && literal === undefined) return undefined;
  return { role, ...(name ? { name } : {}), ...(literal !== undefined ? { literal } : {}) };
}

function envFor(builtin: BuiltinProvider, id: string, options: Node | undefined, module: Module): ProviderEnv[] {
  const roles: ProviderEnv["role"][] =
    builtin.type === "oauth" || builtin.type === "oidc"
      ? ["id", "secret", ...(builtin.issuerRequired || objectProperty(options, "issuer") ? (["issuer"] as const) : [])]
      : builtin.env.key && !smtpProviders.has(builtin.module)
        ? ["key"]
        : [];
  const suffix = { id: "ID", secret: "SECRET", issuer: "ISSUER", key: "KEY" } as const;
  const env: ProviderEnv[] = [];
  for (const role of roles) {
    const given = objectProperty(options, optionOf[role]);
    if (given === undefined) {
      env.push({ role, name: `${envRoot(id)}_${suffix[role]}` });
      continue;
    }
    const read = readOption(role, given, module);
    // Any other expression (a helper, a ternary) is the author's business: nothing to check.
    if (read) env.push(read);
  }
  return env;
}

function fromBuiltin(builtin: BuiltinProvider, options: Node | undefined, module: Module, reader: ModuleReader) {
  const id = stringValue(objectProperty(options, "id")) ?? builtin.id;
  return {
    id,
    type: builtin.type,
    builtin: builtin.module,
    env: envFor(builtin, id, options, module),
    file: reader.relative(module.path),
  } satisfies ProviderFacts;
}

function fromObject(object: Node, module: Module, reader: ModuleReader): ProviderFacts | undefined {
  const id = stringValue(objectProperty(object, "id"));
  const type = stringValue(objectProperty(object, "type"));
  if (!id && !type) return undefined;
  const known = providerTypes.find((t) => t === type);
  const env: ProviderEnv[] = [];
  if (known === "oauth" || known === "oidc") {
    for (const role of ["id", "secret", "issuer"] as const) {
      const read = readOption(role, objectProperty(object, optionOf[role]), module);
      if (read) env.push(read);
    }
  }
  return { id: id ?? type!, type: known ?? "unknown", env, file: reader.relative(module.path) };
}

/** One `providers` entry; undefined when the code does not say what it is. */
export function readProvider(node: Node, module: Module, reader: ModuleReader, depth = 0): ProviderFacts | undefined {
  if (depth > 5) return undefined;
  const value = unwrap(node);
  if (value.type === "CallExpression" && value.callee.type === "Identifier") {
    const options = value.arguments[0] ? unwrap(value.arguments[0]) : undefined;
    const builtin = builtinOf(module, value.callee.name);
    if (builtin) return fromBuiltin(builtin, options, module, reader);
    // A factory of the project's own: the id is what its options say, if anything.
    return options ? fromObject(options, module, reader) : undefined;
  }
  if (value.type === "Identifier") {
    const builtin = builtinOf(module, value.name);
    if (builtin) return fromBuiltin(builtin, undefined, module, reader);
    const found = reader.local(module, value.name);
    return found ? readProvider(found.node, found.module, reader, depth + 1) : undefined;
  }
  if (value.type === "ObjectExpression") return fromObject(value, module, reader);
  return undefined;
}
