import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { changesOfParts } from "../../src/workspace/parts-to-changes.js";
import { tempDir } from "../helpers.js";

/** A project holding `files` (relative path -> text). */
function project(files: Record<string, string>): string {
  const dir = tempDir();
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, path), text);
  return dir;
}

describe("a plan's parts read into changes", () => {
  it("leaves a file of the project's own alone unless forced or it holds what the part replaces", () => {
    const dir = project({ "own.ts": "mine\n", "old.ts": "generated before\n", "same.ts": "same\n" });
    const part = {
      files: [
        { path: "own.ts", contents: "ours\n" },
        { path: "old.ts", contents: "generated now\n", replaces: "generated before\n" },
        { path: "same.ts", contents: "same\n" },
        { path: "new.ts", contents: "new\n" },
      ],
    };
    const kept = changesOfParts(dir, [part], { force: false });
    expect(kept.leftAlone).toEqual(["own.ts"]);
    expect(kept.changes.map((c) => [c.path, c.before, c.after])).toEqual([
      [join(dir, "old.ts"), "generated before\n", "generated now\n"],
      [join(dir, "new.ts"), null, "new\n"],
    ]);
    const forced = changesOfParts(dir, [part], { force: true });
    expect(forced.leftAlone).toEqual([]);
    expect(forced.changes.map((c) => c.path)).toEqual(["own.ts", "old.ts", "new.ts"].map((f) => join(dir, f)));
  });

  it("writes an ifMissing file only where none is, applies edits whatever stands there, and removes", () => {
    const dir = project({ "kept.ts": "edited by the user\n", "config.ts": "before\n", "gone.ts": "x\n" });
    const { changes, leftAlone } = changesOfParts(
      dir,
      [
        {
          ifMissing: [
            { path: "kept.ts", contents: "fresh\n" },
            { path: "made.ts", contents: "fresh\n" },
          ],
        },
        { edits: [{ path: "config.ts", contents: "merged\n" }], removed: ["gone.ts", "never-was.ts"] },
      ],
      { force: false },
    );
    expect(leftAlone).toEqual([]);
    expect(changes).toEqual([
      { path: join(dir, "made.ts"), before: null, after: "fresh\n" },
      { path: join(dir, "config.ts"), before: "before\n", after: "merged\n" },
      { path: join(dir, "gone.ts"), before: "x\n", after: "", remove: true },
    ]);
  });

  it("takes absolute paths as they are, and keeps the parts' order", () => {
    const dir = project({});
    const elsewhere = join(project({}), "shared.ts");
    const { changes } = changesOfParts(
      dir,
      [{ files: [{ path: "b.ts", contents: "b" }] }, { edits: [{ path: elsewhere, contents: "s" }] }],
      { force: false },
    );
    expect(changes.map((c) => c.path)).toEqual([join(dir, "b.ts"), elsewhere]);
  });
});
