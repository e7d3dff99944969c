/**
 * Project variants: the base apps of fixtures/apps/ as users have them, with
 * a hooks or middleware file of their own. Each variant is a small transform
 * applied to a fresh copy of the app in the test (never a copied app): it
 * writes the user's file, and says what must still hold after init (a piece
 * of their own code, kept) and how the composition shows.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

export interface HooksVariant {
  /** Names the shape: "sveltekit: a handle setting a security header". */
  name: string;
  app: "sveltekit" | "astro" | "next";
  /** The user's own file, project-relative. */
  file: string;
  /** Writes it (and what it imports) into a fresh copy of the app. */
  apply(dir: string): void;
  /** Code of theirs that must be in the file after init, byte for byte. */
  kept: string;
  /** What the file exports after init: Auth.js's handler composed with theirs. */
  composed: RegExp;
  /** init's --protect, for the variants whose framework needs a middleware only to protect pages. */
  protect?: string;
}

function write(dir: string, file: string, text: string) {
  mkdirSync(dirname(join(dir, file)), { recursive: true });
  writeFileSync(join(dir, file), text);
}

/** The header every SvelteKit variant sets, so a browser test can see their handle still runs. */
export const ownHeader = { name: "x-app-hooks", value: "kept" };

const securityHeaderHandle = `const response = await resolve(event);
  response.headers.set("${ownHeader.name}", "${ownHeader.value}");
  return response;`;

export const hooksVariants: HooksVariant[] = [
  {
    name: "sveltekit: a typed handle setting a header, handleError beside it",
    app: "sveltekit",
    file: "src/hooks.server.ts",
    apply: (dir) =>
      write(
        dir,
        "src/hooks.server.ts",
        `import type { Handle, HandleServerError } from "@sveltejs/kit";

export const handle: Handle = async ({ event, resolve }) => {
  ${securityHeaderHandle}
};

export const handleError: HandleServerError = ({ error }) => {
  console.error(error);
  return { message: "Something went wrong" };
};
`,
      ),
    kept: securityHeaderHandle,
    composed: /^export const handle = sequence\(authHandle, appHandle\);$/m,
  },
  {
    name: "sveltekit: handles already in a sequence(), an init hook, --protect",
    app: "sveltekit",
    file: "src/hooks.server.ts",
    apply: (dir) => {
      write(
        dir,
        "src/lib/server/headers.ts",
        `import type { Handle } from "@sveltejs/kit";

export const headers: Handle = async ({ event, resolve }) => {
  ${securityHeaderHandle}
};
`,
      );
      write(
        dir,
        "src/hooks.server.ts",
        `import type { Handle, ServerInit } from "@sveltejs/kit";
import { sequence } from "@sveltejs/kit/hooks";
import { headers } from "$lib/server/headers";

const timing: Handle = async ({ event, resolve }) => {
  const started = performance.now();
  const response = await resolve(event);
  response.headers.set("server-timing", \`app;dur=\${performance.now() - started}\`);
  return response;
};

export const handle = sequence(headers, timing);

export const init: ServerInit = async () => {
  console.log("server starting");
};
`,
      );
    },
    kept: 'response.headers.set("server-timing"',
    composed: /^export const handle = sequence\(authHandle, protect, headers, timing\);$/m,
    protect: "/dashboard/:path*",
  },
  {
    name: "sveltekit: hooks.server.js with a JSDoc-typed function",
    app: "sveltekit",
    file: "src/hooks.server.js",
    apply: (dir) =>
      write(
        dir,
        "src/hooks.server.js",
        `/** @type {import('@sveltejs/kit').Handle} */
export async function handle({ event, resolve }) {
  ${securityHeaderHandle.replaceAll('"', "'").replace(/;$/gm, "")}
}
`,
      ),
    kept: "/** @type {import('@sveltejs/kit').Handle} */\nasync function appHandle({ event, resolve }) {",
    composed: /^export const handle = sequence\(authHandle, appHandle\)$/m,
  },
  {
    name: "astro: a defineMiddleware setting a header, --protect",
    app: "astro",
    file: "src/middleware.ts",
    apply: (dir) =>
      write(
        dir,
        "src/middleware.ts",
        `import { defineMiddleware } from "astro:middleware";

export const onRequest = defineMiddleware(async (_context, next) => {
  const response = await next();
  response.headers.set("${ownHeader.name}", "${ownHeader.value}");
  return response;
});
`,
      ),
    kept: `response.headers.set("${ownHeader.name}", "${ownHeader.value}");`,
    composed: /^export const onRequest = sequence\(protect, appOnRequest\);$/m,
    protect: "/dashboard/:path*",
  },
  {
    name: "astro: src/middleware/index.ts with a sequence() of its own, --protect",
    app: "astro",
    file: "src/middleware/index.ts",
    apply: (dir) => {
      write(
        dir,
        "src/middleware/timing.ts",
        `import type { MiddlewareHandler } from "astro";

export const timing: MiddlewareHandler = async (_context, next) => {
  const started = performance.now();
  const response = await next();
  response.headers.set("server-timing", \`app;dur=\${performance.now() - started}\`);
  return response;
};
`,
      );
      write(
        dir,
        "src/middleware/index.ts",
        `import { defineMiddleware, sequence } from "astro:middleware";
import { timing } from "./timing";

const headers = defineMiddleware(async (_context, next) => {
  const response = await next();
  response.headers.set("${ownHeader.name}", "${ownHeader.value}");
  return response;
});

export const onRequest = sequence(timing, headers);
`,
      );
    },
    kept: 'import { timing } from "./timing";',
    composed: /^export const onRequest = sequence\(protect, timing, headers\);$/m,
    protect: "/dashboard/:path*",
  },
  {
    name: "next: proxy.ts with a default function setting a header on the paths of its matcher, --protect",
    app: "next",
    file: "proxy.ts",
    apply: (dir) =>
      write(
        dir,
        "proxy.ts",
        `import { NextResponse } from "next/server";

export default function proxy() {
  const response = NextResponse.next();
  response.headers.set("${ownHeader.name}", "${ownHeader.value}");
  return response;
}

export const config = {
  matcher: ["/", "/admin/:path*"],
};
`,
      ),
    kept: `response.headers.set("${ownHeader.name}", "${ownHeader.value}");`,
    composed: /^export default protect\(appProxy, \[\/\^\\\/\\\/\?\$\/, \/\^\\\/admin.*\]\);$/m,
    protect: "/dashboard/:path*",
  },
  {
    name: "next: middleware.ts (Next.js 15's name) with the usual catch-all matcher, --protect",
    app: "next",
    file: "middleware.ts",
    apply: (dir) =>
      write(
        dir,
        "middleware.ts",
        `import { type NextRequest, NextResponse } from "next/server";

export function middleware(request: NextRequest) {
  if (request.nextUrl.pathname === "/admin/legacy") return NextResponse.redirect(new URL("/admin", request.url));
}

export const config = { matcher: ["/((?!api|_next/static|_next/image|favicon.ico).*)"] };
`,
      ),
    kept: 'if (request.nextUrl.pathname === "/admin/legacy")',
    composed: /^export const middleware = protect\(appMiddleware, \[\/\^\\\/\(\?:\(\?!api.*\]\);$/m,
    protect: "/dashboard/:path*",
  },
];
