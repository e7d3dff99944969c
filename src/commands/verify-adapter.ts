/**
 * `create-auth verify-adapter <module>`: load the user's adapter module and
 * run the adapter contract (§2.9, §3, §4.2, §5, §7) against it.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import { z } from "zod";
import { type CapabilityName, capabilityNames } from "../contract/capabilities.js";
import type { ContractCase } from "../contract/case.js";
import { allCases } from "../contract/cases/index.js";
import { loadAdapterModule } from "../contract/loader.js";
import { newSeed } from "../contract/random.js";
import { fileReporters, type ReporterName, reporterNames, reporters } from "../contract/reporters/index.js";
import { type RunSummary, runContract } from "../contract/runner.js";
import { CliError, ExitCode, type ExitCodeValue, UsageError } from "../lib/errors.js";
import { parseOptions } from "../lib/options.js";
import { shouldColor, showsProgress } from "../lib/terminal.js";

const list = z.array(z.string()).transform((items) =>
  items
    .flatMap((item) => item.split(","))
    .map((s) => s.trim())
    .filter(Boolean),
);
const wholeNumber = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

export const verifyAdapterOptions = z.object({
  module: z.string().min(1),
  export: z.string().min(1).optional(),
  only: list.default([]),
  skip: list.default([]),
  require: list
    .default([])
    .pipe(z.array(z.enum(["all", ...capabilityNames])))
    .transform((names): CapabilityName[] =>
      names.includes("all") ? [...capabilityNames] : (names as CapabilityName[]),
    ),
  timeout: wholeNumber(1, 3_600_000).default(5000),
  concurrency: wholeNumber(1, 64).default(1),
  seed: wholeNumber(0, 2 ** 31 - 1).optional(),
  reporter: z.array(z.enum(reporterNames as [ReporterName, ...ReporterName[]])).default(["pretty"]),
  outputFile: z.array(z.string().min(1)).default([]),
  color: z.boolean().optional(),
  list: z.boolean().default(false),
});

export type VerifyAdapterInput = z.input<typeof verifyAdapterOptions>;
export type VerifyAdapterOptions = z.output<typeof verifyAdapterOptions>;

const allowed: Record<string, string> = {
  require: `${capabilityNames.join(", ")} or all`,
  reporter: reporterNames.join(", "),
  timeout: "a whole number of milliseconds, at least 1",
  concurrency: "a whole number from 1 to 64",
  seed: `a whole number from 0 to ${2 ** 31 - 1}`,
};

export const parseVerifyAdapterOptions = (input: VerifyAdapterInput): VerifyAdapterOptions =>
  parseOptions(verifyAdapterOptions, input, allowed, { module: "<module>" });

/** --only/--skip take ids or globs; a pattern that matches nothing is a typo. */
export async function selectCases(cases: ContractCase[], only: string[], skip: string[]): Promise<ContractCase[]> {
  if (only.length === 0 && skip.length === 0) return cases;
  // Loaded only when there are patterns: every full run would pay for it otherwise.
  const { default: picomatch } = await import("picomatch");
  const matcher = (flag: string, pattern: string) => {
    const isMatch = picomatch(pattern);
    if (!cases.some((c) => isMatch(c.id)))
      throw new UsageError(
        `${flag} ${pattern} matches no case.`,
        "List the case ids with: create-auth verify-adapter --list",
      );
    return isMatch;
  };
  const included = only.map((p) => matcher("--only", p));
  const excluded = skip.map((p) => matcher("--skip", p));
  return cases.filter(
    (c) => (included.length === 0 || included.some((m) => m(c.id))) && !excluded.some((m) => m(c.id)),
  );
}

/** Pairs each reporter with a file (from --output-file) or stdout. */
function planOutputs(names: ReporterName[], outputFiles: string[]): Map<ReporterName, string | undefined> {
  const outputs = new Map<ReporterName, string | undefined>(names.map((n) => [n, undefined]));
  for (const entry of outputFiles) {
    const match = /^([a-z]+)=(.+)$/.exec(entry);
    const named = match && (reporterNames as string[]).includes(match[1]!) ? (match[1] as ReporterName) : undefined;
    const target = named ?? [...outputs.keys()].find((n) => fileReporters.has(n) && outputs.get(n) === undefined);
    if (!target || !outputs.has(target)) {
      throw new UsageError(
        `--output-file ${entry}: no ${named ?? "json or junit"} reporter to write it.`,
        "Add --reporter json or --reporter junit, or name it: --output-file junit=report.xml",
      );
    }
    outputs.set(target, resolve(named ? match![2]! : entry));
  }
  const toStdout = [...outputs].filter(([, file]) => file === undefined).map(([n]) => n);
  const documents = toStdout.filter((n) => fileReporters.has(n));
  if (documents.length > 0 && toStdout.length > 1) {
    throw new UsageError(
      `--reporter ${documents[0]} would mix its output with ${toStdout.filter((n) => n !== documents[0]).join(", ")} on stdout.`,
      `Give it a file: --output-file ${documents[0]}=report.${documents[0] === "junit" ? "xml" : "json"}`,
    );
  }
  return outputs;
}

function listCases(cases: ContractCase[]): string {
  return `${cases.map((c) => `${c.id.padEnd(58)} ${c.section.padEnd(20)} ${c.title}`).join("\n")}\n`;
}

export async function runVerifyAdapter(
  input: VerifyAdapterInput,
  out: NodeJS.WritableStream = process.stdout,
): Promise<ExitCodeValue> {
  const options = parseVerifyAdapterOptions(input);
  if (options.list) {
    out.write(listCases(allCases));
    return ExitCode.ok;
  }
  const cases = await selectCases(allCases, options.only, options.skip);
  const outputs = planOutputs(options.reporter, options.outputFile);
  const loaded = await loadAdapterModule(options.module, { exportName: options.export });

  const context = {
    modulePath: options.module,
    exportName: loaded.exportName,
    color: options.color ?? shouldColor(out as NodeJS.WriteStream),
    interactive: showsProgress(out as NodeJS.WriteStream),
  };
  const active = [...outputs].map(([name, file]) => ({ file, report: reporters[name](context), text: [] as string[] }));

  let summary: RunSummary;
  try {
    const adapter = await loaded.open();
    summary = await runContract({
      adapter,
      cases,
      seed: options.seed ?? newSeed(),
      timeoutMs: options.timeout,
      concurrency: options.concurrency,
      require: options.require,
      onEvent(event) {
        for (const reporter of active) {
          const text = reporter.report(event);
          if (text === undefined) continue;
          if (reporter.file) reporter.text.push(text);
          else out.write(text);
        }
      },
    });
  } catch (error) {
    // Teardown still runs; its own failure must not hide why the run stopped.
    await loaded.close().catch(() => undefined);
    throw error;
  }
  await loaded.close();
  for (const { file, text } of active) {
    if (!file) continue;
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text.join(""));
  }
  return summary.ok ? ExitCode.ok : ExitCode.contractFailed;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

export function configure(command: Command, setExitCode: (code: number) => void): void {
  command
    .argument("[module]", "path to the adapter module (.ts, .mts, .cts, .js, .mjs, .cjs), from the current directory")
    .option("-e, --export <name>", "the export holding the adapter (default: the default export, else `adapter`)")
    .option("--only <ids>", "run only these case ids or globs (comma-separated, repeatable)", collect)
    .option("--skip <ids>", "skip these case ids or globs (comma-separated, repeatable)", collect)
    .option(
      "--require <capabilities>",
      "fail when a capability is missing: users, sessions, email, webauthn or all",
      collect,
    )
    .option("--timeout <ms>", "time limit for each case in milliseconds", "5000")
    .option("--concurrency <n>", "cases to run in parallel", "1")
    .option("--seed <n>", "seed for the generated data (the report prints the one it used)")
    .option("--reporter <name>", "pretty, json, junit or github (repeatable)", collect)
    .option(
      "--output-file <path>",
      "write the json or junit report to a file; NAME=PATH when several (repeatable)",
      collect,
    )
    .option("--list", "list the contract cases and exit")
    .option("--no-color", "plain output (NO_COLOR is honoured too)")
    .addHelpText(
      "after",
      `
The module's default export (or the export named by --export, or a named
export \`adapter\`) is an adapter object, a factory function returning one, or
a promise of one. Optional named exports setup() and teardown() run before and
after the suite; teardown runs even when cases fail.

Examples:
  $ create-auth verify-adapter ./src/adapter.ts
  $ create-auth verify-adapter ./adapter.mjs --export prismaAdapter --require sessions,email
  $ create-auth verify-adapter ./adapter.ts --only 'session.*' --seed 1234
  $ create-auth verify-adapter ./adapter.ts --reporter pretty --reporter junit --output-file junit=reports/adapter.xml
  $ create-auth verify-adapter ./adapter.ts --reporter github   # annotations in GitHub Actions
  $ create-auth verify-adapter --list

Exit codes: 0 the adapter satisfies the contract, 1 contract failures, 2 usage or loading error.`,
    )
    .action(async (module: string | undefined, flags: Record<string, unknown>) => {
      if (!module && !flags.list)
        throw new CliError("Missing the adapter module path.", {
          hint: "Usage: create-auth verify-adapter <module>  (see --help)",
        });
      const color = flags.color === false ? false : undefined;
      setExitCode(await runVerifyAdapter({ ...flags, module: module ?? "-", color } as VerifyAdapterInput));
    });
}
