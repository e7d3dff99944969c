/**
 * The config object token rotation is wired into, and where it sits: the
 * object whose `providers` add-provider edits, the top-level statement that
 * holds it (the rotation is created just before it), and the members the
 * wiring reads (`adapter`, `callbacks`, `events`).
 */
import type { Node, ObjectExpression, Statement } from "@babel/types";
import { collectBindings, localDeclarations } from "../bindings.js";
import { findProvidersArray } from "../find-providers.js";
import { parentOf, propertyName, unwrap } from "../nodes.js";
import type { SourceFile } from "../parse.js";

export interface ConfigObject {
  object: ObjectExpression;
  /** The top-level statement the object is part of. */
  statement: Statement;
}

const functions = new Set(["ArrowFunctionExpression", "FunctionExpression", "FunctionDeclaration", "ObjectMethod"]);

/** The config object, or why the wiring cannot be placed beside it. */
export function configObject(file: SourceFile): ConfigObject | { refusal: string } {
  const target = findProvidersArray(file);
  if ("refusal" in target) return target;
  const property = parentOf(file.root, target.array);
  const object = property && parentOf(file.root, property);
  if (property?.type !== "ObjectProperty" || object?.type !== "ObjectExpression")
    return { refusal: "`providers` is not written inside the config object itself." };
  let node: Node = object;
  for (let parent = parentOf(file.root, node); parent; parent = parentOf(file.root, node)) {
    // A config built per request (NextAuth((req) => ({...}))) would need a rotation per request too.
    if (functions.has(parent.type)) return { refusal: "the config object is built inside a function." };
    if (parent.type === "Program") return { object, statement: node as Statement };
    node = parent;
  }
  return { refusal: "the config object is not part of a top-level statement." };
}

/** The config's own member `name` (a property or a method), if it has exactly one. */
export function member(object: ObjectExpression, name: string): Node | undefined | "several" {
  const found = object.properties.filter((p) => propertyName(p) === name);
  return found.length > 1 ? "several" : found[0];
}

/** Whether `name` is free at module scope (no import, no declaration). */
export function isFree(file: SourceFile, name: string): boolean {
  return !collectBindings(file).some((b) => b.local === name) && !localDeclarations(file).has(name);
}

/** The value of a property, through `as`/`satisfies`; undefined for a method. */
export function propertyValue(node: Node): Node | undefined {
  return node.type === "ObjectProperty" ? unwrap(node.value) : undefined;
}
