/**
 * doctor's reading of a server module for where it hands requests to
 * Auth.js: a route registration (`app.on([...], "/auth/*", fn)`,
 * `.all("/auth/*", fn)`, `app.use("/auth", ExpressAuth(...))`) whose
 * handler calls Auth.js. Loaded with the frameworks' doctor parts only.
 */
import type { Node } from "@babel/types";
import { descendants, ofType, stringValue, textOf } from "../ast/nodes.js";
import type { Module } from "../ast/project/modules.js";

/** Calls of `<anything>.<method>(...)` with a path argument and a handler that reaches Auth.js, and the mount each gives. */
export function authMounts(module: Module, methods: readonly string[], handler: RegExp): string[] {
  const { text } = module.file;
  const mounts: string[] = [];
  for (const call of descendants(module.file.root.program, ofType("CallExpression"))) {
    const callee = call.callee;
    if (callee.type !== "MemberExpression" || callee.property.type !== "Identifier") continue;
    if (!methods.includes(callee.property.name)) continue;
    const path = call.arguments.map((a) => stringValue(a as Node)).find((v) => v?.startsWith("/"));
    const reachesAuth = call.arguments.some((a) => a.type !== "StringLiteral" && handler.test(textOf(text, a as Node)));
    if (path !== undefined && reachesAuth) mounts.push(path.replace(/\/\*$/, "").replace(/\/+$/, "") || "/");
  }
  return mounts;
}
