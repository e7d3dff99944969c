/**
 * `import { adapterContract, adapterExploration } from "create-auth/vitest"`:
 * the contract suite as vitest tests, one per case, and the model-based
 * exploration as one test, for teams that want them inside their own run.
 * vitest must be installed in the project: this module takes it from there.
 */

import picomatch from "picomatch";
import { describeLeftovers } from "./contract/access/ledger.js";
import { newNonce, newSeed } from "./contract/access/random.js";
import { selectableCases } from "./contract/cases/index.js";
import { explore, formatSnippet } from "./contract/explore/run.js";
import { type CaseResult, runContract } from "./contract/run/runner.js";
import { selectWith } from "./contract/run/select.js";
import { type AdapterMethod, type AnyAdapter, presentMethods } from "./contract/spec/adapter.js";
import { type CapabilityName, capabilities } from "./contract/spec/capabilities.js";
import { loadVitest } from "./lib/running-vitest.js";

// The project's vitest, the copy running the test file that imports this (lib/running-vitest.ts): create-auth
// declares no dependency on it.
const { afterAll, beforeAll, describe, it } = await loadVitest();

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
  /** Each adapter call's limit in milliseconds (default 5000): a call that has not settled by then fails its case. */
  timeout?: number;
  /** Name of the describe block (default "adapter contract"). */
  name?: string;
}

/** A case's result, once the run has reached it. */
class Results {
  private readonly waiting = new Map<string, { promise: Promise<CaseResult>; resolve(r: CaseResult): void }>();

  private entry(id: string) {
    let entry = this.waiting.get(id);
    if (!entry) {
      let resolve!: (r: CaseResult) => void;
      const promise = new Promise<CaseResult>((r) => {
        resolve = r;
      });
      entry = { promise, resolve };
      this.waiting.set(id, entry);
    }
    return entry;
  }

  of(id: string): Promise<CaseResult> {
    return this.entry(id).promise;
  }

  settle(result: CaseResult): void {
    this.entry(result.case.id).resolve(result);
  }
}

function failureText(result: CaseResult, seed: number): string {
  const f = result.failure!;
  const lines = [
    f.message,
    f.expected !== undefined ? `expected: ${f.expected}` : "",
    f.received !== undefined ? `received: ${f.received}` : "",
    `rerun with seed ${seed}`,
  ];
  return lines.filter(Boolean).join("\n");
}

/**
 * Registers the contract cases as tests, one per case. `adapter` is an
 * adapter object, a factory (called once, after setup) or a promise of an
 * adapter. The cases are chosen and run by verify-adapter's own pipeline
 * (the same selection, order and verdict), started before the first test;
 * each test reports its case's result. Cases that wait for real time to pass
 * come last.
 */
export function adapterContract(
  adapter: AnyAdapter | (() => Awaitable<AnyAdapter>) | PromiseLike<AnyAdapter>,
  options: AdapterContractOptions = {},
): void {
  const seed = options.seed ?? newSeed();
  const timeout = options.timeout ?? 5000;
  const { cases } = selectWith(picomatch, selectableCases, options.only ?? [], options.skip ?? []);
  const results = new Results();

  describe(options.name ?? `adapter contract (seed ${seed})`, () => {
    let resolved: AnyAdapter;
    let run: Promise<unknown> | undefined;
    beforeAll(async () => {
      await options.setup?.();
      resolved = typeof adapter === "function" ? await adapter() : await adapter;
      run = runContract({
        adapter: resolved,
        cases,
        seed,
        nonce: newNonce(),
        timeoutMs: timeout,
        concurrency: 1,
        require: [],
        strict: options.strict ?? false,
        onEvent: (event) => event.type === "case:end" && results.settle(event.result),
      });
    });
    afterAll(async () => {
      await run;
      await options.teardown?.();
    });

    for (const name of options.require ?? []) {
      it(`supports ${capabilities[name].title} (${name})`, () => {
        const present = new Set(presentMethods(resolved));
        const missing = capabilities[name].methods.filter((m) => !present.has(m));
        if (missing.length > 0)
          throw new Error(`required capability "${name}" is not supported: missing ${missing.join(", ")}`);
      });
    }

    // In the order the pipeline finishes them: the cases that wait for time to pass last.
    for (const contractCase of [...cases.filter((c) => !c.waits), ...cases.filter((c) => c.waits)]) {
      // No limit of vitest's own (0): every adapter call has one, so the run ends, and a slow store's case that
      // makes many calls in time is not cut short.
      it(`${contractCase.id}: ${contractCase.title}`, { timeout: 0 }, async (context) => {
        // A run that cannot even start (an adapter whose methods cannot be read) fails every test.
        const result = await Promise.race([results.of(contractCase.id), run!.then(() => new Promise<never>(() => {}))]);
        for (const warning of result.warnings) console.warn(`${contractCase.id}: ${warning}`);
        if (result.status === "skipped") return context.skip();
        if (result.status === "failed") throw new Error(failureText(result, seed));
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
      const left = describeLeftovers(result.leftovers);
      if (left) console.warn(`adapter exploration: left records it created and could not remove: ${left}`);
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
