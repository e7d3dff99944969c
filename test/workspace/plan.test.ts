import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { applyPlan, changeFile, renderDiff } from "../../src/workspace/plan.js";
import { tempDir } from "../helpers.js";

describe("plan, then apply", () => {
  it("changeFile is null when nothing would change", () => {
    const dir = tempDir();
    writeFileSync(join(dir, "a.txt"), "same\n");
    expect(changeFile(join(dir, "a.txt"), "same\n")).toBeNull();
    expect(changeFile(join(dir, "a.txt"), "other\n")).toEqual({
      path: join(dir, "a.txt"),
      before: "same\n",
      after: "other\n",
    });
    expect(changeFile(join(dir, "new.txt"), "x")).toMatchObject({ before: null });
  });

  it("writes every file, creating directories", () => {
    const dir = tempDir();
    applyPlan([changeFile(join(dir, "deep", "b.ts"), "b")!, changeFile(join(dir, "c.ts"), "c")!]);
    expect(readFileSync(join(dir, "deep", "b.ts"), "utf8")).toBe("b");
    expect(readFileSync(join(dir, "c.ts"), "utf8")).toBe("c");
    expect(readdirSync(dir).filter((f) => f.endsWith(".tmp"))).toEqual([]);
  });

  it("a failure part-way leaves no file written and no temporary file behind", () => {
    if (process.getuid?.() === 0) {
      // root ignores permissions; make the second target impossible instead: its parent is a file.
      const dir = tempDir();
      writeFileSync(join(dir, "blocker"), "");
      const plan = [
        changeFile(join(dir, "first.ts"), "1")!,
        { path: join(dir, "blocker", "second.ts"), before: null, after: "2" },
      ];
      expect(() => applyPlan(plan)).toThrow();
      expect(existsSync(join(dir, "first.ts"))).toBe(false);
      expect(readdirSync(dir)).toEqual(["blocker"]);
      return;
    }
    const dir = tempDir();
    mkdirSync(join(dir, "locked"));
    chmodSync(join(dir, "locked"), 0o500);
    expect(() =>
      applyPlan([changeFile(join(dir, "first.ts"), "1")!, changeFile(join(dir, "locked", "second.ts"), "2")!]),
    ).toThrow();
    expect(existsSync(join(dir, "first.ts"))).toBe(false);
  });

  it("renders a unified diff for --dry-run", async () => {
    const dir = tempDir();
    writeFileSync(join(dir, "auth.ts"), "one\ntwo\n");
    const diff = await renderDiff(
      [changeFile(join(dir, "auth.ts"), "one\ntwo\nthree\n")!, changeFile(join(dir, "new.ts"), "hello\n")!],
      dir,
    );
    expect(diff).toMatch(/--- a\/auth\.ts\n\+\+\+ b\/auth\.ts\n@@ -1,2 \+1,3 @@\n one\n two\n\+three/);
    expect(diff).toMatch(/--- \/dev\/null\n\+\+\+ b\/new\.ts/);
  });
});
