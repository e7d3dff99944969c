/** What an exploration is asked to do and what it found (run.ts runs it). */
import type { HungMethods } from "../access/calls.js";
import type { Leftovers } from "../access/ledger.js";
import type { AdapterPort } from "../access/port.js";
import type { AdapterMethod, AnyAdapter } from "../spec/adapter.js";
import type { ExplorationTurns } from "./schedule.js";
import type { TraceStep } from "./trace.js";

export interface ExploreOptions {
  /** An adapter object in this process, or the worker's port to one. */
  adapter: AnyAdapter | AdapterPort;
  seed: number;
  /** Stop after this many sequences or this many ms, whichever first (default: 100 sequences). */
  runs?: number;
  timeLimitMs?: number;
  /** Per adapter call limit; a call that never settles is a divergence "X never settled". */
  callTimeoutMs: number;
  /** Methods not to call. */
  exclude?: AdapterMethod[];
  /** Methods found hanging (by the cases, say): not called; the exploration adds the ones it finds. */
  hung?: HungMethods;
  /** Failure policy: when true, tolerated deviations (warnings) and records left behind also fail. */
  strict?: boolean;
  /** Per-run nonce mixed into generated values so concurrent runs never collide. */
  nonce: string;
  /** Replays one failing sequence: the `--explore-path` value of an earlier failure ("batch:path"). */
  replayPath?: string;
  /** Longest time spent shrinking a failure (default 30 s); the smallest failure found so far is reported. */
  shrinkTimeLimitMs?: number;
  /** How large the crowds some sequences start from are, and how often (default 1; --explore-depth). */
  depth?: number;
  /** Longest sequence generated (default 30 commands). */
  maxSteps?: number;
  onProgress?: (p: { runs: number; steps: number }) => void;
  /** Beside the cases (verify-adapter): when the cases may start, and when the verdict may be decided. */
  turns?: ExplorationTurns;
}

export interface ExploreFailure {
  /** One line: which rule or visible misbehaviour. */
  message: string;
  expected?: string;
  received?: string;
  /** The minimal sequence, one human line per step. */
  steps: string[];
  /** Runnable TypeScript against ./adapter.ts; formatSnippet() renders it for another path. */
  snippet: string;
  /** Flags that replay this sequence: "--seed 123 --explore-path 4:2:1@AB:C" (shell-safe, no quoting needed). */
  replay: string;
  /** The calls of the minimal sequence, for formatSnippet(). */
  trace: TraceStep[];
  /** The failure shows only when results are changed after they are read, as formatSnippet() then prints. */
  callerChanges?: boolean;
}

export interface ExploreResult {
  ok: boolean;
  /** Sequences run (shrink attempts not counted). */
  runs: number;
  /** Commands run, shrink attempts included. */
  steps: number;
  /** Adapter calls made, lookups included, cleanup excluded. */
  calls: number;
  durationMs: number;
  seed: number;
  /** Tolerated deviations, deduplicated, one actionable line each. */
  warnings: string[];
  failure?: ExploreFailure;
  /** Records the exploration created and could not remove, by kind. */
  leftovers: Leftovers;
}
