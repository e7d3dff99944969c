/**
 * Adds top-level options (`adapter: createAdapter()`, `session: {...}`) to
 * a user's auth config object — the object whose `providers` the config
 * edits already find — with the imports they need. An option the object
 * already has is the user's and is left as it is; only the missing ones are
 * written, each on its own line before `providers`, indented as it is.
 * Load it with `await import(...)`: the parser is half a megabyte of code.
 */
import type { ObjectExpression } from "@babel/types";
import type { ImportSpec } from "../render/parts.js";
import { isCommonJs } from "./bindings.js";
import { findProvidersArray } from "./find-providers.js";
import { importStyle, planImports } from "./imports.js";
import { parentOf, propertyName, startOf } from "./nodes.js";
import { applyEdits, eol, firstSyntaxError, indentAt, lineStartOf, parse, startsLine } from "./parse.js";

export interface ConfigOption {
  key: string;
  /** The value's source text, e.g. `createAdapter()`. */
  value: string;
  /** What the value needs imported. */
  imports?: ImportSpec[];
}

export type OptionsEditResult =
  | { status: "edited"; text: string; added: string[]; kept: string[] }
  | { status: "refused"; reason: string };

export function addOptionsToConfig(
  source: string,
  options: readonly ConfigOption[],
  fileName?: string,
): OptionsEditResult {
  const file = parse(source, fileName);
  const syntaxError = firstSyntaxError(file);
  if (syntaxError) return { status: "refused", reason: `The file does not parse (${syntaxError}).` };
  const target = findProvidersArray(file);
  if ("refusal" in target) return { status: "refused", reason: target.refusal };
  const property = parentOf(file.root, target.array);
  const object = property && parentOf(file.root, property);
  if (property?.type !== "ObjectProperty" || object?.type !== "ObjectExpression")
    return { status: "refused", reason: "`providers` is not written inside the config object itself." };
  const present = new Set((object as ObjectExpression).properties.map((p) => propertyName(p)));
  const kept = options.filter((o) => present.has(o.key)).map((o) => o.key);
  const missing = options.filter((o) => !present.has(o.key));
  if (missing.length === 0) return { status: "edited", text: source, added: [], kept };

  const at = startOf(property);
  // On a line of its own, `providers` sets the indent and the new lines go above it; else inline before it.
  const nl = eol(source);
  const lines = startsLine(source, at)
    ? missing.map((o) => `${indentAt(source, at)}${o.key}: ${o.value},${nl}`).join("")
    : missing.map((o) => `${o.key}: ${o.value}, `).join("");
  const insertAt = startsLine(source, at) ? lineStartOf(source, at) : at;
  let next = applyEdits(source, [{ start: insertAt, end: insertAt, text: lines }]);

  const edited = parse(next, fileName);
  const imports = planImports(
    edited,
    missing.flatMap((o) => o.imports ?? []),
    importStyle(edited, isCommonJs(edited)),
  );
  if ("conflict" in imports) return { status: "refused", reason: imports.conflict };
  next = applyEdits(next, imports.edits);
  const broken = firstSyntaxError(parse(next, fileName));
  if (broken) return { status: "refused", reason: `The edit would produce invalid code (${broken}).` };
  return { status: "edited", text: next, added: missing.map((o) => o.key), kept };
}
