/**
 * `import { adapterContract, adapterExploration } from "create-auth/vitest"`:
 * the contract suite as vitest tests, one per case, and the model-based
 * exploration as one test, for teams that want them inside their own run.
 */

import picomatch from "picomatch";
import { afterAll, beforeAll, describe, it } from "vitest";
import { HungMethods } from "./contract/access/calls.js";
import { newNonce, newSeed } from "./contract/access/random.js";
import { allCases } from "./contract/cases/index.js";
import { explore, formatSnippet } from "./contract/explore/run.js";
import { runCase } from "./contract/run/runner.js";
import { type AdapterMethod, type AnyAdapter, hasMethod } from "./contract/spec/adapter.js";
import { type CapabilityName, capabilities } from "./contract/spec/capabilities.js";

type Awaitable<T> = T | PromiseLike<T>;

export interface AdapterContractOptions {
  /** Runs before the adapter is resolved (create tables). */
  setup?: () => Awaitable<unknown>;
  /** Runs after the last case, even when cases fail (close pools). */
  teardown?: () => Awaitable<unknown>;
  /** Case ids or globs. */
  only?: string[];
  skip?: string[];
  /** Capabilities whose absence is a failing test. */
  require?: CapabilityName[];
  seed?: number;
  /** Tolerated deviations fail too (see the README's failure policy). */
  strict?: boolean;
  /** Per-case limit in milliseconds (default 5000). */
  timeout?: number;
  /** Name of the describe block (default "adapter contract"). */
  name?: string;
}

/**
 * Registers the contract cases as tests. `adapter` is an adapter object, a
 * factory (called once, after setup) or a promise of an adapter.
 */
export function adapterContract(
  adapter: AnyAdapter | (() => Awaitable<AnyAdapter>) | PromiseLike<AnyAdapter>,
  options: AdapterContractOptions = {},
): void {
  const seed = options.seed ?? newSeed();
  const nonce = newNonce();
  const strict = options.strict ?? false;
  // Shared by the cases: a method that never settles costs one timeout, not one per case.
  const hung = new HungMethods();
  const timeout = options.timeout ?? 5000;
  const matches = (patterns: string[] | undefined, id: string) => (patterns ?? []).some((p) => picomatch(p)(id));
  const cases = allCases.filter(
    (c) => (!options.only?.length || matches(options.only, c.id)) && !matches(options.skip, c.id),
  );

  describe(options.name ?? `adapter contract (seed ${seed})`, () => {
    let resolved: AnyAdapter;
    beforeAll(async () => {
      await options.setup?.();
      resolved = typeof adapter === "function" ? await adapter() : await adapter;
    });
    afterAll(async () => {
      await options.teardown?.();
    });

    for (const name of options.require ?? []) {
      it(`supports ${capabilities[name].title} (${name})`, () => {
        const missing = capabilities[name].methods.filter((m) => !hasMethod(resolved, m));
        if (missing.length > 0)
          throw new Error(`required capability "${name}" is not supported: missing ${missing.join(", ")}`);
      });
    }

    for (const contractCase of cases) {
      it(`${contractCase.id}: ${contractCase.title}`, { timeout: timeout * 2 + 1000 }, async (context) => {
        if (contractCase.needs.some((m) => !hasMethod(resolved, m))) return context.skip();
        const result = await runCase(resolved, contractCase, { seed, nonce, timeoutMs: timeout, strict, hung });
        for (const warning of result.warnings) console.warn(`${contractCase.id}: ${warning}`);
        if (result.status === "failed") {
          const f = result.failure!;
          const lines = [
            f.message,
            f.expected !== undefined ? `expected: ${f.expected}` : "",
            f.received !== undefined ? `received: ${f.received}` : "",
            `rerun with seed ${seed}`,
          ];
          throw new Error(lines.filter(Boolean).join("\n"));
        }
      });
    }
  });
}

export interface AdapterExplorationOptions {
  /** Runs before the adapter is resolved (create tables). */
  setup?: () => Awaitable<unknown>;
  /** Runs after the exploration, even when it fails (close pools). */
  teardown?: () => Awaitable<unknown>;
  /** Replays the same sequences; a new seed each run by default. */
  seed?: number;
  /** Sequences to run (default 100) and a time budget in milliseconds (default 20000), whichever ends first. */
  runs?: number;
  timeLimit?: number;
  /** Per adapter call limit in milliseconds (default 5000). */
  timeout?: number;
  /** Methods never to call. */
  exclude?: AdapterMethod[];
  /** Deviations the service tolerates fail too. */
  strict?: boolean;
  /** Path of your adapter module, used in the printed reproduction (default "./adapter"). */
  modulePath?: string;
  /** Name of the test (default "adapter exploration (seed N)"). */
  name?: string;
}

/**
 * Registers one test that explores the adapter with random sequences of
 * calls checked against a model of the contract. A divergence fails the test
 * with the smallest sequence that shows it and a program that reproduces it.
 */
export function adapterExploration(
  adapter: AnyAdapter | (() => Awaitable<AnyAdapter>) | PromiseLike<AnyAdapter>,
  options: AdapterExplorationOptions = {},
): void {
  const seed = options.seed ?? newSeed();
  const timeLimit = options.timeLimit ?? 20_000;
  const callTimeout = options.timeout ?? 5000;
  // Budget, then up to 30 s of shrinking, then cleanup calls.
  const testTimeout = timeLimit + 30_000 + callTimeout * 4 + 5000;

  it(options.name ?? `adapter exploration (seed ${seed})`, { timeout: testTimeout }, async () => {
    await options.setup?.();
    try {
      const resolved = typeof adapter === "function" ? await adapter() : await adapter;
      const result = await explore({
        adapter: resolved,
        seed,
        runs: options.runs ?? 100,
        timeLimitMs: timeLimit,
        callTimeoutMs: callTimeout,
        exclude: options.exclude,
        strict: options.strict,
        nonce: newNonce(),
      });
      for (const warning of result.warnings) console.warn(`adapter exploration: ${warning}`);
      const f = result.failure;
      if (f) {
        const lines = [
          f.message,
          f.expected !== undefined ? `expected: ${f.expected}` : "",
          f.received !== undefined ? `received: ${f.received}` : "",
          "smallest sequence that shows it:",
          ...f.steps.map((step, i) => `  ${i + 1}. ${step}`),
          `replay with seed ${seed} (verify-adapter ${f.replay})`,
          "",
          "reproduction:",
          formatSnippet(f, options.modulePath ?? "./adapter"),
        ];
        throw new Error(lines.filter((l, i) => l !== "" || i > 0).join("\n"));
      }
      if (!result.ok) throw new Error(`warnings fail under strict: ${result.warnings.join("; ")}`);
    } finally {
      await options.teardown?.();
    }
  });
}
