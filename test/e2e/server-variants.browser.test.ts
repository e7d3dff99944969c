/**
 * Server apps in shapes their users give them (test/variants/), signed in
 * after `init --yes` with no file written by hand, built and started as the
 * user would: Express 5 in TypeScript with its own src/server.ts (body
 * parsers, routes in src/routes/) and tsconfig rootDir src, built by tsc
 * and started with node dist/server.js, and the same in JavaScript, run
 * with node src/server.js as written; Hono whose entry serves the app it
 * imports from ./app, where the app and its middleware are made.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { compose } from "../variants/index.js";
import { javascript } from "../variants/javascript.js";
import { appModule, expressServer } from "../variants/server.js";
import { rootDir } from "../variants/tsconfig.js";
import { useBrowserAndMail } from "./apps.js";
import { useCleanup } from "./cleanup.js";
import { signInFlow } from "./framework-flow.js";

describe("server apps in their users' shapes", () => {
  const tools = useBrowserAndMail();
  const defer = useCleanup();

  test("Express with its own src/server.ts and rootDir src: init mounts it; tsc, node dist/server.js, sign-in", async () => {
    const timings = await signInFlow(
      {
        app: "express",
        basePath: "/auth",
        variant: compose("own-server-root-dir", "its own server, rootDir src", expressServer, rootDir),
        production: { build: "build", start: "start", dashboard: "/dashboard" },
        // tsc kept its layout: the server the start script names is where it was.
        afterBuild: (dir) => expect(existsSync(join(dir, "dist/server.js"))).toBe(true),
      },
      { ...tools, defer },
    );
    console.log(`[express, own server, rootDir] ${JSON.stringify(timings)} s`);
  }, 900_000);

  test("Express in JavaScript (no TypeScript): init writes JavaScript and mounts it; node src/server.js, sign-in", async () => {
    const timings = await signInFlow(
      {
        app: "express",
        basePath: "/auth",
        variant: compose("own-server-javascript", "its own server, in JavaScript", expressServer, javascript),
        production: { start: "start", dashboard: "/dashboard" },
        afterInit: (dir) => expect(existsSync(join(dir, "src/auth/express.js"))).toBe(true),
      },
      { ...tools, defer },
    );
    console.log(`[express, JavaScript] ${JSON.stringify(timings)} s`);
  }, 900_000);

  test("Hono whose entry imports the app from ./app: init mounts it there; tsc, node dist/index.js, sign-in", async () => {
    const timings = await signInFlow(
      {
        app: "hono",
        basePath: "/auth",
        variant: appModule,
        afterBuild: (dir) => expect(existsSync(join(dir, "dist/index.js"))).toBe(true),
      },
      { ...tools, defer },
    );
    console.log(`[hono, app in its own module] ${JSON.stringify(timings)} s`);
  }, 900_000);
});
