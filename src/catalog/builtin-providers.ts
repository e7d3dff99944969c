/**
 * Every built-in provider of the pinned @auth/core: the derived part
 * (builtin-providers.data.ts, written by scripts/builtin-providers.ts) joined
 * with the hand-written part (builtin-provider-extras.ts).
 */
import { type BuiltinExtras, builtinExtras } from "./builtin-provider-extras.js";
import type { DerivedProvider } from "./builtin-provider-types.js";
import { derivedProviders } from "./builtin-providers.data.js";

export interface BuiltinProvider extends DerivedProvider, BuiltinExtras {
  /** Its Auth.js docs page: setup steps, and the fallback when there is no console URL. */
  docs: string;
}

export const builtinProviders: readonly BuiltinProvider[] = derivedProviders.map((derived) => ({
  ...derived,
  ...builtinExtras[derived.module],
  docs: `https://authjs.dev/getting-started/providers/${derived.module}`,
}));

/** A built-in by its module name or its id ("ory-hydra" or "hydra"), any case. */
export function findBuiltin(name: string): BuiltinProvider | undefined {
  const wanted = name.trim().toLowerCase();
  return (
    builtinProviders.find((p) => p.module === wanted) ?? builtinProviders.find((p) => p.id.toLowerCase() === wanted)
  );
}

/** The built-ins add-provider generates itself: the names no kind of this project serves. */
export const generatedBuiltins = builtinProviders.filter((p) => p.servedBy === undefined);

/** Popular ones first (their rank), then the rest by name. */
export function byPopularity(providers: readonly BuiltinProvider[]): BuiltinProvider[] {
  const rank = (p: BuiltinProvider) => p.popular ?? Number.POSITIVE_INFINITY;
  return [...providers].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}
