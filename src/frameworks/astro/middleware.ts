/**
 * A src/middleware module of the project's own, under --protect: the check
 * of protect.ts composed with their onRequest through sequence() of
 * astro:middleware, the edit of src/ast/sequence-export.ts; or, where that
 * edit is not certain, the module left alone and the exact lines to add.
 */
import type { FrameworkPart, OwnFile } from "../framework.js";

export async function ownMiddlewareEdit(wiring: FrameworkPart, own: OwnFile, protectModule: string): Promise<void> {
  const { composeSequence, sequenceLines } = await import("../../ast/sequence-export.js");
  const sequence = {
    exportName: "onRequest",
    sequenceFrom: "astro:middleware",
    handlers: [{ name: "protect", from: protectModule }],
    ownName: "appOnRequest",
    comment: [
      "// Visitors who are not signed in go to sign in first on the protected paths, then the app's own middleware runs.",
    ],
  };
  const edit = composeSequence(own.text, sequence, own.path);
  if (edit.status === "edited") wiring.edits.push({ path: own.path, contents: edit.text });
  else if (edit.status === "refused")
    wiring.steps.push(
      `${own.path} was left alone (${edit.reason}); to protect pages, add to it (your own onRequest renamed appOnRequest, if it has one):\n    ${sequenceLines(sequence, "appOnRequest").join("\n    ")}`,
    );
}
