/**
 * The ts-morph values the transforms use, loaded with `require`. A static ESM
 * import of this CommonJS package makes Node scan its 1 MB entry for export
 * names before running it, about 100 ms of a cold `add-provider` on top of
 * the compiler itself; `require` skips that scan. Types still come from the
 * package through `import type`, which costs nothing at run time.
 */
import { createRequire } from "node:module";
import type * as TsMorph from "ts-morph";

const morph = createRequire(import.meta.url)("ts-morph") as typeof TsMorph;

export const Node = morph.Node;
export type Node<T extends TsMorph.ts.Node = TsMorph.ts.Node> = TsMorph.Node<T>;
export const Project = morph.Project;
export type Project = TsMorph.Project;
export const SyntaxKind = morph.SyntaxKind;
export const ts = morph.ts;
export type Diagnostic = TsMorph.ts.Diagnostic;
export type { ArrayLiteralExpression, Expression, SourceFile, Statement } from "ts-morph";
