import { describe, expect, it } from "vitest";
import { addEnvEntries } from "../../src/workspace/env-file.js";

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
  const { addIgnoreEntries } = await import("../../src/workspace/gitignore.js");
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
