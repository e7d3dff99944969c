/**
 * Adds one provider (its imports and its `providers` entry) to a user's
 * Auth.js config, as text in and text (or a refusal) out. It runs as small
 * passes over fresh parses (entry, then unused imports, then new imports) so
 * each pass's text edits are made against positions that are still true.
 * Load it with `await import(...)`: the parser is half a megabyte of code.
 */
import type { Node } from "@babel/types";
import type { ImportSpec } from "../render/parts.js";
import { isCommonJs } from "./bindings.js";
import { findProvidersArray } from "./find-providers.js";
import { formatImport, guessImportStyle, type ImportStyle, importStyle, planImports, removeUnused } from "./imports.js";
import { appendToList, literalList } from "./list-edit.js";
import { findExisting } from "./match-provider.js";
import { rangeWithParens } from "./nodes.js";
import { applyEdits, eol, firstSyntaxError, indentAt, lineAt, parse, parseExpression, reindent } from "./parse.js";
import { referencedNames } from "./references.js";

export interface ProviderEdit {
  id: string;
  imports: ImportSpec[];
  entry: string;
  force?: boolean;
}

export type EditResult =
  | { status: "added" | "replaced"; text: string }
  /** The same entry and imports are already there: nothing to do. */
  | { status: "unchanged"; text: string }
  /** The source is untouched; `manual` holds the import lines and the entry, to paste by hand. */
  | { status: "refused"; reason: string; manual: string };

export function addProviderToConfig(source: string, edit: ProviderEdit, fileName?: string): EditResult {
  try {
    return editConfig(source, edit, fileName);
  } catch (error) {
    // A shape the passes did not foresee must not crash the command: the user still gets the snippet.
    const reason = `create-auth could not edit this file (${error instanceof Error ? error.message : String(error)}).`;
    return { status: "refused", reason, manual: manualSnippet(edit, guessImportStyle(source)) };
  }
}

function editConfig(source: string, edit: ProviderEdit, fileName?: string): EditResult {
  const file = parse(source, fileName);
  const unreadable = file.statements.length === 0 && file.syntaxErrors.length > 0;
  const style = unreadable ? guessImportStyle(source) : importStyle(file, isCommonJs(file));
  const refuse = (reason: string): EditResult => ({ status: "refused", reason, manual: manualSnippet(edit, style) });

  if (!parseExpression(edit.entry))
    return refuse(`The provider entry \`${edit.entry}\` is not a single valid expression.`);
  const syntaxError = firstSyntaxError(file);
  if (syntaxError) return refuse(`The file does not parse (${syntaxError}), so it cannot be edited safely.`);

  const target = findProvidersArray(file);
  if ("refusal" in target) return refuse(target.refusal);
  const { array } = target;
  const existing = findExisting(file, array, edit.id, edit.entry);
  const imports = planImports(file, edit.imports, style);
  if (existing.exact && "edits" in imports && imports.edits.length === 0) return { status: "unchanged", text: source };

  const text = source;
  const rangeOf = (element: Node) => rangeWithParens(text, element);
  const [current, ...duplicates] = existing.sameId;
  if (current) {
    const { start, end } = rangeOf(current);
    const where = `line ${lineAt(text, start)} (\`${text.slice(start, end).split("\n")[0]}\`)`;
    if (duplicates.length) {
      const lines = existing.sameId.map((e) => lineAt(text, rangeOf(e).start)).join(", ");
      return refuse(
        `Several providers already have id "${edit.id}" (lines ${lines}); ids must be unique, so fix the list by hand.`,
      );
    }
    if (!edit.force)
      return refuse(
        `A provider with id "${edit.id}" is already in \`providers\` at ${where}; pass --force to replace it.`,
      );
  }

  // Pass 1: the entry itself, appended or in place of the provider with the same id.
  const nl = eol(text);
  let next: string;
  let removedNames = new Set<string>();
  if (current) {
    removedNames = referencedNames(current);
    const { start, end } = rangeOf(current);
    next = applyEdits(text, [{ start, end, text: reindent(edit.entry, indentAt(text, start), nl) }]);
  } else {
    // findProvidersArray refuses arrays with holes, so every element is a node.
    const elements = array.elements.flatMap((e) => (e ? [rangeOf(e)] : []));
    next = applyEdits(text, appendToList(literalList(text, array, elements, false), [edit.entry]));
  }

  // Pass 2: imports only the replaced provider used. One edit per statement per round, so loop.
  for (let round = 0; round < 10 && removedNames.size; round++) {
    const edits = removeUnused(parse(next, fileName), removedNames);
    if (edits.length === 0) break;
    next = applyEdits(next, edits);
  }

  // Pass 3: the new imports, after removals so a replaced binding no longer clashes.
  const plan = planImports(parse(next, fileName), edit.imports, style);
  if ("conflict" in plan) return refuse(plan.conflict);
  next = applyEdits(next, plan.edits);

  // Never hand back text that would break the user's build.
  const broken = firstSyntaxError(parse(next, fileName));
  if (broken) return refuse(`Adding the provider would produce invalid code (${broken}); this is a create-auth bug.`);
  return { status: current ? "replaced" : "added", text: next };
}

/** What to paste by hand when the edit is refused. */
function manualSnippet(edit: ProviderEdit, style: ImportStyle): string {
  const lines = edit.imports.map((spec) => formatImport(spec, style));
  return `${lines.join("\n")}${lines.length ? "\n\n" : ""}providers: [..., ${edit.entry}]`;
}
