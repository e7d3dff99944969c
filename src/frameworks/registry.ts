/**
 * The frameworks init wires sign-in into and doctor reads, one module each.
 * Adding one is its module (framework.ts says what it declares), its
 * templates and a line here. Detection asks every module; when several
 * recognise the project, the highest precedence wins.
 */

import type { ProjectView } from "../workspace/project-view.js";
import { astro } from "./astro/index.js";
import { elysia } from "./elysia/index.js";
import { express } from "./express/index.js";
import { fastify } from "./fastify/index.js";
import { type Detected, type FrameworkModule, frameworkModuleOf } from "./framework.js";
import { hono } from "./hono/index.js";
import { next } from "./next/index.js";
import { nitro } from "./nitro/index.js";
import { none } from "./none.js";
import { nuxt } from "./nuxt/index.js";
import { qwik } from "./qwik/index.js";
import { reactRouter } from "./react-router/index.js";
import { solidStart } from "./solid-start/index.js";
import { sveltekit } from "./sveltekit/index.js";
import { tanstackStart } from "./tanstack-start/index.js";

export const frameworkModules: readonly FrameworkModule[] = [
  next,
  sveltekit,
  reactRouter,
  qwik,
  astro,
  nuxt,
  nitro,
  tanstackStart,
  solidStart,
  hono,
  express,
  fastify,
  elysia,
  none,
].map((m) => frameworkModuleOf<unknown>(m as FrameworkModule<never>));

/** The ids in --help and prompt order. */
export const frameworkIds = frameworkModules.map((f) => f.id) as [string, ...string[]];

export function frameworkById(id: string): FrameworkModule {
  const found = frameworkModules.find((f) => f.id === id);
  if (!found) throw new Error(`No framework module "${id}"`);
  return found;
}

export interface FrameworkDetection extends Detected<unknown> {
  framework: FrameworkModule;
  /** Other frameworks the project also shows, which lost on precedence. */
  alsoSeen: string[];
}

/** The framework the project is built on, with its facts; "none" when nothing is recognised. */
export function detectFramework(project: ProjectView): FrameworkDetection {
  const seen = frameworkModules
    .map((framework) => ({ framework, detected: framework.detect(project) }))
    .filter((s): s is { framework: FrameworkModule; detected: Detected<unknown> } => s.detected !== undefined)
    .sort(
      (a, b) =>
        Number(b.detected.by === "dependency") - Number(a.detected.by === "dependency") ||
        b.framework.precedence - a.framework.precedence,
    );
  const [first, ...others] = seen;
  if (!first) {
    return {
      framework: none,
      facts: none.assume(project),
      reason: "no framework create-auth wires was found in package.json or its config files",
      by: "file",
      alsoSeen: [],
    };
  }
  return { framework: first.framework, ...first.detected, alsoSeen: others.map((o) => o.framework.title) };
}

/** The framework --framework names, with the project's facts as detection would read them (or assumed). */
export function chosenFramework(project: ProjectView, id: string): FrameworkDetection {
  const framework = frameworkById(id);
  const detected = framework.detect(project);
  return {
    framework,
    facts: detected?.facts ?? framework.assume(project),
    reason: detected?.reason ?? `--framework ${id}`,
    by: detected?.by ?? "file",
    alsoSeen: [],
  };
}

/** The framework whose Auth.js package the project depends on or its config imports, for projects detection does not place. */
export function frameworkByAuthPackage(has: (name: string) => boolean): FrameworkModule | undefined {
  // @auth/core is every generic wiring's package: it names no framework.
  return frameworkModules.find((f) => f.authPackage !== none.authPackage && has(f.authPackage));
}
