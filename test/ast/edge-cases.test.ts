/**
 * Behaviours too small for a fixture folder each: line endings, layout of
 * multi-line entries, import placement and merging, and the refusals that
 * guard against producing code that would not compile.
 */
import { describe, expect, it } from "vitest";
import { addProviderToConfig, type EditResult, type ProviderEdit } from "../../src/ast/insert-provider.js";

const vk: ProviderEdit = { id: "vk", imports: [{ from: "./providers/vk", named: ["vk"] }], entry: "vk" };

function text(result: EditResult): string {
  if (result.status === "refused") throw new Error(`refused: ${result.reason}`);
  return result.text;
}

describe("addProviderToConfig edge cases", () => {
  it("keeps CRLF line endings and a comment trailing the last import", () => {
    const input =
      'import GitHub from "@auth/core/providers/github"; // gh\r\nexport default {\r\n  providers: [\r\n    GitHub,\r\n  ],\r\n};\r\n';
    expect(text(addProviderToConfig(input, vk))).toBe(
      'import GitHub from "@auth/core/providers/github"; // gh\r\nimport { vk } from "./providers/vk";\r\nexport default {\r\n  providers: [\r\n    GitHub,\r\n    vk,\r\n  ],\r\n};\r\n',
    );
  });

  it("re-indents a multi-line entry to the array's indentation", () => {
    const input =
      'import NextAuth from "next-auth";\n\nexport const { auth } = NextAuth({\n  providers: [\n    GitHub\n  ],\n});\n';
    const edit: ProviderEdit = {
      id: "credentials",
      imports: [{ from: "next-auth/providers/credentials", defaultImport: "Credentials" }],
      entry: "Credentials({\n  authorize: async () => null,\n})",
    };
    const out = text(addProviderToConfig(input, edit));
    expect(out).toContain(
      'import NextAuth from "next-auth";\nimport Credentials from "next-auth/providers/credentials";\n',
    );
    expect(out).toContain(
      "  providers: [\n    GitHub,\n    Credentials({\n      authorize: async () => null,\n    })\n  ],",
    );
    expect(addProviderToConfig(out, edit).status).toBe("unchanged");
  });

  it("puts the first import below a @ts-check header but above a JSDoc block", () => {
    const out = text(
      addProviderToConfig("// @ts-check\n\n/** The auth config. */\nexport default {\n  providers: [],\n};\n", vk),
    );
    expect(out).toBe(
      '// @ts-check\n\nimport { vk } from "./providers/vk";\n\n/** The auth config. */\nexport default {\n  providers: [vk],\n};\n',
    );
  });

  it('writes requires after a "use strict" directive in a .cjs config', () => {
    const out = text(
      addProviderToConfig('"use strict";\nmodule.exports = { providers: [] };\n', vk, "auth.config.cjs"),
    );
    expect(out).toBe(
      '"use strict";\nconst { vk } = require("./providers/vk");\n\nmodule.exports = { providers: [vk] };\n',
    );
  });

  it("adds a named import next to an existing default import of the module", () => {
    const edit: ProviderEdit = {
      id: "otp",
      imports: [{ from: "./providers/credentials", named: ["otp"] }],
      entry: "otp",
    };
    const out = text(
      addProviderToConfig(
        'import Credentials from "./providers/credentials";\nexport default { providers: [Credentials] };\n',
        edit,
      ),
    );
    expect(out).toBe(
      'import Credentials, { otp } from "./providers/credentials";\nexport default { providers: [Credentials, otp] };\n',
    );
  });

  it("puts an entry in an empty multi-line array below the comment in it", () => {
    const out = text(
      addProviderToConfig("export default {\n  providers: [\n    // add providers here\n  ],\n};\n", vk),
    );
    expect(out).toContain("  providers: [\n    // add providers here\n    vk,\n  ],");
  });

  it("treats an import with a file extension as the same module", () => {
    const input = 'import { vk } from "./providers/vk.js";\nexport default { providers: [vk] };\n';
    expect(addProviderToConfig(input, vk)).toEqual({ status: "unchanged", text: input });
  });

  it("compares entries ignoring whitespace, quotes and trailing commas", () => {
    const input =
      "import { vk } from \"./providers/vk\";\nexport default { providers: [vk( { apiVersion: '5.199', } )] };\n";
    expect(addProviderToConfig(input, { ...vk, entry: 'vk({ apiVersion: "5.199" })' }).status).toBe("unchanged");
  });

  it("with --force, swaps a default import that only the old provider used", () => {
    const input =
      'import NextAuth from "next-auth";\nimport GitHub from "next-auth/providers/github";\nexport const { auth } = NextAuth({ providers: [GitHub] });\n';
    const edit: ProviderEdit = {
      id: "github",
      imports: [{ from: "./providers/github", named: ["github"] }],
      entry: "github",
      force: true,
    };
    const result = addProviderToConfig(input, edit);
    expect(result).toEqual({
      status: "replaced",
      text: 'import NextAuth from "next-auth";\nimport { github } from "./providers/github";\nexport const { auth } = NextAuth({ providers: [github] });\n',
    });
  });

  it("refuses when the binding it needs is already taken by another module, even with --force", () => {
    const result = addProviderToConfig('import { vk } from "./vendor/vk-sdk";\nexport default { providers: [] };\n', {
      ...vk,
      force: true,
    });
    expect(result).toMatchObject({
      status: "refused",
      reason: expect.stringMatching(/`vk` is already declared at line 1/),
    });
  });

  it("refuses when two providers already share the id", () => {
    const input =
      'import Vk from "@auth/core/providers/vk";\nexport default { providers: [Vk, Vk({ clientId: "x" })] };\n';
    expect(addProviderToConfig(input, { ...vk, force: true })).toMatchObject({
      status: "refused",
      reason: expect.stringMatching(/Several providers already have id "vk"/),
    });
  });

  it("refuses an entry that is not an expression, and a getter for providers", () => {
    expect(addProviderToConfig("export default { providers: [] };\n", { ...vk, entry: "vk(" })).toMatchObject({
      status: "refused",
    });
    expect(addProviderToConfig("export default { get providers() { return []; } };\n", vk)).toMatchObject({
      status: "refused",
      reason: expect.stringMatching(/getter/),
    });
  });

  it("writes CommonJS requires in the manual snippet of a CommonJS config", () => {
    const result = addProviderToConfig("module.exports = { providers: getProviders() };\n", vk, "auth.config.js");
    expect(result).toMatchObject({
      status: "refused",
      manual: 'const { vk } = require("./providers/vk");\n\nproviders: [..., vk]',
    });
  });
});
