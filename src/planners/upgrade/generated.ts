/**
 * The files `upgrade` writes anew: the App Router route that serves v5's
 * endpoints, and a small module beside the config that keeps v4's users
 * signed in (v4's session cookie by name, a decoder for v4's JWTs) and
 * reads the CSRF token on the server as v4's `getCsrfToken(context)` did.
 * Facts from next-auth's own source: v4 derived the JWT key with HKDF-SHA256
 * from the secret alone (no salt, info "NextAuth.js Generated Encryption
 * Key") and encrypted with A256GCM ("dir"); v5 salts with the cookie's name
 * and uses A256CBC-HS512. Web Crypto only, so the middleware's runtime reads
 * it too.
 */

/**
 * The route, as init's Next.js route: a POST (a sign-in) reaches Auth.js with the client's address
 * (withClientAddress of the client-address module), which the sign-in throttle counts attempts by.
 */
export function routeFile(
  modules: { auth: string; clientAddress: string },
  semicolon: string,
  typescript = true,
): string {
  const s = semicolon;
  return [
    "/**",
    " * Auth.js's routes under /api/auth, served by the handlers of the auth config",
    " * (written by create-auth upgrade). A POST (a sign-in) reaches them with the",
    " * client's address, which a sign-in throttle counts attempts by: `next start`",
    " * writes the connection's address into X-Forwarded-For when a request has none,",
    " * and a platform in front of it (Vercel, a proxy) writes its own. A client that",
    " * reaches `next start` directly can send one of its choosing, so put a proxy",
    " * that sets X-Forwarded-For in front of it.",
    " */",
    `import { NextRequest } from "next/server"${s}`,
    `import { handlers } from "${modules.auth}"${s}`,
    `import { lastForwardedFor, withClientAddress } from "${modules.clientAddress}"${s}`,
    "",
    `export const { GET } = handlers${s}`,
    "",
    `export const POST = (request${typescript ? ": NextRequest" : ""}) =>`,
    `  handlers.POST(new NextRequest(withClientAddress(request, lastForwardedFor(request.headers))))${s}`,
    "",
  ].join("\n");
}

const header = `/**
 * Keeps people who signed in under next-auth v4 signed in after the move to
 * v5 (written by create-auth upgrade). v4 named its session cookie
 * next-auth.session-token, v5 authjs.session-token: the config keeps v4's
 * name. A v4 session token (JWT sessions) was encrypted with another key
 * than v5 derives, so decodeV4Session reads v5's tokens as v5 does and, when
 * that fails, a v4 token; v5 then re-issues the cookie in its own format.
 * Once every v4 session has expired (30 days unless session.maxAge says
 * otherwise), decodeV4Session can go from the config.
 */`;

/**
 * The module in TypeScript or JavaScript. Written to compile under any tsconfig
 * a project has: no iteration of typed arrays (ES5, the default target, forbids
 * it), env values destructured (noPropertyAccessFromIndexSignature), type-only
 * imports marked (verbatimModuleSyntax), and JSDoc types in JavaScript so a
 * project with checkJs reads it as typed as the TypeScript one.
 */
export function compatModule(typescript: boolean, needs: { csrf: boolean; jwtSecret: boolean }): string {
  const t = (typed: string, plain = "") => (typescript ? typed : plain);
  /** A doc comment: its summary, and in JavaScript the types TypeScript states in the signature. */
  const doc = (summary: string[], ...jsTypes: string[]) => {
    const tags = typescript ? [] : jsTypes;
    if (summary.length === 1 && tags.length === 0) return [`/** ${summary[0]} */`];
    const body = [...summary, ...(summary.length && tags.length ? [""] : []), ...tags];
    return ["/**", ...body.map((line) => (line ? ` * ${line}` : " *")), " */"];
  };
  const jwtTypes = (name: string) => `import("next-auth/jwt").${name}`;
  const lines = [
    header,
    needs.jwtSecret ? `import { decode, encode } from "next-auth/jwt";` : `import { decode } from "next-auth/jwt";`,
    ...(typescript
      ? [`import type { JWT, JWTDecodeParams${needs.jwtSecret ? ", JWTEncodeParams" : ""} } from "next-auth/jwt";`]
      : []),
    ...(typescript && needs.csrf ? [`import type { IncomingMessage, ServerResponse } from "node:http";`] : []),
    "",
    "// Secure cookies (with the __Secure- prefix) exactly where v4 used them: an https AUTH_URL, or Vercel.",
    "const { AUTH_URL, VERCEL } = process.env;",
    `const secure = AUTH_URL?.startsWith("https://") ?? !!VERCEL;`,
    "",
    "export const v4SessionCookie = {",
    '  name: `${secure ? "__Secure-" : ""}next-auth.session-token`,',
    `  options: { httpOnly: true, sameSite: ${t(`"lax" as const`, `/** @type {"lax"} */ ("lax")`)}, path: "/", secure },`,
    "};",
    "",
    `const encoder = new TextEncoder();`,
    "",
    ...doc([], "@param {string} text"),
    `function fromBase64Url(text${t(": string")}) {`,
    `  const base64 = text.replace(/-/g, "+").replace(/_/g, "/");`,
    `  const binary = atob(base64 + "=".repeat((4 - (base64.length % 4)) % 4));`,
    `  return Uint8Array.from(binary, (c) => c.charCodeAt(0));`,
    "}",
    "",
    ...doc(
      ["A v4 session token: a compact JWE, alg dir, enc A256GCM, its key HKDF-SHA256(secret, no salt, v4's info)."],
      "@param {string} token",
      "@param {string} secret",
      `@returns {Promise<${jwtTypes("JWT")} | null>}`,
    ),
    `async function decodeV4Token(token${t(": string")}, secret${t(": string")})${t(": Promise<JWT | null>")} {`,
    `  const [header, encryptedKey, iv, ciphertext, tag] = token.split(".");`,
    `  if (header === undefined || encryptedKey !== "" || !iv || ciphertext === undefined || !tag) return null;`,
    `  const { alg, enc } = JSON.parse(new TextDecoder().decode(fromBase64Url(header)));`,
    `  if (alg !== "dir" || enc !== "A256GCM") return null;`,
    `  const material = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, ["deriveKey"]);`,
    "  const key = await crypto.subtle.deriveKey(",
    `    { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: encoder.encode("NextAuth.js Generated Encryption Key") },`,
    "    material,",
    `    { name: "AES-GCM", length: 256 },`,
    "    false,",
    `    ["decrypt"],`,
    "  );",
    "  // Web Crypto takes the ciphertext and its tag as one buffer.",
    "  const body = fromBase64Url(ciphertext);",
    "  const check = fromBase64Url(tag);",
    "  const sealed = new Uint8Array(body.length + check.length);",
    "  sealed.set(body);",
    "  sealed.set(check, body.length);",
    "  const plain = await crypto.subtle.decrypt(",
    `    { name: "AES-GCM", iv: fromBase64Url(iv), additionalData: encoder.encode(header), tagLength: 128 },`,
    "    key,",
    "    sealed,",
    "  );",
    ...(typescript ? [] : [`  /** @type {${jwtTypes("JWT")}} */`]),
    `  const payload${t(": JWT")} = JSON.parse(new TextDecoder().decode(plain));`,
    "  // v4 allowed 15 seconds of clock skew.",
    `  if (typeof payload.exp === "number" && payload.exp < Date.now() / 1000 - 15) return null;`,
    "  return payload;",
    "}",
    "",
    ...doc(
      ["v5's decoder first; a token only v4 could have made, second."],
      `@param {${jwtTypes("JWTDecodeParams")}} params`,
      `@returns {Promise<${jwtTypes("JWT")} | null>}`,
    ),
    `export async function decodeV4Session(params${t(": JWTDecodeParams")})${t(": Promise<JWT | null>")} {`,
    "  try {",
    "    const token = await decode(params);",
    "    if (token) return token;",
    "  } catch {",
    "    // Not a v5 token: perhaps a v4 one.",
    "  }",
    "  if (!params.token) return null;",
    "  for (const secret of Array.isArray(params.secret) ? params.secret : [params.secret]) {",
    "    try {",
    "      const token = await decodeV4Token(params.token, secret);",
    "      if (token) return token;",
    "    } catch {",
    "      // Not this secret's.",
    "    }",
    "  }",
    "  return null;",
    "}",
  ];
  if (needs.jwtSecret) {
    lines.push(
      "",
      ...doc(
        [
          "v4's jwt.secret: session tokens encrypted with their own secret rather than the",
          "auth secret. v5 honours jwt.secret but no longer types it, so encoding and",
          "decoding take it here; v4's tokens, made with it, still open.",
        ],
        "@param {string | undefined} secret",
      ),
      `export function jwtWithSecret(secret${t(": string | undefined")}) {`,
      "  return {",
      `    encode: (${t("params: JWTEncodeParams", `/** @type {${jwtTypes("JWTEncodeParams")}} */ params`)}) => encode({ ...params, secret: secret ?? params.secret }),`,
      `    decode: (${t("params: JWTDecodeParams", `/** @type {${jwtTypes("JWTDecodeParams")}} */ params`)}) => decodeV4Session({ ...params, secret: secret ?? params.secret }),`,
      "  };",
      "}",
    );
  }
  if (needs.csrf) {
    lines.push(
      "",
      ...doc(
        [
          "The CSRF token for a form that posts to Auth.js, read on the server as",
          "v4's getCsrfToken(context) did (v5's runs in the browser only): asked of",
          "the app's own auth route with the visitor's cookies, and the CSRF cookie",
          "it sets passed on to the visitor.",
        ],
        '@param {{ req: import("node:http").IncomingMessage; res: import("node:http").ServerResponse }} context',
        "@returns {Promise<string>}",
      ),
      `export async function getServerCsrfToken(context${t(": { req: IncomingMessage; res: ServerResponse }")})${t(": Promise<string>")} {`,
      "  const { req, res } = context;",
      "  // Where v4 asked: NEXTAUTH_URL (now AUTH_URL), else localhost.",
      "  const { AUTH_URL, PORT } = process.env;",
      "  const url = AUTH_URL ?? `http://localhost:${PORT ?? 3000}`;",
      `  const base = new URL(url).pathname === "/" ? \`\${url.replace(/\\/$/, "")}/api/auth\` : url.replace(/\\/$/, "");`,
      '  const response = await fetch(`${base}/csrf`, { headers: { cookie: req.headers.cookie ?? "" } });',
      `  for (const cookie of response.headers.getSetCookie()) res.appendHeader("set-cookie", cookie);`,
      `  const { csrfToken } = ${typescript ? "(await response.json()) as { csrfToken: string }" : "/** @type {{ csrfToken: string }} */ (await response.json())"};`,
      "  return csrfToken;",
      "}",
    );
  }
  return `${lines.join("\n")}\n`;
}
