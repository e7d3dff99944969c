/**
 * A src/hooks.server module of the project's own: Auth.js's handle (and
 * --protect's) composed with the project's through sequence(), the edit of
 * src/ast/sequence-export.ts; or, where that edit is not certain, the
 * module left alone and the exact lines to add.
 */
import type { FrameworkPart, OwnFile } from "../framework.js";

export async function ownHooksEdit(
  wiring: FrameworkPart,
  own: OwnFile,
  modules: { configPath: string; configModule: string; protectModule: string | undefined },
): Promise<void> {
  const { composeSequence, sequenceLines } = await import("../../ast/sequence-export.js");
  const sequence = {
    exportName: "handle",
    sequenceFrom: "@sveltejs/kit/hooks",
    handlers: [
      { name: "handle", local: "authHandle", from: modules.configModule },
      ...(modules.protectModule ? [{ name: "protect", from: modules.protectModule }] : []),
    ],
    ownName: "appHandle",
    comment: [
      `// Auth.js's handle first (event.locals.auth() reads the session)${modules.protectModule ? ", then protect (sign-in first on the paths it lists)" : ""}, then the app's own.`,
    ],
  };
  const edit = composeSequence(own.text, sequence, own.path);
  const lines = sequenceLines(sequence, "appHandle");
  // Init drops the edit when the project keeps an auth config of its own, and says this instead.
  const protect = modules.protectModule ? `, protect of ${modules.protectModule}` : "";
  wiring.instructions[own.path] =
    `export const handle = sequence(<the handle of ${modules.configPath}>${protect}, <your handle>), with sequence() from @sveltejs/kit/hooks`;
  if (edit.status === "edited") wiring.edits.push({ path: own.path, contents: edit.text });
  else if (edit.status === "refused")
    wiring.steps.push(
      `${own.path} was left alone (${edit.reason}); in it, add (your own handle renamed appHandle, if it has one):\n    ${lines.join("\n    ")}`,
    );
}
