/**
 * Wraps the adapter of a user's auth config in a function of create-auth's
 * (`withSignInEmailLimits(createAdapter())`), with its import: the
 * `adapter` property's value, or the initialiser of the module's `const` it
 * names (`const adapter = createAdapter()`, which the token rotation shares).
 * An adapter already wrapped is left as it is; one written some other way
 * (inside a function, spread, several) is refused with the reason. Every
 * other byte stays. Load it with `await import(...)`.
 */
import type { Node } from "@babel/types";
import type { ImportSpec } from "../render/parts.js";
import { isCommonJs, localDeclarations } from "./bindings.js";
import { importStyle, planImports } from "./imports.js";
import { parentOf, startOf, unwrap } from "./nodes.js";
import { applyEdits, firstSyntaxError, parse } from "./parse.js";
import { configObject, member, propertyValue } from "./token-wiring/config-object.js";

export interface AdapterWrap {
  /** The wrapping function's name, e.g. withSignInEmailLimits. */
  wrapper: string;
  imports: ImportSpec[];
}

export type WrapResult =
  | { status: "edited"; text: string }
  | { status: "present"; text: string }
  | { status: "refused"; reason: string };

/** The expression that makes the config's adapter, through one `const` of the module. */
function adapterValue(source: string, fileName?: string): Node | string {
  const file = parse(source, fileName);
  const config = configObject(file);
  if ("refusal" in config) return config.refusal;
  const found = member(config.object, "adapter");
  if (found === undefined) return "the config has no `adapter`";
  const value = found === "several" ? undefined : propertyValue(found);
  if (!value) return "its `adapter` is not one property";
  if (value.type !== "Identifier") return value;
  const declared = localDeclarations(file).get(value.name);
  const declarator = declared && parentOf(file.root, declared);
  if (declarator?.type !== "VariableDeclarator" || !declarator.init || declarator.id.type !== "Identifier")
    return `\`${value.name}\` is not a const of the config's module`;
  return unwrap(declarator.init);
}

export function wrapConfigAdapter(source: string, wrap: AdapterWrap, fileName?: string): WrapResult {
  const broken = firstSyntaxError(parse(source, fileName));
  if (broken) return { status: "refused", reason: `the file does not parse (${broken})` };
  const value = adapterValue(source, fileName);
  if (typeof value === "string") return { status: "refused", reason: value };
  if (value.type === "CallExpression" && value.callee.type === "Identifier" && value.callee.name === wrap.wrapper)
    return { status: "present", text: source };
  const start = startOf(value);
  const end = value.end ?? start;
  let next = applyEdits(source, [{ start, end, text: `${wrap.wrapper}(${source.slice(start, end)})` }]);
  const edited = parse(next, fileName);
  const imports = planImports(edited, wrap.imports, importStyle(edited, isCommonJs(edited)));
  if ("conflict" in imports) return { status: "refused", reason: imports.conflict };
  next = applyEdits(next, imports.edits);
  const after = firstSyntaxError(parse(next, fileName));
  if (after) return { status: "refused", reason: `the edit would produce invalid code (${after})` };
  return { status: "edited", text: next };
}
