import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addEnvEntries,
  envValue,
  fillEmptyValue,
  maskEnvValues,
  parseEnv,
  renameEnvVariable,
} from "../../src/render/env-file.js";

const entries = [
  { name: "AUTH_VK_ID", description: "VK app id", example: "" },
  { name: "AUTH_VK_SECRET", description: "VK app secret", example: "" },
];
const empty = () => "";

describe("adding variables to a dotenv file", () => {
  it("creates the file content when there is none", () => {
    expect(addEnvEntries(null, entries, "VK provider", empty)).toBe(
      "# VK provider\n# VK app id\nAUTH_VK_ID=\n# VK app secret\nAUTH_VK_SECRET=\n",
    );
  });

  it("never changes an existing value and adds only what is missing", () => {
    const existing = "AUTH_SECRET=abc\nexport AUTH_VK_ID=12345\n";
    expect(addEnvEntries(existing, entries, "VK provider", empty)).toBe(
      "AUTH_SECRET=abc\nexport AUTH_VK_ID=12345\n\n# VK provider\n# VK app secret\nAUTH_VK_SECRET=\n",
    );
  });

  it("returns the text unchanged when every name is there, even with an empty value", () => {
    const existing = "AUTH_VK_ID=\nAUTH_VK_SECRET=s3cret";
    expect(addEnvEntries(existing, entries, "VK provider", empty)).toBe(existing);
  });

  it("keeps a file without a final newline intact", () => {
    expect(addEnvEntries("A=1", [entries[0]!], "h", empty)).toBe("A=1\n\n# h\n# VK app id\nAUTH_VK_ID=\n");
  });
});

describe("keeping .env.local out of git", async () => {
  const { addIgnoreEntries } = await import("../../src/render/gitignore.js");
  it("adds the entry to a new or existing .gitignore", () => {
    expect(addIgnoreEntries(null, [".env.local"])).toBe(".env.local\n");
    expect(addIgnoreEntries("node_modules", [".env.local"])).toBe("node_modules\n.env.local\n");
  });
  it.each([".env.local", "/.env.local", ".env*", ".env*.local", "*.local"])(
    "leaves it alone when %s already covers it",
    (pattern) => {
      expect(addIgnoreEntries(`node_modules\n${pattern}\n`, [".env.local"])).toBe(`node_modules\n${pattern}\n`);
    },
  );
});

describe("reading a dotenv file as dotenv does", () => {
  it("reads export, comments, quotes and values that run over lines, with CRLF", () => {
    const text = [
      "# a comment",
      "export A=1",
      "B = two words # a comment",
      'C="line one',
      "AUTH_SECRET=inside the value",
      'line three"',
      "D='single # not a comment'",
      "E=`back`",
      'F=""',
      "G=",
      "",
    ].join("\r\n");
    expect(parseEnv(text).map((e) => [e.name, e.value])).toEqual([
      ["A", "1"],
      ["B", "two words"],
      // dotenv reads CRLF as LF, inside values too.
      ["C", "line one\nAUTH_SECRET=inside the value\nline three"],
      ["D", "single # not a comment"],
      ["E", "back"],
      ["F", ""],
      ["G", ""],
    ]);
  });

  it("a byte-order mark is a blank, as dotenv reads it; edits keep it", async () => {
    const text = "\uFEFFAUTH_NEXTAUTH=1\r\nNEXTAUTH_SECRET=\r\n";
    expect(parseEnv(text).map((e) => [e.name, e.value])).toEqual([
      ["AUTH_NEXTAUTH", "1"],
      ["NEXTAUTH_SECRET", ""],
    ]);
    expect(fillEmptyValue(text, "NEXTAUTH_SECRET", "s")).toBe("\uFEFFAUTH_NEXTAUTH=1\r\nNEXTAUTH_SECRET=s\r\n");
    expect(renameEnvVariable("\uFEFFNEXTAUTH_URL=http://a\r\n", "NEXTAUTH_URL", "AUTH_URL")).toBe(
      "\uFEFFAUTH_URL=http://a\r\n",
    );
    expect(addEnvEntries("\uFEFF", [{ name: "A", description: "a", example: "" }], "h", () => "1")).toBe(
      "\uFEFF# h\n# a\nA=1\n",
    );
  });

  it("lines written commented out count as there, outside quoted values only", () => {
    const variables = [{ name: "AUTH_X_ID", description: "id", example: "" }];
    expect(addEnvEntries("# AUTH_X_ID=\n", variables, "h", () => null)).toBe("# AUTH_X_ID=\n");
    const inside = 'KEY="a\n# AUTH_X_ID=\nb"\n';
    expect(addEnvEntries(inside, variables, "h", () => null)).toBe(`${inside}\n# h\n# id\n# AUTH_X_ID=\n`);
  });

  it("a quote that never closes is plain text, as dotenv reads it", () => {
    expect(parseEnv('A="open\nB=2\n').map((e) => [e.name, e.value])).toEqual([
      ["A", '"open'],
      ["B", "2"],
    ]);
  });

  it("the last of two assignments counts", () => {
    expect(envValue("A=1\nA=2\n", "A")).toBe("2");
  });

  it("never writes a secret inside another variable's multi-line value", () => {
    const text = 'PRIVATE_KEY="-----BEGIN KEY-----\nAUTH_SECRET=\n-----END KEY-----"\n';
    expect(fillEmptyValue(text, "AUTH_SECRET", "new")).toBe(text);
    expect(envValue(text, "AUTH_SECRET")).toBeUndefined();
    const added = addEnvEntries(text, [{ name: "AUTH_SECRET", description: "secret", example: "" }], "Auth", () => "x");
    expect(added.startsWith(text)).toBe(true);
    expect(added.endsWith("AUTH_SECRET=x\n")).toBe(true);
  });

  it("masks every value, a multi-line one whole, and keeps the rest", () => {
    expect(maskEnvValues('A=1 # note\nB="x\ny"\nC=\n')).toBe("A=<hidden> # note\nB=<hidden>\nC=\n");
  });
});

/** A random dotenv file, and what a correct reader finds in it. */
const envFile = fc
  .record({
    eol: fc.constantFrom("\n", "\r\n"),
    finalNewline: fc.boolean(),
    lines: fc.array(
      fc.oneof(
        fc.record({ kind: fc.constant("comment" as const), text: fc.stringMatching(/^[^\r\n]*$/) }),
        fc.record({ kind: fc.constant("blank" as const) }),
        fc.record({
          kind: fc.constant("plain" as const),
          name: fc.constantFrom("AUTH_SECRET", "A", "B_1", "DATABASE_URL"),
          exported: fc.boolean(),
          value: fc.stringMatching(/^[A-Za-z0-9_:/@.+=-]*$/),
        }),
        fc.record({
          kind: fc.constant("quoted" as const),
          name: fc.constantFrom("AUTH_SECRET", "KEY", "CERT"),
          // Lines that look like assignments, inside the value.
          inner: fc.array(fc.constantFrom("AUTH_SECRET=", "A=1", "# not a comment", "x y z", "export B=2", ""), {
            maxLength: 4,
          }),
        }),
      ),
      { maxLength: 12 },
    ),
  })
  .map(({ eol, finalNewline, lines }) => {
    const expected: { name: string; value: string }[] = [];
    const rendered = lines.map((line) => {
      if (line.kind === "comment") return `#${line.text}`;
      if (line.kind === "blank") return "";
      if (line.kind === "plain") {
        expected.push({ name: line.name, value: line.value });
        return `${line.exported ? "export " : ""}${line.name}=${line.value}`;
      }
      // dotenv reads the value's line breaks as \n, whatever the file's.
      expected.push({ name: line.name, value: line.inner.join("\n") });
      return `${line.name}="${line.inner.join(eol)}"`;
    });
    return { text: rendered.join(eol) + (finalNewline && rendered.length ? eol : ""), expected };
  });

describe("dotenv merges keep the user's bytes (property)", () => {
  it("finds exactly the assignments written, multi-line values included", () => {
    fc.assert(
      fc.property(envFile, ({ text, expected }) => {
        expect(parseEnv(text).map(({ name, value }) => ({ name, value }))).toEqual(expected);
      }),
    );
  });

  it("adding variables keeps every existing byte, and adds only names neither assigned nor commented out", () => {
    const variables = ["AUTH_SECRET", "NEW_ONE"].map((name) => ({ name, description: "d", example: "" }));
    fc.assert(
      fc.property(envFile, ({ text, expected }) => {
        const result = addEnvEntries(text, variables, "h", () => "v");
        expect(result.startsWith(text)).toBe(true);
        const added = parseEnv(result.slice(text.length)).map((e) => e.name);
        const commented = (name: string) =>
          new RegExp(`^[^\\S\\r\\n]*#[^\\S\\r\\n]*(?:export[^\\S\\r\\n]+)?${name}[^\\S\\r\\n]*=`, "m").test(text);
        expect(added).toEqual(
          variables.map((v) => v.name).filter((n) => !expected.some((e) => e.name === n) && !commented(n)),
        );
      }),
    );
  });

  it("filling an empty secret changes only that value's place", () => {
    fc.assert(
      fc.property(envFile, ({ text, expected }) => {
        const result = fillEmptyValue(text, "AUTH_SECRET", "S3CR3T");
        const last = expected.findLast((e) => e.name === "AUTH_SECRET");
        if (last?.value !== "") {
          expect(result).toBe(text);
          return;
        }
        // What comes before and after the secret is the file's own text; at most an empty pair of quotes gave way.
        const at = result.indexOf("S3CR3T");
        const before = result.slice(0, at);
        const after = result.slice(at + "S3CR3T".length);
        expect(text.startsWith(before) && text.endsWith(after)).toBe(true);
        expect(["", '""', "''", "``"]).toContain(text.slice(before.length, text.length - after.length));
        expect(envValue(result, "AUTH_SECRET")).toBe("S3CR3T");
        // Every other assignment reads as before.
        expect(
          parseEnv(result)
            .filter((e) => e.name !== "AUTH_SECRET")
            .map((e) => e.value),
        ).toEqual(expected.filter((e) => e.name !== "AUTH_SECRET").map((e) => e.value));
      }),
    );
  });
});
