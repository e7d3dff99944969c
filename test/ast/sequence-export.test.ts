/**
 * Composing a handler the project exports itself (SvelteKit's handle,
 * Astro's onRequest) with Auth.js's through sequence(), one folder per case
 * under fixtures/sequence-exports/: input.ts (or .js), options.json (the
 * wiring) and output.ts, or expected.json naming why it is refused. Every
 * other byte of the input stays, line endings included; a second run
 * changes nothing.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { composeSequence, type SequenceWiring, sequenceLines } from "../../src/ast/sequence-export.js";
import { fixture } from "../helpers.js";

const base = fixture("sequence-exports");
const cases = readdirSync(base).map((name) => {
  const dir = join(base, name);
  const input = readdirSync(dir).find((f) => f.startsWith("input."))!;
  const output = input.replace("input", "output");
  return {
    name,
    file: input,
    input: readFileSync(join(dir, input), "utf8"),
    output: existsSync(join(dir, output)) ? readFileSync(join(dir, output), "utf8") : undefined,
    refused: existsSync(join(dir, "expected.json"))
      ? (JSON.parse(readFileSync(join(dir, "expected.json"), "utf8")) as { refused: string }).refused
      : undefined,
    wiring: JSON.parse(readFileSync(join(dir, "options.json"), "utf8")) as SequenceWiring,
  };
});

describe("composeSequence", () => {
  it.each(cases.filter((c) => c.output !== undefined))("$name", ({ input, output, wiring, file }) => {
    const edit = composeSequence(input, wiring, file);
    expect(edit.status).toBe("edited");
    const text = edit.status === "edited" ? edit.text : input;
    expect(text).toBe(output);
    expect(composeSequence(text, wiring, file)).toEqual({ status: "unchanged" });
  });

  it.each(cases.filter((c) => c.refused !== undefined))(
    "$name: refused, naming why",
    ({ input, wiring, file, refused }) => {
      const edit = composeSequence(input, wiring, file);
      expect(edit.status).toBe("refused");
      expect((edit as { reason: string }).reason).toContain(refused);
    },
  );

  it("has a case for each shape of handler and each refusal", () => {
    expect(cases.filter((c) => c.output !== undefined).length).toBeGreaterThanOrEqual(10);
    expect(cases.filter((c) => c.refused !== undefined).length).toBeGreaterThanOrEqual(4);
    expect(cases.every((c) => c.output !== undefined || c.refused !== undefined)).toBe(true);
  });

  it("the lines a user adds by hand when the edit is refused", () => {
    const wiring = cases.find((c) => c.name === "sveltekit-sequence-protect")!.wiring;
    expect(sequenceLines(wiring, "appHandle")).toEqual([
      'import { sequence } from "@sveltejs/kit/hooks";',
      'import { handle as authHandle } from "$lib/server/auth";',
      'import { protect } from "$lib/server/auth/protect";',
      "export const handle = sequence(authHandle, protect, appHandle);",
    ]);
  });
});
