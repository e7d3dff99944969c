/**
 * A generated TypeScript module as the JavaScript a JavaScript project
 * keeps: types erased, everything else byte for byte, the declarations'
 * types kept as JSDoc where a package names them.
 */
import { describe, expect, it } from "vitest";
import { stripTypes } from "../../src/ast/strip-types.js";

describe("stripTypes", () => {
  it("erases annotations, casts, type imports and declarations; keeps comments; types from packages become JSDoc", () => {
    const input = [
      'import type { AuthConfig } from "@auth/core";',
      'import { Auth, type Session, setEnvDefaults } from "@auth/core";',
      'import type { Row } from "./db.js";',
      "",
      "/** The options. */",
      "export interface Options {",
      "  /** A thing. */",
      "  a?: string;",
      "}",
      "",
      'declare module "@auth/core/types" {',
      "  interface Session {",
      "    error?: string;",
      "  }",
      "}",
      "",
      "// The config, checked against Auth.js's own type.",
      "export const authConfig = {",
      "  providers: [],",
      "} satisfies AuthConfig;",
      "",
      "/** Auth.js's answer to a request. */",
      "export async function handle(request: Request, tries?: number): Promise<Response> {",
      "  const seen = new Map<string, number>();",
      "  const data = (await request.json()) as Session | { message?: string } | null;",
      "  let last!: Row;",
      "  const same = <T,>(value: T): T => value;",
      "  return Auth(request, authConfig as AuthConfig)!;",
      "}",
      "",
      "export function rows(): Row[] {",
      "  return [];",
      "}",
      "export type { Row };",
      "",
    ].join("\n");
    expect(stripTypes(input, "session.ts")).toBe(
      [
        'import { Auth, setEnvDefaults } from "@auth/core";',
        "",
        "// The config, checked against Auth.js's own type.",
        '/** @satisfies {import("@auth/core").AuthConfig} */',
        "export const authConfig = {",
        "  providers: [],",
        "};",
        "",
        "/**",
        " * Auth.js's answer to a request.",
        " * @param {Request} request",
        " * @param {number} [tries]",
        " * @returns {Promise<Response>}",
        " */",
        "export async function handle(request, tries) {",
        "  const seen = new Map();",
        "  const data = (await request.json());",
        "  let last;",
        "  const same = (value) => value;",
        "  return Auth(request, authConfig);",
        "}",
        "",
        "export function rows() {",
        "  return [];",
        "}",
        "",
      ].join("\n"),
    );
  });

  it("erases class members' TypeScript words and keeps JavaScript's own (static, async, get, #private)", () => {
    const source = [
      "class Failure extends Error {",
      "  // Why it failed.",
      "  readonly why: { final?: boolean };",
      "  public static readonly limit: number = 1;",
      "  private note?: string;",
      "  declare brand: never;",
      "  protected override cause!: unknown;",
      "  #seen?: number;",
      '  constructor(message: string, why: Failure["why"] = {}) {',
      "    super(message);",
      "    this.why = why;",
      "  }",
      "  private async retry(): Promise<void> {}",
      "  static get size(): number {",
      "    return 1;",
      "  }",
      "}",
      "",
    ].join("\n");
    const output = stripTypes(source, "failure.ts");
    expect(output).toBe(
      [
        "class Failure extends Error {",
        "  // Why it failed.",
        "  why;",
        "  static limit = 1;",
        "  note;",
        "  cause;",
        "  #seen;",
        "  constructor(message, why = {}) {",
        "    super(message);",
        "    this.why = why;",
        "  }",
        "  async retry() {}",
        "  static get size() {",
        "    return 1;",
        "  }",
        "}",
        "",
      ].join("\n"),
    );
    // What Node itself runs: the output is JavaScript.
    expect(() => new Function(output.replace(/^class /, "return class "))).not.toThrow();
  });

  it("refuses what JavaScript cannot say, naming it", () => {
    expect(() => stripTypes("class Point {\n  constructor(readonly x: number) {}\n}\n", "point.ts")).toThrow(
      "point.ts: ParameterProperty has no JavaScript form",
    );
    expect(() => stripTypes("export enum Role { Admin }\n", "roles.ts")).toThrow(
      "roles.ts: EnumDeclaration has no JavaScript form",
    );
  });
});
