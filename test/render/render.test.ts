import { describe, expect, it } from "vitest";
import { isBindingName, jsLiteral, jsPropertyKey, jsString, renderTemplate } from "../../src/render/templates.js";

const evaluate = (code: string): unknown => new Function(`return (${code});`)();

describe("JS literals for generated code", () => {
  it("round-trips any string, including quotes, ${, backslashes, line terminators and non-ASCII", () => {
    const samples = [
      '"',
      "'",
      "`",
      "${x}",
      "\\",
      "\\u0041",
      "\n\r\t\0\b\f\v",
      "\u2028\u2029",
      "ü 😀 日本",
      "\ud800",
      "\udfff",
      "*/",
      "</script>",
      "{{x}}",
      "",
    ];
    for (let i = 0; i < 300; i++)
      samples.push(String.fromCharCode(...Array.from({ length: 8 }, (_, j) => (i * 131 + j * 977) % 0x10000)));
    for (const s of samples) {
      const literal = jsString(s);
      expect(literal).not.toMatch(/[\n\r\u2028\u2029]/);
      expect(evaluate(literal)).toBe(s);
    }
    expect(jsString("ü 😀")).toBe('"ü 😀"');
  });

  it("writes plain values and refuses anything else", () => {
    expect(jsLiteral(["a", 1, true, null])).toBe('["a", 1, true, null]');
    expect(jsLiteral({ scope: "x", "a-b": 1, __proto__x: 2 })).toBe('{ scope: "x", "a-b": 1, __proto__x: 2 }');
    expect(evaluate(jsLiteral({ nested: { list: ["\u2028"] } }))).toEqual({ nested: { list: ["\u2028"] } });
    for (const bad of [undefined, Number.NaN, Infinity, () => 1, new Date(0), Symbol("x"), 1n])
      expect(() => jsLiteral(bad)).toThrow(TypeError);
  });

  it("quotes keys that are not identifier names", () => {
    expect([jsPropertyKey("class"), jsPropertyKey("a-b"), jsPropertyKey("__proto__"), jsPropertyKey("1a")]).toEqual([
      "class",
      '"a-b"',
      '"__proto__"',
      '"1a"',
    ]);
    expect([isBindingName("vk"), isBindingName("new"), isBindingName("a-b"), isBindingName("await")]).toEqual([
      true,
      false,
      false,
      false,
    ]);
  });

  it("renders a template with its folder's partials, without HTML escaping", async () => {
    const out = await renderTemplate("providers/webauthn.ts.hbs", { id: "a&b", name: "<b>&</b>", binding: "x" });
    expect(out).toContain("export const x = Passkey({");
    expect(out).toContain('name: "<b>&</b>",');
    expect(out).toContain('provider "a&b"');
  });

  it("renders a shared template with the partials of the folder it names", async () => {
    const context = { path: "/two-factor", pagesModule: "./pages", clientAddressModule: "./address" };
    const next = await renderTemplate("frameworks/two-factor/route.ts.hbs", context, "frameworks/next");
    const astro = await renderTemplate("frameworks/two-factor/route.ts.hbs", context, "frameworks/astro/");
    expect(next).toContain('import { lastForwardedFor, withClientAddress } from "./address";');
    expect(astro).toContain("export const ALL: APIRoute");
    expect(astro).not.toContain("lastForwardedFor");
    // Without a folder naming the framework's part, the shared template has none to print.
    await expect(renderTemplate("frameworks/two-factor/route.ts.hbs", context)).rejects.toThrow(/two-factor-route/);
  });

  it("fails loudly on a field the template needs but did not get", async () => {
    await expect(renderTemplate("providers/webauthn.ts.hbs", { id: "a", name: "b" })).rejects.toThrow(/binding/);
    await expect(
      renderTemplate("providers/webauthn.ts.hbs", { id: "a", binding: "x", name: undefined }),
    ).rejects.toThrow(TypeError);
  });
});
