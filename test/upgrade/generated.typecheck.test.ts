/**
 * The files `upgrade` writes anew (the module that keeps v4's sessions, in
 * each of its shapes, and the App Router route with the client-address
 * module it hands the client's address through) compile under the tsconfig
 * settings users have (test/support/tsconfig-matrix.ts): no target (ES5),
 * strictest, verbatimModuleSyntax; TypeScript, and JavaScript under checkJs.
 * They are used as the upgraded config uses them, against @auth/core's own
 * types: next-auth 5's `next-auth/jwt` is `export * from "@auth/core/jwt"`,
 * declared so here, since next-auth itself is not installed in this
 * repository, and next/server's NextRequest (a Request to the route) likewise. The upgraded apps as a whole are type-checked under the same
 * settings with their real packages in upgrade.browser.test.ts.
 */
import { describe, expect, it } from "vitest";
import { stripTypes } from "../../src/ast/strip-types.js";
import { compatModule, routeFile } from "../../src/planners/upgrade/generated.js";
import { renderTemplate } from "../../src/render/templates.js";
import { type SourceFile, tsconfigMatrix, typecheckUnder } from "../support/tsconfig-matrix.js";

const nextAuthJwt = `declare module "next-auth/jwt" {\n  export * from "@auth/core/jwt";\n}\ndeclare module "next/server" {\n  export class NextRequest extends Request {\n    constructor(input: RequestInfo | URL, init?: RequestInit);\n  }\n}\n`;

/** The config's uses of the module, checked against the types @auth/core gives the config's options. */
function consumer(needs: { csrf: boolean; jwtSecret: boolean }): string {
  const names = ["v4SessionCookie", needs.jwtSecret ? "jwtWithSecret" : "decodeV4Session"];
  return [
    `import type { AuthConfig } from "@auth/core";`,
    `import { ${names.join(", ")} } from "./auth-v4-compat";`,
    ...(needs.csrf
      ? [
          `import type { IncomingMessage, ServerResponse } from "node:http";`,
          `import { getServerCsrfToken } from "./auth-v4-compat";`,
          "export async function csrf(req: IncomingMessage, res: ServerResponse): Promise<string> {",
          "  return getServerCsrfToken({ req, res });",
          "}",
        ]
      : []),
    'export const options: Pick<AuthConfig, "cookies" | "jwt"> = {',
    "  cookies: { sessionToken: v4SessionCookie },",
    needs.jwtSecret
      ? `  jwt: { ...jwtWithSecret(process.env["AUTH_JWT_SECRET"]) },`
      : "  jwt: { decode: decodeV4Session },",
    "};",
    "",
  ].join("\n");
}

/** The module the route hands the client's address through, as upgrade writes it beside the config. */
const clientAddress = await renderTemplate("frameworks/web/client-address.ts.hbs", {});

const shapes = [false, true].flatMap((csrf) => [false, true].map((jwtSecret) => ({ csrf, jwtSecret })));

/** The files, JavaScript ones only where the settings take JavaScript (a JavaScript project's tsconfig does). */
function project(setting: string): SourceFile[] {
  const files: SourceFile[] = [{ path: "next-auth-jwt.d.ts", contents: nextAuthJwt }];
  for (const typescript of tsconfigMatrix[setting]!.allowJs ? [true, false] : [true])
    for (const needs of shapes) {
      const dir = `${typescript ? "ts" : "js"}-${needs.csrf ? "csrf" : "plain"}-${needs.jwtSecret ? "secret" : "auth"}`;
      files.push(
        { path: `${dir}/auth-v4-compat.${typescript ? "ts" : "js"}`, contents: compatModule(typescript, needs) },
        // A JavaScript project's config is JavaScript too; it is checked as TypeScript here, the stricter of the two.
        { path: `${dir}/auth.ts`, contents: consumer(needs) },
      );
    }
  files.push(
    {
      path: "route/auth.ts",
      contents:
        "export const handlers = {\n  GET: async (request: Request): Promise<Response> => new Response(request.url),\n  POST: async (request: Request): Promise<Response> => new Response(request.url),\n};\n",
    },
    { path: "route/auth/client-address.ts", contents: clientAddress },
    {
      path: "route/app/api/auth/[...nextauth]/route.ts",
      contents: routeFile({ auth: "../../../../auth", clientAddress: "../../../../auth/client-address" }, ";"),
    },
  );
  // A JavaScript project's client-address module is the TypeScript one with its types erased: checked where JavaScript
  // is compiled but not type-checked (checkJs would need JSDoc types the module does not have).
  if (tsconfigMatrix[setting]!.allowJs && !tsconfigMatrix[setting]!.checkJs)
    files.push(
      { path: "route-js/auth/client-address.js", contents: stripTypes(clientAddress) },
      {
        path: "route-js/app/api/auth/[...nextauth]/route.js",
        contents: routeFile({ auth: "../../../../auth", clientAddress: "../../../../auth/client-address" }, ";", false),
      },
      {
        path: "route-js/auth.js",
        contents:
          "export const handlers = { GET: async (request) => new Response(request.url), POST: async (request) => new Response(request.url) };\n",
      },
    );
  return files;
}

describe("the files upgrade writes, under the tsconfig settings users have", () => {
  for (const setting of Object.keys(tsconfigMatrix))
    it(`compile with ${setting}`, () => {
      expect(typecheckUnder(setting, project(setting))).toEqual([]);
    });
});
