/**
 * Adds a callback (`signIn: twoFactorSignIn`) to the `callbacks` of a user's
 * auth config — the object whose `providers` the config edits find — with
 * its import: into `callbacks` when it is an object written there, or as a
 * new `callbacks: { ... }` option when there is none. A callback of that
 * name the user already has is theirs: the edit is refused with what to add
 * to it. Every other byte stays. Load it with `await import(...)`.
 */
import type { ObjectExpression, ObjectProperty } from "@babel/types";
import type { ImportSpec } from "../render/parts.js";
import { isCommonJs } from "./bindings.js";
import { findProvidersArray } from "./find-providers.js";
import { importStyle, planImports } from "./imports.js";
import { addOptionsToConfig, type ConfigOption, type OptionsEditResult } from "./insert-option.js";
import { parentOf, propertyName, startOf, unwrap } from "./nodes.js";
import { applyEdits, eol, firstSyntaxError, indentAt, indentUnit, parse } from "./parse.js";

export interface CallbackEdit {
  /** The callback's name in `callbacks`, e.g. signIn. */
  key: string;
  /** Its value's source text, e.g. `twoFactorSignIn`. */
  value: string;
  imports: ImportSpec[];
}

export type CallbackEditResult =
  | { status: "edited"; text: string }
  | { status: "present"; text: string }
  | { status: "refused"; reason: string };

export function addCallbackToConfig(source: string, callback: CallbackEdit, fileName?: string): CallbackEditResult {
  const file = parse(source, fileName);
  const syntaxError = firstSyntaxError(file);
  if (syntaxError) return { status: "refused", reason: `The file does not parse (${syntaxError}).` };
  const target = findProvidersArray(file);
  if ("refusal" in target) return { status: "refused", reason: target.refusal };
  const providers = parentOf(file.root, target.array);
  const config = providers && parentOf(file.root, providers);
  if (config?.type !== "ObjectExpression")
    return { status: "refused", reason: "`providers` is not written inside the config object itself." };
  const callbacks = (config as ObjectExpression).properties.find((p) => propertyName(p) === "callbacks");
  if (!callbacks) {
    const option: ConfigOption = {
      key: "callbacks",
      value: `{ ${callback.key}: ${callback.value} }`,
      imports: callback.imports,
    };
    const result: OptionsEditResult = addOptionsToConfig(source, [option], fileName);
    return result.status === "edited" ? { status: "edited", text: result.text } : result;
  }
  const value = callbacks.type === "ObjectProperty" ? unwrap((callbacks as ObjectProperty).value) : undefined;
  if (value?.type !== "ObjectExpression")
    return { status: "refused", reason: "`callbacks` is not an object written in the config." };
  const existing = value.properties.find((p) => propertyName(p) === callback.key);
  if (existing) {
    const text = source.slice(startOf(existing), existing.end ?? startOf(existing));
    if (text.includes(callback.value)) return { status: "present", text: source };
    return {
      status: "refused",
      reason: `callbacks.${callback.key} is your own: call ${callback.value}(params) first in it and return what it answers when that is not true.`,
    };
  }
  // The new callback goes first, on its own line, indented one level inside `callbacks`.
  const nl = eol(source);
  const open = startOf(value) + 1;
  const first = value.properties[0];
  const indent = first
    ? indentAt(source, startOf(first))
    : `${indentAt(source, startOf(callbacks))}${indentUnit(source)}`;
  let next = applyEdits(source, [
    { start: open, end: open, text: `${nl}${indent}${callback.key}: ${callback.value},` },
  ]);
  const edited = parse(next, fileName);
  const imports = planImports(edited, callback.imports, importStyle(edited, isCommonJs(edited)));
  if ("conflict" in imports) return { status: "refused", reason: imports.conflict };
  next = applyEdits(next, imports.edits);
  const broken = firstSyntaxError(parse(next, fileName));
  if (broken) return { status: "refused", reason: `The edit would produce invalid code (${broken}).` };
  return { status: "edited", text: next };
}
