// Builds dist/ from src/ before the tests of a layer that runs it (vitest.config.ts), so tests
// that run the CLI as a user does (bin/create-auth.js loads the bundle) exercise the code as edited.
import { buildAll } from "../../scripts/build.js";

/** Several layers list this setup; in one vitest run they share one build (their setups run in this process). */
const key = Symbol.for("create-auth.test.build");
const shared = globalThis as { [key]?: Promise<void> };

export default async function setup(): Promise<void> {
  shared[key] ??= buildAll();
  await shared[key];
}
