/**
 * Token rotation wired into auth configs (fixtures/auth-configs/token-rotation/,
 * one folder per case): a config init wrote without token flags, the user's
 * own with callbacks and events of theirs, a second provider into a rotation
 * that exists, and the shapes where the edit is not certain, which are
 * refused with the lines to add by hand and the text untouched.
 */
import { describe, expect, it } from "vitest";
import { wireTokenRotation } from "../../src/ast/token-wiring/index.js";
import { loadTokenCases, type TokenCase } from "./cases.js";

const cases = loadTokenCases();

describe("fixtures/auth-configs/token-rotation", () => {
  it("covers accepted shapes and refusals", () => {
    expect(cases.filter((c) => c.output !== undefined).length).toBeGreaterThanOrEqual(6);
    expect(cases.filter((c) => c.refused).length).toBeGreaterThanOrEqual(5);
  });

  describe.each(cases.map((c): [string, TokenCase] => [c.name, c]))("%s", (_name, c) => {
    const result = wireTokenRotation(c.input, c.request, c.inputFile);

    if (c.refused) {
      it("is refused: says why, and carries the lines to add by hand", () => {
        if (result.status !== "refused") throw new Error(`expected a refusal, got ${result.status}`);
        expect(result.reason).toMatch(c.refused!);
        expect(result).not.toHaveProperty("text");
        expect(result.manual).toContain(`import { createTokenRotation } from "${c.request.rotationModule}";`);
        expect(result.manual).toContain("export const getAccessToken = tokens.getAccessToken;");
        expect(result.manual).toContain("tokens.refreshOnRead(");
      });
      return;
    }

    it("produces exactly the expected output", () => {
      if (result.status === "refused") throw new Error(`refused: ${result.reason}`);
      expect(result.text).toBe(c.output);
    });

    it("is idempotent: the same wiring on the output changes nothing", () => {
      expect(wireTokenRotation(c.output!, c.request, c.inputFile)).toEqual({ status: "unchanged", text: c.output });
    });

    it("keeps the text of every line of the input (a wrapped callback re-indented, the adapter moved to its const)", () => {
      const text = (line: string) =>
        line
          .trim()
          .replace(/^(?:async )?(?:\w+: )?(?:async )?/, "")
          .replace(/\]?[,;]?$/, "");
      const missing = c.input.split("\n").filter((line) => !c.output!.includes(text(line)));
      expect(missing).toEqual([]);
    });
  });
});
