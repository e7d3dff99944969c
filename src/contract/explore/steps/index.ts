/** The commands a sequence is drawn from, limited to the methods the adapter has and the run allows. */
import type fc from "fast-check";
import type { AdapterMethod } from "../../spec/adapter.js";
import type { Model } from "../model.js";
import type { Probe } from "../probe.js";
import { accountCommands } from "./accounts.js";
import { authenticatorCommands } from "./authenticators.js";
import { deviceCommands } from "./devices.js";
import { lifecycleCommands } from "./lifecycles.js";
import { raceCommands } from "./races.js";
import { sessionCommands } from "./sessions.js";
import { tokenCommands } from "./tokens.js";
import { userCommands } from "./users.js";

type Entry = { needs: AdapterMethod[]; weight: number; arbitrary: fc.Arbitrary<fc.AsyncCommand<Model, Probe>> };

const all: Entry[] = [
  ...userCommands,
  ...accountCommands,
  ...sessionCommands,
  ...tokenCommands,
  ...authenticatorCommands,
  ...raceCommands,
  ...lifecycleCommands,
  ...deviceCommands,
];

/** Weighted command arbitraries whose methods are all usable (weight repeats the entry). */
export function commandArbitraries(usable: Set<AdapterMethod>): fc.Arbitrary<fc.AsyncCommand<Model, Probe>>[] {
  const out: fc.Arbitrary<fc.AsyncCommand<Model, Probe>>[] = [];
  for (const entry of all) {
    if (!entry.needs.every((m) => usable.has(m))) continue;
    for (let i = 0; i < entry.weight; i++) out.push(entry.arbitrary);
  }
  return out;
}
