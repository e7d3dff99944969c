/** An exploration's failure as the report shows it: the message, the smallest steps, the program and the replay flags. */
// Only ever our own errors here: the port turned what the adapter threw into a description.
import { describeThrown } from "../../lib/errors.js";
import { AdapterGone } from "../access/calls.js";
import type { ExploreFailure } from "./result.js";
import { formatSnippet } from "./snippet.js";
import type { FailureTrail } from "./tally.js";
import { callCode, describeStep, type TraceStep } from "./trace.js";

export function describeFailure(trail: FailureTrail, at: string, seed: number, depth: number): ExploreFailure {
  const replay = `--seed ${seed}${depth === 1 ? "" : ` --explore-depth ${depth}`} --explore-path ${at}`;
  const { smallest, internal } = trail;
  if (!smallest) {
    const message =
      internal instanceof AdapterGone
        ? internal.message
        : `exploration stopped on an unexpected error: ${describeThrown(internal)}`;
    return { message, steps: [], snippet: "", replay, trace: [] };
  }
  const { divergence, trace, reproduction } = smallest;
  const endWithDivergence = (steps: TraceStep[]) => {
    const { call, together } = divergence;
    // A lookup that overlapped others (a sweep) ends the sequence with them, as calls made together.
    if (call && together && together.length > 1) steps.push({ calls: together, shows: together.indexOf(call) });
    else {
      const lastCalls = steps[steps.length - 1]?.calls.map((c) => callCode(c)) ?? [];
      if (call && !lastCalls.includes(callCode(call))) steps.push({ calls: [call] });
    }
    return steps;
  };
  // The steps read as the sequence; the program also makes the reads whose results were changed, when that matters.
  const steps = endWithDivergence(trace);
  const source = {
    message: divergence.message,
    expected: divergence.expected,
    received: divergence.received,
    replay,
    trace: reproduction ? endWithDivergence(reproduction) : steps,
    callerChanges: divergence.callerChanges,
  };
  return { ...source, steps: steps.map(describeStep), snippet: formatSnippet(source, "./adapter.ts") };
}
