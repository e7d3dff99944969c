import { describe, expect, it } from "vitest";
import { rangeWithParens } from "../../src/ast/nodes.js";
import { firstSyntaxError, parse, parseExpression } from "../../src/ast/parse.js";

const syntaxErrorOf = (text: string, fileName?: string) => firstSyntaxError(parse(text, fileName));

describe("parse", () => {
  it("reads the syntax the file name implies", () => {
    // `<T>x` is a type assertion in .ts and a JSX tag in .tsx.
    expect(syntaxErrorOf("const a = <string>b;\n", "auth.ts")).toBeUndefined();
    expect(syntaxErrorOf("const a = <div>b</div>;\n", "auth.tsx")).toBeUndefined();
    expect(syntaxErrorOf("const a = <div>b</div>;\n", "auth.ts")).toMatch(/^line 1: /);
    // TypeScript reads JSX in .js files too; types are another matter.
    expect(syntaxErrorOf("export const a = <div />;\n", "auth.js")).toBeUndefined();
    expect(syntaxErrorOf("export const a = <div />;\n", "auth.jsx")).toBeUndefined();
    expect(syntaxErrorOf("export const a: string = b;\n", "auth.js")).toMatch(/^line 1: /);
    expect(syntaxErrorOf("export const a: string = b;\n", "auth.mts")).toBeUndefined();
    expect(syntaxErrorOf("export const a: string = b;\n", "AUTH.CTS")).toBeUndefined();
    expect(syntaxErrorOf("export const a: string = b;\n")).toBeUndefined();
  });

  it("reads .cjs, and .js without imports or exports, as CommonJS, not strict modules", () => {
    const sloppy = "var mode = 0644;\nif (!module.parent) return;\nmodule.exports = { providers: [] };\n";
    expect(syntaxErrorOf(sloppy, "auth.config.cjs")).toBeUndefined();
    expect(syntaxErrorOf("var mode = 0644;\nmodule.exports = { providers: [] };\n", "auth.config.js")).toBeUndefined();
    expect(syntaxErrorOf("var mode = 0644;\nexport default { providers: [] };\n", "auth.config.js")).toMatch(
      /^line 1:/,
    );
  });

  it("reads decorators as TypeScript's experimentalDecorators does", () => {
    const text = "@Injectable()\nexport class Auth {\n  constructor(@Inject(X) private x: X) {}\n}\n";
    expect(syntaxErrorOf(text, "auth.ts")).toBeUndefined();
  });

  it("gives the first syntax error as line and message, without Babel's position suffix", () => {
    const error = syntaxErrorOf("export default {\n  providers: [a b],\n};\n", "auth.ts");
    expect(error).toBe('line 2: Unexpected token, expected ","');
    expect(error).not.toMatch(/\(\d+:\d+\)$/);
  });

  it("keeps the text and an empty tree when nothing could be recovered", () => {
    const file = parse("export default {{{", "auth.ts");
    expect(file.text).toBe("export default {{{");
    expect(file.statements).toEqual([]);
    expect(firstSyntaxError(file)).toMatch(/^line 1: /);
  });

  it("keeps every comment with its position", () => {
    const text = "// head\nexport default { /* inner */ providers: [] }; // tail\n";
    const file = parse(text, "auth.ts");
    expect(file.comments.map((c) => text.slice(c.start!, c.end!))).toEqual(["// head", "/* inner */", "// tail"]);
  });
});

describe("parseExpression", () => {
  it("accepts exactly one expression, comments around it included", () => {
    expect(parseExpression("vk")?.type).toBe("Identifier");
    expect(parseExpression("Credentials({ authorize: async () => null }) // the form")?.type).toBe("CallExpression");
    expect(parseExpression("vk(")).toBeUndefined();
    expect(parseExpression("a), (b")).toBeUndefined();
    expect(parseExpression("a; b")).toBeUndefined();
  });
});

describe("rangeWithParens", () => {
  it("spans the parentheses around a node, however many and with comments between", () => {
    const text = "x = [a, (( /* c */ b ) ), c];";
    const file = parse(text, "auth.ts");
    const statement = file.statements[0]!;
    if (statement.type !== "ExpressionStatement" || statement.expression.type !== "AssignmentExpression")
      throw new Error("unexpected tree");
    const array = statement.expression.right;
    if (array.type !== "ArrayExpression") throw new Error("unexpected tree");
    const [a, b] = array.elements;
    const range = (node: typeof a) => {
      const { start, end } = rangeWithParens(text, node!);
      return text.slice(start, end);
    };
    expect(range(a)).toBe("a");
    expect(range(b)).toBe("(( /* c */ b ) )");
  });
});
