/**
 * The upgrade's edits one by one, on the shapes v4 apps write beyond the
 * four fixture apps: withAuth's other forms, a middleware that must move to
 * Node.js, next.config's shapes, env files, package.json, the session calls
 * and what each refuses rather than guess.
 */
import { describe, expect, it } from "vitest";
import { editConfig } from "../../src/ast/upgrade/config-edit.js";
import { editMiddleware } from "../../src/ast/upgrade/middleware-edit.js";
import { addRuntime, isBoilerplateRoute } from "../../src/ast/upgrade/middleware-runtime.js";
import {
  adapterSwaps,
  addTranspilePackage,
  editPackageJson,
  renameEnv,
  renameInCode,
} from "../../src/ast/upgrade/project-edits.js";
import { rewriteServerCalls } from "../../src/ast/upgrade/server-calls.js";

const middleware = (text: string) => editMiddleware({ text, fileName: "middleware.ts", authModule: "@/auth" });

describe("withAuth to v5's auth middleware, with the same protection", () => {
  it('`export { default } from "next-auth/middleware"`: every matched page needs a session', () => {
    const result = middleware(
      'export { default } from "next-auth/middleware";\n\nexport const config = { matcher: ["/dashboard/:path*"] };\n',
    );
    expect(result.status).toBe("edited");
    expect("text" in result && result.text).toBe(`import { NextResponse } from "next/server";
import { auth } from "@/auth";

export default auth((request) => {
  // Without a session, to the sign-in page and back, as withAuth did in next-auth v4.
  if (!request.auth) {
    const signIn = new URL("/api/auth/signin", request.nextUrl.origin);
    signIn.searchParams.set("callbackUrl", \`\${request.nextUrl.pathname}\${request.nextUrl.search}\`);
    return NextResponse.redirect(signIn);
  }
});

export const config = { matcher: ["/dashboard/:path*"] };
`);
  });

  it("withAuth(options) with a custom sign-in page keeps that page", () => {
    const result = middleware(
      'import { withAuth } from "next-auth/middleware"\n\nexport default withAuth({ pages: { signIn: "/login" } })\n',
    );
    expect("text" in result && result.text).toContain('new URL("/login", request.nextUrl.origin)');
    expect("text" in result && result.text).not.toContain("next-auth/middleware");
  });

  it("withAuth(fn) with a typed request and an arrow body: the check runs before fn", () => {
    const result = middleware(`import { withAuth, type NextRequestWithAuth } from "next-auth/middleware";
import { NextResponse } from "next/server";

export default withAuth((req: NextRequestWithAuth) => NextResponse.next());
`);
    expect(result.status).toBe("edited");
    const text = "text" in result ? result.text : "";
    expect(text).toContain('import { type NextAuthRequest } from "next-auth";');
    expect(text).toContain("export default auth((req: NextAuthRequest) => {\n");
    expect(text.indexOf("if (!req.auth)")).toBeLessThan(text.indexOf("return NextResponse.next();"));
  });

  it("refuses what it cannot carry over: an authorized callback, req.nextauth.token", () => {
    const authorized = middleware(
      'import { withAuth } from "next-auth/middleware";\nexport default withAuth({ callbacks: { authorized: ({ token }) => token?.role === "admin" } });\n',
    );
    expect(authorized).toMatchObject({ status: "refused" });
    expect("reason" in authorized && authorized.reason).toMatch(/`callbacks` option has no v5 equivalent/);
    const token = middleware(
      'import { withAuth } from "next-auth/middleware";\nexport default withAuth(function m(req) { console.log(req.nextauth.token); });\n',
    );
    expect("reason" in token && token.reason).toMatch(/req\.nextauth\.token/);
  });

  it("a middleware without next-auth is left alone", () => {
    expect(middleware("export function middleware() {}\n")).toMatchObject({ status: "unchanged" });
  });

  it("Node.js's runtime for a middleware whose config loads Node-only code", () => {
    expect(addRuntime('export const config = { matcher: ["/a"] };\n', "middleware.ts")).toBe(
      'export const config = { matcher: ["/a"], runtime: "nodejs" };\n',
    );
    expect(addRuntime("export default function m() {}\n", "middleware.ts")).toBe(
      'export default function m() {}\n\nexport const config = { runtime: "nodejs" }\n',
    );
    expect(addRuntime('export const config = { runtime: "edge" };\n', "middleware.ts")).toBeUndefined();
  });
});

describe("the config and the route", () => {
  it("refuses v4's advanced initialization, and a module that already declares auth", () => {
    const advanced = editConfig({
      text: 'import NextAuth from "next-auth";\nconst authOptions = { providers: [] };\nexport default async function handler(req, res) {\n  return NextAuth(req, res, authOptions);\n}\n',
      fileName: "route.js",
      compatModule: "./auth-v4-compat",
    });
    expect(advanced).toMatchObject({ status: "refused" });
    const clash = editConfig({
      text: 'import type { NextAuthOptions } from "next-auth";\nexport const authOptions: NextAuthOptions = { providers: [] };\nexport const auth = 1;\n',
      fileName: "lib/auth.ts",
      compatModule: "./auth-v4-compat",
    });
    expect("reason" in clash && clash.reason).toMatch(/already declares `auth`/);
  });

  it("options written inline in the route's NextAuth({...}) get v4's cookie inside, the call made v5's exports around them", () => {
    const result = editConfig({
      text: 'import NextAuth from "next-auth";\nimport { adapter } from "./db";\n\nexport default NextAuth({\n  adapter,\n  providers: [],\n});\n',
      fileName: "auth.ts",
      compatModule: "./auth-v4-compat",
    });
    expect("text" in result && result.text).toBe(
      'import NextAuth from "next-auth";\nimport { adapter } from "./db";\nimport { v4SessionCookie } from "./auth-v4-compat";\n\nexport const { handlers, auth, signIn, signOut } = NextAuth({\n  adapter,\n  providers: [],\n  cookies: { sessionToken: v4SessionCookie },\n});\n',
    );
  });

  it("a custom session cookie stays the user's, and no decoder is added then", () => {
    const result = editConfig({
      text: 'import type { NextAuthOptions } from "next-auth";\nexport const authOptions: NextAuthOptions = {\n  providers: [],\n  cookies: { sessionToken: { name: "sid", options: {} } },\n};\n',
      fileName: "lib/auth.ts",
      compatModule: "./auth-v4-compat",
    });
    expect(result).toMatchObject({ status: "edited", cookieKept: false, decoderAdded: false });
    expect("text" in result && result.text).not.toContain("auth-v4-compat");
  });

  it("a route file is rewritten only when it does nothing but hand the options to NextAuth()", () => {
    expect(
      isBoilerplateRoute(
        'import NextAuth from "next-auth";\nimport { o } from "@/o";\nexport default NextAuth(o);\n',
        "r.ts",
      ),
    ).toBe(true);
    expect(
      isBoilerplateRoute(
        'import NextAuth from "next-auth";\nimport { o } from "@/o";\nexport default async function h(req, res) {\n  return NextAuth(req, res, o);\n}\n',
        "r.ts",
      ),
    ).toBe(false);
  });
});

describe("session calls on the server", () => {
  const rewrite = (text: string, fileName = "pages/api/x.ts") =>
    rewriteServerCalls({
      text,
      fileName,
      authModule: "@/auth",
      compatModule: "@/auth-v4-compat",
      isConfigModule: (s) => s.includes("[...nextauth]"),
    });

  it("getSession({ req }) in an API route takes the handler's response too", () => {
    const result = rewrite(
      'import { getSession } from "next-auth/react";\nexport default async function handler(req, res) {\n  const session = await getSession({ req });\n  res.json(session);\n}\n',
    );
    expect(result.text).toContain("await auth(req, res);");
    expect(result.text).not.toContain("next-auth/react");
  });

  it("getToken and unusual calls become manual steps, the file otherwise as it was", () => {
    const text =
      'import { getToken } from "next-auth/jwt";\nexport default async function handler(req, res) {\n  res.json(await getToken({ req }));\n}\n';
    const result = rewrite(text);
    expect(result.text).toBe(text);
    expect(result.manual).toEqual([expect.stringMatching(/^pages\/api\/x\.ts:3: getToken\(\) from next-auth\/jwt/)]);
  });

  it("client-side getSession() stays", () => {
    const text =
      'import { getSession } from "next-auth/react";\nexport async function load() {\n  return getSession();\n}\n';
    expect(rewrite(text, "components/x.tsx")).toMatchObject({ text, changed: false });
  });
});

describe("env files, package.json, next.config and names in code", () => {
  it("renames v4's names, keeps values, comments, export and CRLF", () => {
    const text =
      "# auth\r\nexport NEXTAUTH_SECRET='s3cret value'\r\nNEXTAUTH_URL=https://app.example.com\r\nOTHER=1\r\n";
    expect(renameEnv(text)).toEqual({
      text: "# auth\r\nexport AUTH_SECRET='s3cret value'\r\nAUTH_URL=https://app.example.com\r\nOTHER=1\r\n",
      renamed: ["NEXTAUTH_SECRET", "NEXTAUTH_URL"],
      kept: [],
    });
    expect(renameEnv("NEXTAUTH_SECRET=a\nAUTH_SECRET=b\n")).toMatchObject({ kept: ["NEXTAUTH_SECRET"], renamed: [] });
  });

  it("package.json: next-auth pinned to the beta, adapters swapped in place, unknown ones named", () => {
    const text =
      '{\n  "dependencies": {\n    "@next-auth/mongodb-adapter": "^1.1.3",\n    "@next-auth/fauna-adapter": "^1.0.4",\n    "mongodb": "^5.9.2",\n    "next-auth": "^4.24.5"\n  }\n}\n';
    expect(adapterSwaps(text)).toEqual({
      swapped: { "@next-auth/mongodb-adapter": "@auth/mongodb-adapter" },
      unknown: ["@next-auth/fauna-adapter"],
    });
    expect(
      editPackageJson(text, { "next-auth": "5.0.0-beta.32", "@auth/mongodb-adapter": "3.11.3" }, { mongodb: "^6.0.0" }),
    ).toBe(
      '{\n  "dependencies": {\n    "@auth/mongodb-adapter": "3.11.3",\n    "@next-auth/fauna-adapter": "^1.0.4",\n    "mongodb": "^6.0.0",\n    "next-auth": "5.0.0-beta.32"\n  }\n}\n',
    );
  });

  it("next.config: CommonJS, an existing list, and a shape it does not know", () => {
    expect(addTranspilePackage('module.exports = {\n  output: "standalone",\n};\n', "next.config.js")).toBe(
      'module.exports = {\n  output: "standalone",\n  transpilePackages: ["next-auth"],\n};\n',
    );
    expect(addTranspilePackage('export default { transpilePackages: ["ui"] };\n', "next.config.mjs")).toBe(
      'export default { transpilePackages: ["ui", "next-auth"] };\n',
    );
    expect(addTranspilePackage("export default withSentry({});\n", "next.config.mjs")).toBeUndefined();
  });

  it("process.env.NEXTAUTH_* and the adapters' modules in code", () => {
    expect(
      renameInCode(
        'import { MongoDBAdapter } from "@next-auth/mongodb-adapter";\nconst s = process.env.NEXTAUTH_SECRET ?? process.env["NEXTAUTH_URL"];\n',
        "lib/auth.ts",
      ),
    ).toBe(
      'import { MongoDBAdapter } from "@auth/mongodb-adapter";\nconst s = process.env.AUTH_SECRET ?? process.env["AUTH_URL"];\n',
    );
  });
});

describe("a middleware whose config needs Node.js", () => {
  async function project(next: string) {
    const { mkdirSync, writeFileSync } = await import("node:fs");
    const { join } = await import("node:path");
    const { tempDir } = await import("../helpers.js");
    const dir = tempDir();
    const files: Record<string, string> = {
      "package.json": JSON.stringify({
        dependencies: { next, "next-auth": "4.24.15", "@next-auth/prisma-adapter": "1.0.7" },
      }),
      "lib/auth.ts":
        'import { PrismaAdapter } from "@next-auth/prisma-adapter";\nimport { PrismaClient } from "@prisma/client";\nimport type { NextAuthOptions } from "next-auth";\n\nexport const authOptions: NextAuthOptions = { adapter: PrismaAdapter(new PrismaClient()), providers: [] };\n',
      "app/api/auth/[...nextauth]/route.ts":
        'import NextAuth from "next-auth";\nimport { authOptions } from "../../../../lib/auth";\n\nconst handler = NextAuth(authOptions);\nexport { handler as GET, handler as POST };\n',
      "middleware.ts":
        'export { default } from "next-auth/middleware";\n\nexport const config = { matcher: ["/app/:path*"] };\n',
      ".env": "NEXTAUTH_URL=http://localhost:3000\nNEXTAUTH_SECRET=x\n",
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(join(dir, path, ".."), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    const { planUpgrade } = await import("../../src/planners/upgrade/plan.js");
    const plan = await planUpgrade(dir);
    if (plan.status !== "planned") throw new Error(plan.reason);
    const middleware = plan.changes.find((c) => c.path.endsWith("middleware.ts"))!;
    return { plan, middleware };
  }

  it("Next.js 15.5 and later: the middleware runs on Node.js", async () => {
    const { plan, middleware } = await project("15.5.29");
    expect(middleware.after).toContain('export const config = { matcher: ["/app/:path*"], runtime: "nodejs" };');
    expect(plan.notes.join("\n")).toMatch(
      /middleware\.ts runs on Node\.js now: the config it loads uses @next-auth\/prisma-adapter, @prisma\/client/,
    );
  });

  it("before 15.5: the split for the edge is a manual step, the runtime untouched", async () => {
    const { plan, middleware } = await project("15.3.0");
    expect(middleware.after).not.toContain("runtime");
    expect(plan.manual.join("\n")).toMatch(/split the config \(an auth\.config\.ts without them for the middleware\)/);
  });
});
