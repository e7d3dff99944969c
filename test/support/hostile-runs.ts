/**
 * What the tests of how a verify-adapter run ends share: the hostile modules, limits short enough to
 * reach, and a machine whose cores are busy.
 */
import { spawn } from "node:child_process";
import { availableParallelism } from "node:os";
import { fixture } from "../helpers.js";

export const hostile = (name: string) => fixture("modules", "hostile", `${name}.ts`);

/**
 * Short call and teardown limits, a setup limit a worker starting on a loaded machine stays under, and
 * no case that lets real time pass: what is tested is how a run ends, not how long it waits.
 */
export const endingLimits = [
  "--setup-timeout",
  "20000",
  "--teardown-timeout",
  "2000",
  "--timeout",
  "1000",
  "--skip",
  "*.lifetime.*",
];

/** `work` with `perCore` busy loops on every core meanwhile: the run gets a share of the machine, as on a shared CI runner. */
export async function whileBusy<T>(perCore: number, work: () => Promise<T>): Promise<T> {
  const spinners = Array.from({ length: availableParallelism() * perCore }, () =>
    spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }),
  );
  try {
    return await work();
  } finally {
    for (const spinner of spinners) spinner.kill("SIGKILL");
  }
}
