import { describe, expect, it } from "vitest";
import { addProviderToConfig } from "../../src/ast/insert-provider.js";
import { type ConfigCase, expectedStatus, loadCases } from "./cases.js";

const cases = loadCases();

describe("fixtures/auth-configs", () => {
  it("covers enough accepted shapes and refusals", () => {
    expect(cases.filter((c) => !c.refused).length).toBeGreaterThanOrEqual(15);
    expect(cases.filter((c) => c.refused).length).toBeGreaterThanOrEqual(4);
  });

  describe.each(cases.map((c): [string, ConfigCase] => [c.name, c]))("%s", (_name, c) => {
    const result = addProviderToConfig(c.input, c.edit, c.inputFile);

    it(`is ${expectedStatus(c)}`, () => {
      expect(result.status).toBe(expectedStatus(c));
    });

    if (c.refused) {
      it("says why, leaves the text alone, and carries the snippet to paste by hand", () => {
        if (result.status !== "refused") throw new Error(`expected a refusal, got ${result.status}`);
        expect(result.reason).toMatch(c.refused!);
        expect(result).not.toHaveProperty("text");
        expect(result.manual).toContain(c.edit.entry);
        expect(result.manual).toContain(`providers: [..., ${c.edit.entry}]`);
        for (const spec of c.edit.imports) expect(result.manual).toContain(spec.from);
      });
      return;
    }

    it("produces exactly the expected output", () => {
      if (result.status === "refused") throw new Error(`refused: ${result.reason}`);
      expect(result.text).toBe(c.output);
    });

    it("is idempotent: the same edit on the output changes nothing", () => {
      const again = addProviderToConfig(c.output!, c.edit, c.inputFile);
      expect(again).toEqual({ status: "unchanged", text: c.output });
    });
  });
});
