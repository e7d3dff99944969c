/**
 * A middleware.ts or proxy.ts of the project's own under --protect: their
 * function wrapped by protect() of the generated auth/protect.ts, which
 * sends visitors who are not signed in to sign in on the protected paths
 * and runs their function where it ran before. Their config.matcher keeps
 * its meaning: the protected paths are added to it (Next.js runs the file
 * only where the matcher says), and their matcher, read as regular
 * expressions, tells protect() where to run their function.
 *
 * A pure text edit: every other byte kept, a second run changes nothing,
 * and what cannot be read with certainty (a matcher built at run time, a
 * pattern beyond plain segments, parameters and regular-expression groups,
 * `has`/`missing` conditions) is refused with the reason, for the user to
 * add the lines by hand.
 */
import type { Node, ObjectExpression, ObjectProperty } from "@babel/types";
import { collectBindings } from "../../ast/bindings.js";
import { appendToList, type ListShape, literalList, rangesOf } from "../../ast/list-edit.js";
import { endOf, propertyName, startOf, stringValue, unwrap } from "../../ast/nodes.js";
import { addImports, detachExport, fileStyle, findExport, type OwnExport } from "../../ast/own-export.js";
import { applyEdits, eol, firstSyntaxError, parse, type SourceFile, type TextEdit } from "../../ast/parse.js";

export interface MiddlewareWiring {
  /** The named export Next.js runs from this file: "middleware" (middleware.ts) or "proxy" (proxy.ts). */
  exportName: string;
  /** The generated module exporting protect(middleware, ownPaths?): "./auth/protect". */
  protectModule: string;
  /** Modules whose import means the file calls Auth.js itself already (the auth config, next-auth). */
  authModules: string[];
  /** --protect's paths, as config.matcher takes them. */
  protect: string[];
  /** middleware.ts needs `runtime: "nodejs"`: the adapter's database driver cannot load on the Edge runtime. */
  nodeRuntime: boolean;
  /** The name their function takes: "appMiddleware", "appProxy". */
  ownName: string;
}

export type MiddlewareEdit =
  | { status: "edited"; text: string }
  | { status: "unchanged" }
  | { status: "refused"; reason: string };

const refused = (reason: string): MiddlewareEdit => ({ status: "refused", reason });

/**
 * A matcher source as a regular expression over the request's path, or
 * undefined when it uses more of path-to-regexp than plain segments, whole-
 * segment parameters (`:name`, `:name*`, `:name+`, `:name?`) and groups
 * (`/((?!api|_next/static).*)`).
 */
export function matcherPattern(source: string): string | undefined {
  if (!source.startsWith("/")) return undefined;
  let pattern = "";
  let at = 0;
  while (at < source.length) {
    if (source[at] !== "/") return undefined;
    at++;
    const rest = source.slice(at);
    const param = /^:\w+([*+?]?)(?=\/|$)/.exec(rest);
    const literal = /^[\w.~-]*(?=\/|$)/.exec(rest);
    if (param) {
      pattern += param[1] ? { "*": "(?:\\/.*)?", "+": "\\/.+", "?": "(?:\\/[^/]+)?" }[param[1]]! : "\\/[^/]+";
      at += param[0].length;
    } else if (rest.startsWith("(")) {
      const close = groupEnd(source, at);
      if (close === undefined || !(close + 1 === source.length || source[close + 1] === "/")) return undefined;
      pattern += `\\/(?:${escapeSlashes(source.slice(at + 1, close))})`;
      at = close + 1;
    } else if (literal) {
      pattern += `\\/${literal[0].replace(/[.]/g, "\\.")}`;
      at += literal[0].length;
    } else return undefined;
  }
  const regex = `^${pattern || "\\/"}\\/?$`;
  try {
    new RegExp(regex);
  } catch {
    return undefined;
  }
  return regex;
}

/** The index of the `)` closing the group that opens at `open`, escapes and classes honoured. */
function groupEnd(text: string, open: number): number | undefined {
  let depth = 0;
  let inClass = false;
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === "\\") i++;
    else if (inClass) inClass = c !== "]";
    else if (c === "[") inClass = true;
    else if (c === "(") depth++;
    else if (c === ")" && --depth === 0) return i;
  }
  return undefined;
}

/** A regular expression's source with its bare slashes escaped, to sit in a `/.../` literal. */
function escapeSlashes(source: string): string {
  let out = "";
  for (let i = 0; i < source.length; i++) {
    if (source[i] === "\\") {
      out += source.slice(i, i + 2);
      i++;
    } else out += source[i] === "/" ? "\\/" : source[i];
  }
  return out;
}

interface OwnConfig {
  object: ObjectExpression;
  matcher: ObjectProperty | undefined;
  /** The matcher's sources, when every one is a literal string (or { source } without conditions). */
  sources: string[] | undefined;
}

/** `export const config = { ... }`, read; a reason when it is there but not an object literal. */
function readConfig(file: SourceFile): OwnConfig | undefined | string {
  const found = findExport(file, "config");
  if (found.kind === "none") return undefined;
  const init = found.kind === "variable" && found.init ? unwrap(found.init) : undefined;
  if (init?.type !== "ObjectExpression") return "its config is not an object literal";
  const matcher = init.properties.find((p): p is ObjectProperty => propertyName(p) === "matcher");
  if (!matcher) return { object: init, matcher: undefined, sources: [] };
  const value = unwrap(matcher.value);
  const entries: Node[] = value.type === "ArrayExpression" ? value.elements.filter((e) => e !== null) : [value];
  const sources = entries.map((entry) => {
    const text = stringValue(entry);
    if (text !== undefined) return text;
    if (entry.type !== "ObjectExpression") return undefined;
    const names = entry.properties.map(propertyName);
    // has/missing make Next.js's choice depend on headers and cookies, which a path pattern cannot say.
    if (names.some((n) => n !== "source" && n !== "locale")) return undefined;
    return stringValue(entry.properties.find((p): p is ObjectProperty => propertyName(p) === "source")?.value);
  });
  return { object: init, matcher, sources: sources.every((s) => s !== undefined) ? sources : undefined };
}

/** Their function: the named export Next.js reads from this file, or its default export (not both). */
function ownFunction(file: SourceFile, exportName: string): OwnExport | string {
  const named = findExport(file, exportName);
  const fallback = findExport(file, "default");
  if (named.kind !== "none" && fallback.kind !== "none")
    return `it exports both ${exportName} and a default; which one Next.js runs is not certain`;
  const found = named.kind === "none" ? fallback : named;
  if (found.kind === "none") return `it exports neither ${exportName} nor a default function`;
  if (found.kind === "unreadable") return found.reason;
  if (found.kind === "reexport") return `it re-exports its ${exportName} from ${found.from}`;
  return found;
}

export function composeMiddleware(text: string, wiring: MiddlewareWiring, fileName = "middleware.ts"): MiddlewareEdit {
  const file = parse(text, fileName);
  const syntax = firstSyntaxError(file);
  if (syntax) return refused(`it does not parse (${syntax})`);
  const bindings = collectBindings(file);
  if (bindings.some((b) => b.module === wiring.protectModule)) return { status: "unchanged" };
  const auth = bindings.find((b) => wiring.authModules.includes(b.module));
  if (auth) return refused(`it calls Auth.js already (it imports ${auth.local} from ${auth.module})`);
  const own = ownFunction(file, wiring.exportName);
  if (typeof own === "string") return refused(own);
  const config = readConfig(file);
  if (typeof config === "string") return refused(config);
  if (config?.sources === undefined && config?.matcher)
    return refused("its config.matcher is not a list of path strings create-auth can read");
  const theirs = config?.matcher ? config.sources!.map((s) => ({ source: s, pattern: matcherPattern(s) })) : [];
  const unread = theirs.find((t) => t.pattern === undefined);
  if (unread) return refused(`its matcher ${JSON.stringify(unread.source)} is more than paths create-auth can read`);
  const runtime = config?.object.properties.find((p): p is ObjectProperty => propertyName(p) === "runtime");
  if (wiring.nodeRuntime && runtime && stringValue(runtime.value) !== "nodejs")
    return refused("its config sets a runtime other than nodejs, where the auth config's database driver cannot load");

  const newline = eol(text);
  const semicolon = fileStyle(file).semicolon ? ";" : "";
  const imports = addImports(file, [{ name: "protect", from: wiring.protectModule }]);
  if ("reason" in imports) return refused(imports.reason);
  const detached = detachExport(file, own, wiring.ownName);
  if ("reason" in detached) return refused(detached.reason);
  const edits: TextEdit[] = [...imports.edits, ...detached.edits];

  const ownPaths = config?.matcher ? `, [${theirs.map((t) => `/${t.pattern}/`).join(", ")}]` : "";
  const exported = own.kind === "default" ? "export default" : `export const ${wiring.exportName} =`;
  const composed = [
    `// Sign-in first on the protected paths (${wiring.protectModule}), then ${detached.local}${config?.matcher ? " on the paths its matcher named" : ""}.`,
    `${exported} protect(${detached.local}${ownPaths})${semicolon}`,
    ...(!config && wiring.nodeRuntime
      ? [
          "",
          "// The auth config's database driver needs Node.js; the Edge runtime cannot load it.",
          `export const config = { runtime: "nodejs" }${semicolon}`,
        ]
      : []),
  ].join(newline);
  if (detached.replaced) edits.push({ start: startOf(detached.after), end: endOf(detached.after), text: composed });
  else
    edits.push({ start: endOf(detached.after), end: endOf(detached.after), text: `${newline}${newline}${composed}` });

  if (config?.matcher) edits.push(...matcherEdits(file, config.matcher, config.sources!, wiring.protect));
  if (config && wiring.nodeRuntime && !runtime) edits.push(...addProperty(file, config.object, 'runtime: "nodejs"'));
  return { status: "edited", text: applyEdits(text, edits) };
}

/** The protected paths not in the matcher yet, added to it (a lone string becomes a list). */
function matcherEdits(file: SourceFile, matcher: ObjectProperty, sources: string[], protect: string[]): TextEdit[] {
  const quote = fileStyle(file).quote;
  const missing = protect.filter((p) => !sources.includes(p)).map((p) => `${quote}${p}${quote}`);
  if (!missing.length) return [];
  const value = unwrap(matcher.value);
  if (value.type !== "ArrayExpression")
    return [
      {
        start: startOf(value),
        end: endOf(value),
        text: `[${[file.text.slice(startOf(value), endOf(value)), ...missing].join(", ")}]`,
      },
    ];
  const list: ListShape = literalList(file.text, value, rangesOf(value.elements.filter((e) => e !== null)), false);
  return appendToList(list, missing);
}

/** `property` added as the object's last property, in the object's layout. */
function addProperty(file: SourceFile, object: ObjectExpression, property: string): TextEdit[] {
  return appendToList(literalList(file.text, object, rangesOf(object.properties), true), [property]);
}
