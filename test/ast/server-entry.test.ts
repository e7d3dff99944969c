/**
 * Mounting Auth.js in a server's own entry module, one folder per case under
 * fixtures/server-entries/: input.ts (or .js), options.json (the wiring) and
 * output.ts, or expected.json naming why it is refused. Every other byte of
 * the input stays, line endings included; a second run changes nothing.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type EntryWiring, wireServerEntry } from "../../src/ast/server-entry.js";
import { fixture } from "../helpers.js";

const base = fixture("server-entries");
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
    wiring: JSON.parse(readFileSync(join(dir, "options.json"), "utf8")) as EntryWiring,
  };
});

describe("wireServerEntry", () => {
  it.each(cases.filter((c) => c.output !== undefined))("$name", ({ input, output, wiring, file }) => {
    const edit = wireServerEntry(input, wiring, file);
    const text = edit.status === "edited" ? edit.text : input;
    expect(text).toBe(output);
    expect(wireServerEntry(text, wiring, file)).toEqual({ status: "unchanged" });
  });

  it.each(cases.filter((c) => c.refused !== undefined))(
    "$name: refused, naming why",
    ({ input, wiring, file, refused }) => {
      const edit = wireServerEntry(input, wiring, file);
      expect(edit.status).toBe("refused");
      expect((edit as { reason: string }).reason).toContain(refused);
    },
  );

  it("has a case for each way an app is made and each refusal", () => {
    expect(cases.length).toBeGreaterThanOrEqual(7);
    expect(cases.every((c) => c.output !== undefined || c.refused !== undefined)).toBe(true);
  });
});
