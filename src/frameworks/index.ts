/**
 * The frameworks init wires sign-in into, one module each. Detection tries
 * them in this order: dependencies first, then config files.
 */
import { express } from "./express.js";
import type { Framework, FrameworkDefinition } from "./framework.js";
import { next } from "./next.js";
import { none } from "./none.js";
import { sveltekit } from "./sveltekit.js";

export { type Framework, type FrameworkDefinition, frameworks } from "./framework.js";

export const frameworkCatalog: Record<Framework, FrameworkDefinition> = { next, sveltekit, express, none };
