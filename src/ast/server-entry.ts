/**
 * Mounting Auth.js in a server's own entry module (Hono, Fastify, Elysia,
 * Express): an import put first (the env loader: it must run before the
 * modules that read process.env), an import after the last one, and the
 * mount right after the statement that creates the app — or, where the app
 * is built as one chain (`new Elysia().get(...)`), right after its
 * construction in the chain. A pure text edit: every other byte stays; a
 * second run finds the marker and changes nothing; an entry it cannot read
 * with certainty is refused with the reason, and the user adds the lines.
 */
import type { Node } from "@babel/types";
import { descendants, endOf, ofType, parentOf, startOf } from "./nodes.js";
import { applyEdits, eol, firstSyntaxError, parse, type TextEdit } from "./parse.js";

export interface EntryWiring {
  /** How the app is created: `new Hono(...)` is { callee: "Hono", construct: true }; `Fastify(...)` is a call. */
  callee: string;
  construct: boolean;
  /** A side-effect import that must come before every other ("./load-env.js"). */
  firstImport?: string;
  /** Import lines added after the last import. */
  imports: string[];
  /**
   * What the mount adds after the app's creation; `$app` stands for the
   * app's binding. A statement per line for a declared app; in a chain, the
   * text is spliced after the constructor call (e.g. `\n  .all(...)`).
   */
  mount: string;
  /** In a chain, what is spliced instead of `mount` when the two differ (`\n  .all(...)`). */
  chain?: string;
  /** Text whose presence means the entry is wired already. */
  marker: string;
}

export type EntryEdit =
  | { status: "edited"; text: string }
  | { status: "unchanged" }
  | { status: "refused"; reason: string };

const isCreation = (node: Node, wiring: EntryWiring) => {
  const kind = wiring.construct ? "NewExpression" : "CallExpression";
  return node.type === kind && node.callee.type === "Identifier" && node.callee.name === wiring.callee;
};

export function wireServerEntry(text: string, wiring: EntryWiring, fileName = "index.ts"): EntryEdit {
  if (text.includes(wiring.marker)) return { status: "unchanged" };
  const file = parse(text, fileName);
  const syntax = firstSyntaxError(file);
  if (syntax) return { status: "refused", reason: `it does not parse (${syntax})` };
  const creations = descendants(file.root.program, (n) => isCreation(n, wiring));
  if (creations.length !== 1)
    return {
      status: "refused",
      reason: creations.length
        ? `it creates ${creations.length} ${wiring.callee} apps; which one serves the pages is not certain`
        : `no ${wiring.construct ? "new " : ""}${wiring.callee}(...) was found in it`,
    };
  const creation = creations[0]!;
  const newline = eol(text);
  const edits: TextEdit[] = [];
  const declarator = parentOf(file.root.program, creation);
  const statement = file.statements.find((s) => startOf(s) <= startOf(creation) && endOf(s) >= endOf(creation));
  if (declarator?.type === "VariableDeclarator" && declarator.id.type === "Identifier" && statement) {
    const lines = wiring.mount.replaceAll("$app", declarator.id.name).split("\n").join(newline);
    edits.push({ start: endOf(statement), end: endOf(statement), text: `${newline}${newline}${lines}` });
  } else if (declarator?.type === "MemberExpression" && declarator.object === creation) {
    const chain = wiring.chain ?? wiring.mount;
    edits.push({ start: endOf(creation), end: endOf(creation), text: chain.split("\n").join(newline) });
  } else {
    return {
      status: "refused",
      reason: `its ${wiring.callee} app is neither assigned to a const nor built in a chain`,
    };
  }
  const imports = file.statements.filter(ofType("ImportDeclaration"));
  const lastImport = imports.at(-1);
  const importAt = lastImport ? endOf(lastImport) : 0;
  const importText = wiring.imports.join(newline);
  if (importText)
    edits.push(
      lastImport
        ? { start: importAt, end: importAt, text: `${newline}${importText}` }
        : { start: 0, end: 0, text: `${importText}${newline}` },
    );
  if (wiring.firstImport) {
    const at = imports[0] ? startOf(imports[0]) : 0;
    edits.push({ start: at, end: at, text: `import "${wiring.firstImport}";${newline}` });
  }
  return { status: "edited", text: applyEdits(text, edits) };
}
