/**
 * `create-auth verify-adapter <module>`: run the adapter contract (§2.9, §3,
 * §4.2, §5, §7) against the user's adapter module. The module is loaded and
 * run in a worker process (src/contract/isolation/worker.ts) under this command's
 * supervision (src/contract/isolation/supervisor.ts): nothing the module does decides
 * the exit code.
 */
import { accessSync, constants, existsSync, statSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Command } from "commander";
import { z } from "zod";
import { newNonce, newSeed } from "../contract/access/random.js";
import { type RequirableGroup, requirableGroups, selectableCases } from "../contract/cases/index.js";

const groupNames = Object.keys(requirableGroups) as RequirableGroup[];
const isGroup = (name: string): name is RequirableGroup => Object.hasOwn(requirableGroups, name);

import { openWorker } from "../contract/isolation/supervisor.js";
import { fileReporters, type ReporterName, reporterNames, reporters } from "../contract/reporters/index.js";
import { defaultExploreBudget, parseExploreBudget } from "../contract/run/exploration.js";
import type { RunEvent } from "../contract/run/runner.js";
import { selectRun } from "../contract/run/select.js";
import { explorePart, runVerification } from "../contract/run/verification.js";
import { type CapabilityName, capabilityNames } from "../contract/spec/capabilities.js";
import type { ContractCase } from "../contract/spec/case.js";
import { defineOptions } from "../lib/command-options.js";
import { CliError, ExitCode, type ExitCodeValue, LoadError, UsageError } from "../lib/errors.js";
import { type Io, processIo } from "../lib/io.js";
import { makeFolders } from "../lib/make-folders.js";
import { repeatable } from "../lib/options.js";
import { shouldColor, showsProgress } from "../lib/terminal.js";

const list = z
  .array(z.string())
  .refine((items) => items.every((item) => item.split(",").some((s) => s.trim())), "expected ids, comma-separated")
  .transform((items) =>
    items
      .flatMap((item) => item.split(","))
      .map((s) => s.trim())
      .filter(Boolean),
  );
const wholeNumber = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** Each adapter call's time limit unless --timeout says otherwise. */
const defaultCallTimeoutMs = 5000;

const ms = (what: string, fallback: number) => ({
  flag: `--${what} <ms>`,
  schema: wholeNumber(1, 3_600_000).default(fallback),
  expects: "a whole number of milliseconds, at least 1",
});

export const verifyAdapterOptions = defineOptions({
  module: {
    argument: "[module]",
    description: "path to the adapter module (.ts, .mts, .cts, .js, .mjs, .cjs), from the current directory",
    schema: z.string().min(1),
  },
  export: {
    flag: "-e, --export <name>",
    description: "the export holding the adapter (default: the default export, else `adapter`)",
    schema: z.string().min(1).optional(),
  },
  only: {
    flag: "--only <ids>",
    description: "run only these case ids or globs (comma-separated, repeatable); names an opt-in group's cases too",
    schema: list.default([]),
    parse: repeatable,
  },
  skip: {
    flag: "--skip <ids>",
    description: "skip these case ids or globs (comma-separated, repeatable)",
    schema: list.default([]),
    parse: repeatable,
  },
  require: {
    flag: "--require <capabilities>",
    description: `fail when a capability is missing: ${capabilityNames.join(", ")} or all; tokens also runs the account.tokens.* checks of what token rotation adds (updateAccount, listAccountsByUserId, leaseAccount), attempts the attempts.* checks of the sign-in throttle's counters (incrementAttempts, decrementAttempts, clearAttempts)`,
    schema: list
      .default([])
      .pipe(z.array(z.enum(["all", ...capabilityNames, ...groupNames])))
      .transform((names): CapabilityName[] =>
        names.includes("all") ? [...capabilityNames] : (names.filter((n) => !isGroup(n)) as CapabilityName[]),
      ),
    expects: `${capabilityNames.join(", ")}, all, ${groupNames.join(" or ")}`,
    parse: repeatable,
  },
  timeout: {
    ...ms("timeout", defaultCallTimeoutMs),
    description: `time limit for each adapter call in milliseconds (default: ${defaultCallTimeoutMs})`,
  },
  setupTimeout: {
    ...ms("setup-timeout", 30_000),
    description: "time limit for importing the module, its setup() and the factory (default: 30000)",
  },
  teardownTimeout: {
    ...ms("teardown-timeout", 10_000),
    description: "time limit for the module's teardown() (default: 10000)",
  },
  strict: {
    flag: "--strict",
    description: "fail on warnings too: deviations the service tolerates",
    schema: z.boolean().default(false),
  },
  explore: {
    flag: "--explore <n|time>",
    description: `random operation sequences checked against a model of the contract: a number of sequences (200) or a time (30s); 0 turns it off (default: ${defaultExploreBudget.runs} sequences, at most ${defaultExploreBudget.timeLimitMs / 1000} s)`,
    schema: z.string().optional(),
  },
  exploreDepth: {
    flag: "--explore-depth <n>",
    description:
      "how large and how frequent the crowds of records some sequences start from are: 1 (default: one crowd of 60-90 users after the sequences) to 10",
    schema: wholeNumber(1, 10).default(1),
    expects: "a whole number from 1 to 10",
  },
  explorePath: {
    flag: "--explore-path <path>",
    description: "replay one exploration sequence (printed with its failure, beside --seed)",
    schema: z
      .string()
      .regex(/^[\w:@.-]+$/, "a replay path as a failure printed it")
      .optional(),
  },
  concurrency: {
    flag: "--concurrency <n>",
    description:
      "cases to run side by side (default: 4); a case that fails beside others runs again alone, and that run is its verdict; a call that never settles starts the whole run again, one call at a time, in a new worker",
    schema: wholeNumber(1, 64).default(4),
    expects: "a whole number from 1 to 64",
  },
  seed: {
    flag: "--seed <n>",
    description: "seed for the generated data (the report prints the one it used)",
    schema: wholeNumber(0, 2 ** 31 - 1).optional(),
    expects: `a whole number from 0 to ${2 ** 31 - 1}`,
  },
  reporter: {
    flag: "--reporter <name>",
    description: `${reporterNames.join(", ")} (repeatable; default: pretty)`,
    schema: z.array(z.enum(reporterNames as [ReporterName, ...ReporterName[]])).default(["pretty"]),
    expects: reporterNames.join(", "),
    parse: repeatable,
  },
  outputFile: {
    flag: "--output-file <path>",
    description: "write the json or junit report to a file; NAME=PATH when several (repeatable)",
    schema: z.array(z.string().min(1)).default([]),
    parse: repeatable,
  },
  list: { flag: "--list", description: "list the contract cases and exit", schema: z.boolean().default(false) },
  color: {
    flag: "--no-color",
    description: "plain output (NO_COLOR is honoured too)",
    schema: z.boolean().optional(),
  },
});

export type VerifyAdapterInput = z.input<typeof verifyAdapterOptions.schema>;
export type VerifyAdapterOptions = z.output<typeof verifyAdapterOptions.schema>;

export const parseVerifyAdapterOptions = (input: VerifyAdapterInput): VerifyAdapterOptions =>
  verifyAdapterOptions.parse(input);

/** A report file must be writable before the run starts, not found unwritable after it. */
function checkOutputFile(file: string): void {
  const exists = existsSync(file);
  if (exists && statSync(file).isDirectory())
    throw new UsageError(
      `--output-file ${file} is a directory.`,
      "Name a file, e.g. --output-file junit=reports/adapter.xml",
    );
  let folder = dirname(file);
  while (!existsSync(folder) && dirname(folder) !== folder) folder = dirname(folder);
  const target = exists ? file : folder;
  try {
    if (!exists && !statSync(folder).isDirectory()) throw new Error("not a directory");
    accessSync(target, constants.W_OK);
  } catch {
    throw new UsageError(
      `--output-file ${file} cannot be written (${target} is not a writable ${exists ? "file" : "folder"}).`,
    );
  }
}

/** Pairs each reporter with a file (from --output-file) or stdout. */
function planOutputs(names: ReporterName[], outputFiles: string[], cwd: string): Map<ReporterName, string | undefined> {
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
    const file = resolve(cwd, named ? match![2]! : entry);
    checkOutputFile(file);
    outputs.set(target, file);
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

/** The options a case's verdict depends on, as a reproduction repeats them; the rest only shape the report. */
function verdictFlags(options: VerifyAdapterOptions): string[] {
  const flags: string[] = [];
  if (options.export !== undefined) flags.push("--export", options.export);
  if (options.timeout !== defaultCallTimeoutMs) flags.push("--timeout", String(options.timeout));
  if (options.strict) flags.push("--strict");
  return flags;
}

function listCases(cases: ContractCase[]): string {
  const line = (c: ContractCase) =>
    `${c.id.padEnd(58)} ${c.title}${c.optIn ? " (opt-in: runs when --only names it)" : ""}`;
  return `${cases.map(line).join("\n")}\n`;
}

export async function runVerifyAdapter(input: VerifyAdapterInput, io: Io = processIo()): Promise<ExitCodeValue> {
  const options = parseVerifyAdapterOptions(input);
  if (options.list) {
    io.out.write(listCases(selectableCases));
    return ExitCode.ok;
  }
  const outputs = planOutputs(options.reporter, options.outputFile, io.cwd);
  const budget = parseExploreBudget(options.explore);
  const explore = budget && { ...budget, depth: options.exploreDepth };
  // The selection is checked before the module loads: a typo in --only costs nothing.
  // --require tokens, attempts: the opt-in group of what the feature adds runs with the rest, and its methods must be there.
  const required = [input.require]
    .flat()
    .flatMap((v) => (typeof v === "string" ? v.split(",") : []))
    .filter(isGroup)
    .map((name) => ({ name, ...requirableGroups[name] }));
  const cases = selectableCases.map((c) =>
    required.some((group) => c.id.startsWith(group.cases)) ? { ...c, optIn: false } : c,
  );
  const selection = await selectRun(cases, options.only, options.skip, explore ? [explorePart] : []);
  const open = async () => {
    const opened = await openWorker(
      { type: "load", modulePath: options.module, cwd: io.cwd, exportName: options.export },
      { setupMs: options.setupTimeout, teardownMs: options.teardownTimeout },
      io,
    );
    if (opened.kind === "load-error") throw new LoadError(opened.message, { hint: opened.hint });
    return opened.session;
  };
  let session = await open();
  for (const group of required) {
    const lacking = group.methods.filter((m) => !session.port.methods.has(m));
    if (lacking.length === 0) continue;
    await session.close();
    throw new CliError(`--require ${group.name}: the adapter has no ${lacking.join(", ")}.`, {
      exitCode: ExitCode.failed,
      hint: group.hint,
    });
  }

  const stream = io.out as NodeJS.WriteStream;
  const context = {
    modulePath: options.module,
    exportName: session.exportName,
    color: options.color ?? shouldColor(stream, io.env),
    interactive: showsProgress(stream, io.env),
    verdictFlags: verdictFlags(options),
  };
  const active = [...outputs].map(([name, file]) => ({ file, report: reporters[name](context), text: [] as string[] }));
  const report = (event: RunEvent) => {
    for (const reporter of active) {
      const text = reporter.report(event);
      if (text === undefined) continue;
      if (reporter.file) reporter.text.push(text);
      else io.out.write(text);
    }
  };

  const end = await runVerification({
    adapter: session.port,
    // A run that overlapped a hang starts again in a new worker: the old one may be blocked for good.
    fresh: async () => {
      session.stop();
      session = await open();
      return session.port;
    },
    selection,
    seed: options.seed ?? newSeed(),
    nonce: newNonce(),
    timeoutMs: options.timeout,
    concurrency: options.concurrency,
    require: options.require,
    strict: options.strict,
    explore,
    explorePath: options.explorePath,
    modulePath: options.module,
    exportName: session.exportName,
    onEvent: report,
  });
  const teardownError = await session.close();
  const summary = teardownError ? { ...end.summary, teardownError, ok: false } : end.summary;
  report({ ...end, summary });
  for (const { file, text } of active) {
    if (!file) continue;
    makeFolders(dirname(file));
    writeFileSync(file, text.join(""));
  }
  return summary.ok ? ExitCode.ok : ExitCode.failed;
}

export function configure(command: Command, setExitCode: (code: number) => void, io: Io): void {
  verifyAdapterOptions
    .configure(command)
    .addHelpText(
      "after",
      `
The module's default export (or the export named by --export, or a named
export \`adapter\`) is an adapter object, a factory function returning one, or
a promise of one. Optional named exports setup() and teardown() run before and
after the suite; teardown runs even when cases fail. The module runs in a
process of its own: nothing it does (process.exit, a hang, an open pool)
decides the result. The suite writes and deletes records: use a test database.

Examples:
  $ create-auth verify-adapter ./src/adapter.ts
  $ create-auth verify-adapter ./adapter.mjs --export prismaAdapter --require sessions,email
  $ create-auth verify-adapter ./adapter.ts --only 'session.*' --seed 1234
  $ create-auth verify-adapter ./adapter.ts --reporter pretty --reporter junit --output-file junit=reports/adapter.xml
  $ create-auth verify-adapter ./adapter.ts --reporter github   # annotations in GitHub Actions
  $ create-auth verify-adapter ./adapter.ts --explore 2m     # a longer exploration, e.g. nightly
  $ create-auth verify-adapter ./adapter.ts --explore 200 --explore-depth 4   # hundreds of users per crowd
  $ create-auth verify-adapter --list

Exit codes: 0 the whole run finished and passed, 1 contract failures (or the run stopped), 2 usage or loading error.`,
    )
    .action(async (module: string | undefined, flags: Record<string, unknown>) => {
      if (!module && !flags.list)
        throw new CliError("Missing the adapter module path.", {
          hint: "Usage: create-auth verify-adapter <module>  (see --help)",
        });
      const color = flags.color === false ? false : undefined;
      setExitCode(await runVerifyAdapter({ ...flags, module: module ?? "-", color } as VerifyAdapterInput, io));
    });
}
