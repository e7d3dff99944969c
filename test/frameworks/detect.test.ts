// Which framework a project is on: a dependency first, then a config file, else none, with the reason shown.
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { detectFramework, frameworkIds } from "../../src/frameworks/registry.js";
import { ProjectView } from "../../src/workspace/project-view.js";
import { fixture, tempDir } from "../helpers.js";
import { frameworkAppRows } from "../support/framework-apps.js";

function project(files: Record<string, string>): string {
  const dir = tempDir("create-auth-detect-");
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

describe("detectFramework", () => {
  it.each([
    [
      { "package.json": '{ "dependencies": { "express": "5" } }', "next.config.mjs": "" },
      "express",
      "express in package.json",
    ],
    [
      { "package.json": '{ "devDependencies": { "@sveltejs/kit": "2" } }' },
      "sveltekit",
      "@sveltejs/kit in package.json",
    ],
    [{ "package.json": "{}", "next.config.ts": "" }, "next", "next.config.ts"],
    [{ "package.json": '{ "dependencies": { "fastify": "5" } }' }, "fastify", "fastify in package.json"],
    [{ "package.json": '{ "dependencies": { "fastify": "5", "next": "16" } }' }, "next", "next in package.json"],
    [
      { "package.json": '{ "dependencies": { "elysia": "1", "@elysiajs/node": "1" } }' },
      "elysia",
      "elysia in package.json",
    ],
    [
      { "package.json": '{ "dependencies": { "@react-router/serve": "7", "express": "5" } }' },
      "react-router",
      "@react-router/serve in package.json",
    ],
    [
      { "package.json": '{ "devDependencies": { "@react-router/dev": "8" }, "dependencies": { "hono": "4" } }' },
      "react-router",
      "@react-router/dev in package.json",
    ],
    [{ "package.json": "{}", "react-router.config.ts": "" }, "react-router", "react-router.config.ts"],
    [
      { "package.json": '{ "devDependencies": { "@builder.io/qwik-city": "1", "@builder.io/qwik": "1" } }' },
      "qwik",
      "@builder.io/qwik-city in package.json",
    ],
    [
      { "package.json": '{ "devDependencies": { "@builder.io/qwik": "1" }, "dependencies": { "express": "5" } }' },
      "qwik",
      "@builder.io/qwik in package.json",
    ],
    [{ "svelte.config.js": "" }, "sveltekit", "svelte.config.js"],
    [
      { "package.json": '{ "dependencies": { "astro": "7", "hono": "4" } }', "astro.config.mjs": "" },
      "astro",
      "astro in package.json",
    ],
    [{ "astro.config.ts": "" }, "astro", "astro.config.ts"],
    [{ "package.json": '{ "dependencies": { "nuxt": "4", "hono": "4" } }' }, "nuxt", "nuxt in package.json"],
    [{ "nuxt.config.ts": "" }, "nuxt", "nuxt.config.ts"],
    [{ "package.json": '{ "devDependencies": { "nitro": "3" } }' }, "nitro", "nitro in package.json"],
    [{ "package.json": '{ "dependencies": { "nuxt": "4", "nitro": "3" } }' }, "nuxt", "nuxt in package.json"],
    [{ "nitro.config.ts": "" }, "nitro", "nitro.config.ts"],
    [{ "package.json": '{ "devDependencies": { "nitropack": "2" } }' }, "nitro", "nitropack in package.json"],
    [{ "package.json": '{ "dependencies": { "nuxt": "4", "nitropack": "2" } }' }, "nuxt", "nuxt in package.json"],
    [
      { "package.json": '{ "dependencies": { "@tanstack/react-start": "1" }, "devDependencies": { "nitro": "3" } }' },
      "tanstack-start",
      "@tanstack/react-start in package.json",
    ],
    [
      { "package.json": '{ "dependencies": { "@solidjs/start": "2" }, "devDependencies": { "nitro": "3" } }' },
      "solid-start",
      "@solidjs/start in package.json",
    ],
    [{ "package.json": "{}" }, "none", "no framework create-auth wires was found in package.json or its config files"],
  ] as const)("%j is %s (%s)", (files, framework, reason) => {
    const detected = detectFramework(new ProjectView(project(files)));
    expect({ framework: detected.framework.id, reason: detected.reason }).toEqual({ framework, reason });
  });
});

// The apps' table (test/support/framework-apps.ts) is what doctor's wiring tests and the browser flows
// iterate: each of its apps must be the framework its row says, and every framework must have one.
describe("the fixture apps", () => {
  it.each(frameworkAppRows)("%s is detected as its row's framework", (app, row) => {
    expect(detectFramework(new ProjectView(fixture("apps", app))).framework.id).toBe(row.framework);
  });

  it("have a row each, and every framework init wires has an app", () => {
    expect(readdirSync(fixture("apps")).sort()).toEqual(frameworkAppRows.map(([app]) => app).sort());
    const covered = new Set(frameworkAppRows.map(([, row]) => row.framework));
    expect(frameworkIds.filter((id) => id !== "none" && !covered.has(id))).toEqual([]);
  });
});
