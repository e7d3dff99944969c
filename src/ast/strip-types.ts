/**
 * A TypeScript module as the JavaScript a JavaScript project keeps: its
 * types erased, everything else byte for byte (comments, formatting, blank
 * lines). Annotations, type arguments and parameters, `as`/`satisfies`/`!`,
 * interfaces, type aliases, type-only imports and exports, `declare`
 * blocks and fields, and class members' `readonly`, `private`, `override`,
 * `?` and `!` go; a line left holding nothing goes with its comment. Syntax that
 * is not erasable (enums, namespaces with values, parameter properties,
 * `import x = require()`) is refused: JavaScript has no way to say it.
 */
import type { Node } from "@babel/types";
import { descendants, endOf, rangeWithParens, startOf } from "./nodes.js";
import { applyEdits, firstSyntaxError, parse, type SourceFile, type TextEdit } from "./parse.js";

/** Nodes that are types and nothing else, wherever they stand. */
const typeOnly = new Set([
  "TSTypeAnnotation",
  "TSTypeParameterDeclaration",
  "TSTypeParameterInstantiation",
  "TSInterfaceDeclaration",
  "TSTypeAliasDeclaration",
  "TSDeclareFunction",
]);
const notErasable = new Set([
  "TSEnumDeclaration",
  "TSImportEqualsDeclaration",
  "TSExportAssignment",
  "TSParameterProperty",
]);

/**
 * The whole lines a removed range stands alone on, else the range itself; with `comments`, the comments right
 * above it too (what documents a removed interface goes with it; a file's header above an import stays).
 */
function wholeLines(file: SourceFile, start: number, end: number, comments: boolean): { start: number; end: number } {
  const { text } = file;
  const lineStart = text.lastIndexOf("\n", start - 1) + 1;
  const newline = text.indexOf("\n", end);
  const lineEnd = newline === -1 ? text.length : newline + 1;
  if (text.slice(lineStart, start).trim() || text.slice(end, lineEnd).trim()) return { start, end };
  // Comments that end on the line right above describe what goes: they go too.
  let from = lineStart;
  for (const comment of comments ? [...file.comments].reverse() : []) {
    if (endOf(comment as unknown as Node) > from) continue;
    const between = text.slice(endOf(comment as unknown as Node), from);
    const commentLine = text.lastIndexOf("\n", startOf(comment as unknown as Node) - 1) + 1;
    if (!/^[ \t]*\r?\n$/.test(between) || text.slice(commentLine, startOf(comment as unknown as Node)).trim()) break;
    from = commentLine;
  }
  return { start: from, end: lineEnd };
}

function specifierName(node: Node): string {
  if (node.type === "Identifier") return node.name;
  return node.type === "StringLiteral" ? JSON.stringify(node.value) : "";
}

/** An import or export whose type-only specifiers go: rewritten with the rest, or removed when none is left. */
function keptSpecifiers(text: string, statement: Node): TextEdit | undefined {
  if (statement.type === "ImportDeclaration") {
    const kept = statement.specifiers.filter((s) => !(s.type === "ImportSpecifier" && s.importKind === "type"));
    if (kept.length === statement.specifiers.length) return undefined;
    if (kept.length === 0) return { start: startOf(statement), end: endOf(statement), text: "" };
    const defaults = kept.filter((s) => s.type !== "ImportSpecifier").map((s) => text.slice(startOf(s), endOf(s)));
    const named = kept.filter((s) => s.type === "ImportSpecifier").map((s) => text.slice(startOf(s), endOf(s)));
    const source = text.slice(startOf(statement.source), endOf(statement.source));
    const clause = [...defaults, ...(named.length ? [`{ ${named.join(", ")} }`] : [])].join(", ");
    return { start: startOf(statement), end: endOf(statement), text: `import ${clause} from ${source};` };
  }
  if (statement.type === "ExportNamedDeclaration" && !statement.declaration) {
    const kept = statement.specifiers.filter((s) => !(s.type === "ExportSpecifier" && s.exportKind === "type"));
    if (kept.length === statement.specifiers.length) return undefined;
    if (kept.length === 0) return { start: startOf(statement), end: endOf(statement), text: "" };
    const names = kept.map((s) =>
      s.type === "ExportSpecifier" && specifierName(s.local) !== specifierName(s.exported)
        ? `${specifierName(s.local)} as ${specifierName(s.exported)}`
        : specifierName(s.exported),
    );
    const from = statement.source ? ` from ${text.slice(startOf(statement.source), endOf(statement.source))}` : "";
    return { start: startOf(statement), end: endOf(statement), text: `export { ${names.join(", ")} }${from};` };
  }
  return undefined;
}

/**
 * The types a module's top-level declarations lose, kept as JSDoc an editor
 * and `checkJs` read: `const x = {...} satisfies T` gets `@satisfies {T}`,
 * `const x: T` gets `@type {T}`, a function its `@param`s and `@returns`;
 * a type the module imported is named `import("module").Name`. A type that
 * names the module's own interfaces or aliases (gone with them) gets no tag.
 */
function jsdocEdits(file: SourceFile): TextEdit[] {
  const { text } = file;
  const imported = new Map<string, string>();
  const local = new Set<string>();
  for (const statement of file.statements) {
    const declaration = statement.type === "ExportNamedDeclaration" ? statement.declaration : statement;
    if (declaration?.type === "TSInterfaceDeclaration" || declaration?.type === "TSTypeAliasDeclaration")
      local.add(declaration.id.name);
    if (statement.type !== "ImportDeclaration") continue;
    const from = JSON.stringify(statement.source.value);
    // A project module's types go with its TypeScript: a type it exported is named by nothing once it is JavaScript.
    const erased = statement.source.value.startsWith(".");
    for (const spec of statement.specifiers) {
      if (
        erased &&
        (statement.importKind === "type" || (spec.type === "ImportSpecifier" && spec.importKind === "type"))
      ) {
        local.add(spec.local.name);
        continue;
      }
      if (spec.type === "ImportNamespaceSpecifier") imported.set(spec.local.name, `import(${from})`);
      else if (spec.type === "ImportDefaultSpecifier") imported.set(spec.local.name, `import(${from}).default`);
      else if (statement.importKind === "type" || spec.importKind === "type")
        imported.set(spec.local.name, `import(${from}).${specifierName(spec.imported)}`);
    }
  }
  const typeText = (annotation: Node | null | undefined): string | undefined => {
    const type = annotation?.type === "TSTypeAnnotation" ? annotation.typeAnnotation : annotation;
    if (!type) return undefined;
    const edits: TextEdit[] = [];
    const refs = [type, ...descendants(type, () => true)].filter(
      (n) => n.type === "TSTypeReference" || n.type === "TSExpressionWithTypeArguments",
    );
    for (const reference of refs) {
      let name = (reference as { typeName?: Node }).typeName;
      while (name?.type === "TSQualifiedName") name = name.left;
      if (name?.type !== "Identifier") continue;
      if (local.has(name.name)) return undefined;
      const replacement = imported.get(name.name);
      if (replacement)
        edits.push({ start: startOf(name) - startOf(type), end: endOf(name) - startOf(type), text: replacement });
    }
    return applyEdits(text.slice(startOf(type), endOf(type)), edits).replace(/\s+/g, " ");
  };
  const out: TextEdit[] = [];
  for (const statement of file.statements) {
    const declaration =
      statement.type === "ExportNamedDeclaration" || statement.type === "ExportDefaultDeclaration"
        ? statement.declaration
        : statement;
    const tags: string[] = [];
    if (declaration?.type === "VariableDeclaration" && declaration.declarations.length === 1) {
      const [declarator] = declaration.declarations;
      const annotated = declarator!.id.type === "Identifier" ? typeText(declarator!.id.typeAnnotation) : undefined;
      const satisfied =
        declarator!.init?.type === "TSSatisfiesExpression" ? typeText(declarator!.init.typeAnnotation) : undefined;
      if (annotated) tags.push(`@type {${annotated}}`);
      else if (satisfied) tags.push(`@satisfies {${satisfied}}`);
    } else if (
      declaration?.type === "FunctionDeclaration" &&
      declaration.params.every((p) => p.type === "Identifier")
    ) {
      for (const param of declaration.params) {
        if (param.type !== "Identifier") continue;
        const type = typeText(param.typeAnnotation);
        if (type) tags.push(`@param {${type}} ${param.optional ? `[${param.name}]` : param.name}`);
      }
      const returns = typeText(declaration.returnType);
      if (returns) tags.push(`@returns {${returns}}`);
    }
    if (tags.length) out.push(docWith(file, statement, tags));
  }
  return out;
}

/** The statement's doc comment with `tags` added, or a new one above it. */
function docWith(file: SourceFile, statement: Node, tags: string[]): TextEdit {
  const { text } = file;
  const lineStart = text.lastIndexOf("\n", startOf(statement) - 1) + 1;
  const indent = /^[ \t]*/.exec(text.slice(lineStart))![0];
  const doc = file.comments.find(
    (c) =>
      c.type === "CommentBlock" &&
      c.value.startsWith("*") &&
      /^[ \t]*\r?\n[ \t]*$/.test(text.slice(endOf(c as unknown as Node), startOf(statement))),
  );
  const tagLines = tags.map((tag) => `${indent} * ${tag}`);
  if (!doc) {
    const block =
      tags.length === 1 ? `${indent}/** ${tags[0]} */` : `${indent}/**\n${tagLines.join("\n")}\n${indent} */`;
    return { start: lineStart, end: lineStart, text: `${block}\n` };
  }
  // The comment's own lines without their leading ` * `, then the tags.
  const own = doc.value
    .replace(/^\*/, "")
    .split("\n")
    .map((line) => (/^\s*\*/.test(line) ? line.replace(/^\s*\* ?/, "") : line.trim()).trimEnd());
  while (own[0] === "") own.shift();
  while (own.at(-1) === "") own.pop();
  const lines = [...own.map((line) => (line ? `${indent} * ${line}` : `${indent} *`)), ...tagLines];
  return {
    start: startOf(doc as unknown as Node),
    end: endOf(doc as unknown as Node),
    text: `/**\n${lines.join("\n")}\n${indent} */`,
  };
}

/**
 * A class member's TypeScript-only words: `readonly`, `public`/`private`/`protected` and `override` before its
 * name (`static`, `async`, `get` stay), and the `?` or `!` after it (`name?: T`, `name!: T`).
 */
function memberModifiers(
  text: string,
  member: Extract<Node, { type: "ClassProperty" | "ClassMethod" | "ClassPrivateProperty" }>,
): TextEdit[] {
  const edits: TextEdit[] = [];
  const computed = "computed" in member && member.computed;
  const keyStart = computed ? text.lastIndexOf("[", startOf(member.key)) : startOf(member.key);
  const head = text.slice(startOf(member), keyStart);
  for (const word of head.matchAll(/\b(?:readonly|public|private|protected|override)\b\s*/g))
    edits.push({ start: startOf(member) + word.index, end: startOf(member) + word.index + word[0].length, text: "" });
  if (member.type !== "ClassMethod" && (member.optional || ("definite" in member && member.definite))) {
    let at = computed ? text.indexOf("]", endOf(member.key)) + 1 : endOf(member.key);
    while (/\s/.test(text[at] ?? "")) at++;
    if (text[at] === "?" || text[at] === "!") edits.push({ start: at, end: at + 1, text: "" });
  }
  if (member.type === "ClassMethod" && member.optional) {
    const at = endOf(member.key);
    if (text[at] === "?") edits.push({ start: at, end: at + 1, text: "" });
  }
  return edits;
}

/** The JavaScript of a TypeScript module; throws an Error naming what cannot be erased. */
export function stripTypes(text: string, fileName = "module.ts"): string {
  const file = parse(text, fileName);
  const syntax = firstSyntaxError(file);
  if (syntax) throw new Error(`${fileName} does not parse (${syntax})`);
  const edits: TextEdit[] = [];
  const drop = (start: number, end: number) => edits.push({ start, end, text: "" });
  const dropStatement = (node: Node) => {
    const documented =
      !/^(?:Import|Export\w*)Declaration$/.test(node.type) ||
      (node.type === "ExportNamedDeclaration" && node.declaration !== null);
    const range = wholeLines(file, startOf(node), endOf(node), documented);
    drop(range.start, range.end);
  };
  for (const node of descendants(file.root.program, () => true)) {
    if (notErasable.has(node.type))
      throw new Error(`${fileName}: ${node.type.replace(/^TS/, "")} has no JavaScript form; write it without`);
    if (node.type === "ImportDeclaration" && (node.importKind === "type" || node.importKind === "typeof"))
      dropStatement(node);
    else if (node.type === "ExportNamedDeclaration" && node.exportKind === "type") dropStatement(node);
    else if (node.type === "ExportAllDeclaration" && node.exportKind === "type") dropStatement(node);
    else if (node.type === "ImportDeclaration" || node.type === "ExportNamedDeclaration") {
      const edit = keptSpecifiers(text, node);
      if (edit?.text === "") dropStatement(node);
      else if (edit) edits.push(edit);
    } else if (node.type === "TSModuleDeclaration" && node.declare) dropStatement(node);
    else if (typeOnly.has(node.type)) {
      if (node.type.endsWith("Declaration") || node.type === "TSDeclareFunction") dropStatement(node);
      else drop(startOf(node), endOf(node));
    } else if (
      node.type === "TSAsExpression" ||
      node.type === "TSSatisfiesExpression" ||
      node.type === "TSNonNullExpression"
    )
      // After the expression's own parentheses: `(await response.json()) as T` keeps its `)`.
      drop(rangeWithParens(text, node.expression).end, endOf(node));
    else if (node.type === "TSTypeAssertion") drop(startOf(node), rangeWithParens(text, node.expression).start);
    else if (node.type === "TSInstantiationExpression") drop(endOf(node.expression), endOf(node));
    else if ((node.type === "Identifier" || node.type === "ObjectPattern") && "optional" in node && node.optional) {
      // `b?: number` in a parameter list: the `?` after the name (its annotation goes on its own).
      const at = node.type === "Identifier" ? startOf(node) + node.name.length : text.indexOf("?", startOf(node));
      if (text[at] === "?") drop(at, at + 1);
    } else if (node.type === "VariableDeclarator" && node.definite && node.id.type === "Identifier") {
      const at = startOf(node.id) + node.id.name.length;
      if (text[at] === "!") drop(at, at + 1);
    } else if (node.type === "TSDeclareMethod" || (node.type === "ClassProperty" && node.declare)) dropStatement(node);
    else if (node.type === "ClassProperty" || node.type === "ClassMethod" || node.type === "ClassPrivateProperty") {
      if ("abstract" in node && node.abstract)
        throw new Error(`${fileName}: an abstract member has no JavaScript form; write it without`);
      edits.push(...memberModifiers(text, node));
    } else if ((node.type === "ClassDeclaration" || node.type === "ClassExpression") && node.implements?.length) {
      const keyword = text.lastIndexOf("implements", startOf(node.implements[0]!));
      drop(keyword, endOf(node.implements.at(-1)!));
    }
  }
  edits.push(...jsdocEdits(file));
  // Outermost first: a range inside one already removed is gone with it.
  const sorted = edits.sort((a, b) => a.start - b.start || b.end - a.end);
  const outer: TextEdit[] = [];
  for (const edit of sorted) {
    const last = outer.at(-1);
    if (last && edit.start < last.end) continue;
    outer.push(edit);
  }
  // A space left before what went (`x: T` in `(x: T)`, ` as T`) is the type's own; trimmed with it.
  return applyEdits(text, outer).replace(/\n{3,}/g, "\n\n");
}
