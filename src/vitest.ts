/**
 * `import { adapterContract } from "create-auth/vitest"`: the contract suite
 * as vitest tests, one per case, for teams that want it inside their own run.
 */

import picomatch from "picomatch";
import { afterAll, beforeAll, describe, it } from "vitest";
import { type AnyAdapter, hasMethod } from "./contract/adapter.js";
import { HungMethods } from "./contract/calls.js";
import { type CapabilityName, capabilities } from "./contract/capabilities.js";
import { allCases } from "./contract/cases/index.js";
import { newNonce, newSeed } from "./contract/random.js";
import { runCase } from "./contract/runner.js";

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
