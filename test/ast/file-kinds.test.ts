/**
 * The config edit across the file kinds a config comes in (TypeScript or
 * JavaScript, ES module or CommonJS, with or without JSX), and the
 * byte-for-byte promise for what the edit does not touch.
 */
import { describe, expect, it } from "vitest";
import { addProviderToConfig, type EditResult, type ProviderEdit } from "../../src/ast/insert-provider.js";

const vk: ProviderEdit = { id: "vk", imports: [{ from: "./providers/vk", named: ["vk"] }], entry: "vk" };

function text(result: EditResult): string {
  if (result.status === "refused") throw new Error(`refused: ${result.reason}`);
  return result.text;
}

const esm = 'import GitHub from "@auth/core/providers/github";\n\nexport default { providers: [GitHub] };\n';
const esmAfter =
  'import GitHub from "@auth/core/providers/github";\nimport { vk } from "./providers/vk";\n\nexport default { providers: [GitHub, vk] };\n';
const typed = `import type { AuthConfig } from "@auth/core";\n${esm.replace(" };", " } satisfies AuthConfig;")}`;
const cjs =
  'const GitHub = require("@auth/core/providers/github").default;\n\nmodule.exports = { providers: [GitHub] };\n';
const cjsAfter =
  'const GitHub = require("@auth/core/providers/github").default;\nconst { vk } = require("./providers/vk");\n\nmodule.exports = { providers: [GitHub, vk] };\n';

describe("addProviderToConfig by file kind", () => {
  it.each(["auth.ts", "auth.mts", "auth.cts", "auth.tsx"])("edits a TypeScript config in %s", (name) => {
    const after = esmAfter.replace("import GitHub", 'import type { AuthConfig } from "@auth/core";\nimport GitHub');
    expect(text(addProviderToConfig(typed, vk, name))).toBe(after.replace(" };", " } satisfies AuthConfig;"));
  });

  it.each(["auth.js", "auth.mjs", "auth.jsx"])("edits an ES module config in %s", (name) => {
    expect(text(addProviderToConfig(esm, vk, name))).toBe(esmAfter);
  });

  it.each(["auth.js", "auth.cjs"])("edits a CommonJS config in %s with requires", (name) => {
    expect(text(addProviderToConfig(cjs, vk, name))).toBe(cjsAfter);
  });

  it("edits a CommonJS .js config that only parses in sloppy mode", () => {
    const sloppy = `var mode = 0644;\n${cjs}`;
    expect(text(addProviderToConfig(sloppy, vk, "auth.config.js"))).toBe(`var mode = 0644;\n${cjsAfter}`);
  });

  it("refuses TypeScript syntax in a .js config: it would not run", () => {
    expect(addProviderToConfig(typed, vk, "auth.js")).toMatchObject({
      status: "refused",
      reason: expect.stringMatching(/does not parse \(line 1: /),
    });
  });

  it("refuses a .js config with a syntax error, naming the line", () => {
    const broken =
      'const GitHub = require("@auth/core/providers/github").default;\nmodule.exports = { providers: [GitHub };\n';
    const result = addProviderToConfig(broken, vk, "auth.config.js");
    expect(result).toMatchObject({ status: "refused", reason: expect.stringMatching(/does not parse \(line 2: /) });
    // The snippet to paste still follows the file's CommonJS style.
    expect(result).toMatchObject({ manual: expect.stringContaining('require("./providers/vk")') });
  });

  describe("a config with JSX", () => {
    const withJsx = `import NextAuth from "next-auth";
import GitHub from "next-auth/providers/github";

export const { auth, signIn } = NextAuth({ providers: [GitHub] });

export function SignIn() {
  return <form action={signIn}><GitHub.Icon /><button type="submit">Sign in</button></form>;
}
`;

    it.each(["auth.tsx", "auth.jsx", "auth.js"])("is edited in %s", (name) => {
      const out = text(addProviderToConfig(withJsx, vk, name));
      expect(out).toBe(
        withJsx
          .replace('github";\n', 'github";\nimport { vk } from "./providers/vk";\n')
          .replace("[GitHub]", "[GitHub, vk]"),
      );
      expect(addProviderToConfig(out, vk, name)).toEqual({ status: "unchanged", text: out });
    });

    it("is refused in a .ts file, where `<form>` is not JSX", () => {
      expect(addProviderToConfig(withJsx, vk, "auth.ts")).toMatchObject({
        status: "refused",
        reason: expect.stringMatching(/does not parse/),
      });
    });

    it("keeps an import that JSX still reads when --force replaces the provider", () => {
      const edit: ProviderEdit = {
        id: "github",
        imports: [{ from: "./providers/github", named: ["github"] }],
        entry: "github",
        force: true,
      };
      const out = text(addProviderToConfig(withJsx, edit, "auth.tsx"));
      expect(out).toContain('import GitHub from "next-auth/providers/github";\nimport { github } from');
      expect(out).toContain("providers: [github]");
    });
  });

  it("reads decorators in a TypeScript config", () => {
    const input = `@Injectable()\nexport class AuthService {\n  constructor(@Inject(DB) private db: Db) {}\n}\n\n${esm}`;
    expect(text(addProviderToConfig(input, vk, "auth.ts"))).toBe(
      input
        .replace('github";\n', 'github";\nimport { vk } from "./providers/vk";\n')
        .replace("[GitHub]", "[GitHub, vk]"),
    );
  });
});

describe("addProviderToConfig keeps what it does not edit", () => {
  it("leaves every comment, blank line and odd spacing byte for byte", () => {
    const input = `#!/usr/bin/env node
// Licence header.
/* eslint-disable */
import NextAuth   from "next-auth"; // the wrapper
import GitHub from "next-auth/providers/github" /* provider */ ;


/**
 * The config.
 */
export const { auth } = NextAuth( {
  // Providers, in the order the sign-in page lists them.
  providers: [
    GitHub, // first
    /* more to come */
  ],
  session: { strategy:"jwt" }, /* trailing */
} );
// end
`;
    const out = text(addProviderToConfig(input, vk, "auth.ts"));
    expect(out).toBe(
      input
        .replace("/* provider */ ;\n", '/* provider */ ;\nimport { vk } from "./providers/vk";\n')
        .replace("    /* more to come */\n", "    /* more to come */\n    vk,\n"),
    );
  });

  it("appends after a parenthesised last element, and replaces one whole", () => {
    const input =
      'import Vk from "@auth/core/providers/vk";\nexport default { providers: [GitHub, ( /* x */ Vk )] };\n';
    const appended = text(addProviderToConfig(input, { id: "other", imports: [], entry: "other" }));
    expect(appended).toContain("providers: [GitHub, ( /* x */ Vk ), other]");
    const replaced = text(addProviderToConfig(input, { ...vk, force: true }));
    expect(replaced).toBe('import { vk } from "./providers/vk";\n\nexport default { providers: [GitHub, vk] };\n');
  });

  it("refuses an array with an empty slot", () => {
    expect(addProviderToConfig("export default { providers: [GitHub, , Google] };\n", vk)).toMatchObject({
      status: "refused",
      reason: expect.stringMatching(/empty slot/),
    });
  });
});
