/**
 * --protect beside a middleware.ts or proxy.ts of the project's own, one
 * folder per case under fixtures/next-middleware/: input.ts (or .js),
 * options.json (the wiring) and output.ts, or expected.json naming why it is
 * refused. Every other byte stays; a second run changes nothing; the
 * matcher patterns read as regular expressions match what Next.js's do.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { composeMiddleware, type MiddlewareWiring, matcherPattern } from "../../src/frameworks/next/middleware-edit.js";
import { fixture } from "../helpers.js";

const base = fixture("next-middleware");
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
    wiring: JSON.parse(readFileSync(join(dir, "options.json"), "utf8")) as MiddlewareWiring,
  };
});

describe("composeMiddleware", () => {
  it.each(cases.filter((c) => c.output !== undefined))("$name", ({ input, output, wiring, file }) => {
    const edit = composeMiddleware(input, wiring, file);
    expect(edit.status, JSON.stringify(edit)).toBe("edited");
    const text = edit.status === "edited" ? edit.text : input;
    expect(text).toBe(output);
    expect(composeMiddleware(text, wiring, file)).toEqual({ status: "unchanged" });
  });

  it.each(cases.filter((c) => c.refused !== undefined))(
    "$name: refused, naming why",
    ({ input, wiring, file, refused }) => {
      const edit = composeMiddleware(input, wiring, file);
      expect(edit.status).toBe("refused");
      expect((edit as { reason: string }).reason).toContain(refused);
    },
  );

  it("has a case for each shape of middleware and each refusal", () => {
    expect(cases.filter((c) => c.output !== undefined).length).toBeGreaterThanOrEqual(6);
    expect(cases.filter((c) => c.refused !== undefined).length).toBeGreaterThanOrEqual(4);
    expect(cases.every((c) => c.output !== undefined || c.refused !== undefined)).toBe(true);
  });
});

describe("matcherPattern", () => {
  const matches = (source: string, path: string) => new RegExp(matcherPattern(source)!).test(path);

  it("reads parameters as path-to-regexp does", () => {
    expect(matches("/admin/:path*", "/admin")).toBe(true);
    expect(matches("/admin/:path*", "/admin/users/1")).toBe(true);
    expect(matches("/admin/:path*", "/administrator")).toBe(false);
    expect(matches("/admin/:path+", "/admin")).toBe(false);
    expect(matches("/admin/:path+", "/admin/x/y")).toBe(true);
    expect(matches("/blog/:slug", "/blog/first")).toBe(true);
    expect(matches("/blog/:slug", "/blog/first/comments")).toBe(false);
    expect(matches("/blog/:slug?", "/blog")).toBe(true);
    expect(matches("/", "/")).toBe(true);
    expect(matches("/", "/about")).toBe(false);
    expect(matches("/about.html", "/aboutxhtml")).toBe(false);
  });

  it("keeps a group's regular expression: the usual catch-all leaves out what it names", () => {
    const source = "/((?!api|_next/static|_next/image|favicon.ico).*)";
    expect(matches(source, "/dashboard/settings")).toBe(true);
    expect(matches(source, "/")).toBe(true);
    expect(matches(source, "/api/auth/session")).toBe(false);
    expect(matches(source, "/_next/static/chunks/app.js")).toBe(false);
  });

  it("refuses what it cannot read with certainty", () => {
    for (const source of ["/users/:id(\\d+)", "/files/*", "/shop{/:lang}?", "/file-:id", "dashboard", "/(unclosed"])
      expect(matcherPattern(source), source).toBeUndefined();
  });
});
