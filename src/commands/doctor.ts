/**
 * `create-auth doctor`: finds what will break sign-in before users do. Reads
 * the project (its auth config's code, env files, git's view of them, the
 * framework wiring) without running any of it, checks the database the auth
 * uses, and with --online the OIDC issuers. --fix applies only the fixes that
 * lose nothing. Exit 1 when any error is found: a CI gate.
 */
import { chmodSync, existsSync, statSync } from "node:fs";
import { resolve } from "node:path";
import type { Command } from "commander";
import { z } from "zod";
import { defineOptions } from "../lib/command-options.js";
import { ExitCode, type ExitCodeValue, UsageError } from "../lib/errors.js";
import { type Io, processIo } from "../lib/io.js";
import { repeatable } from "../lib/options.js";
import { shouldColor, showsProgress } from "../lib/terminal.js";

export const doctorOptions = defineOptions({
  dir: {
    flag: "--dir <path>",
    description: "the project (default: the current folder)",
    schema: z.string().min(1).default("."),
    expects: "a folder",
  },
  config: {
    flag: "--config <path>",
    description:
      "the auth config (default: found by its contents: the module that calls NextAuth(), SvelteKitAuth()... or exports the config)",
    schema: z.string().min(1).optional(),
  },
  json: {
    flag: "--json",
    description: "print the findings as JSON (the shape is in the README)",
    schema: z.boolean().default(false),
  },
  fix: {
    flag: "--fix",
    description:
      "apply the safe fixes: a fresh AUTH_SECRET, AUTH_TRUST_HOST, v4 names renamed, ignore rules, file modes, Auth.js packages with an advisory raised within their major",
    schema: z.boolean().default(false),
  },
  online: {
    flag: "--online",
    description: "also fetch each OIDC issuer's discovery document and compare its issuer",
    schema: z.boolean().default(false),
  },
  env: {
    flag: "--env <file>",
    description:
      "an env file to read values from instead of the framework's production ones (.env, .env.production, .env.local, .env.production.local for Next.js) (repeatable; later ones win)",
    schema: z.array(z.string().min(1)).default([]),
    expects: "env file paths",
    parse: repeatable,
  },
});

export type DoctorInput = z.input<typeof doctorOptions.schema>;

export async function runDoctor(input: DoctorInput, io: Io = processIo()): Promise<ExitCodeValue> {
  const options = doctorOptions.parse(input);
  const root = resolve(io.cwd, options.dir);
  if (!existsSync(root) || !statSync(root).isDirectory())
    throw new UsageError(`--dir ${options.dir}: no such folder (looked for ${root}).`);
  const [{ gatherFacts, secretNames }, { runChecks }, { checkDatabase }, { bySeverity }, report, { frameworkById }] =
    await Promise.all([
      import("../doctor/gather.js"),
      import("../doctor/checks/index.js"),
      import("../doctor/database.js"),
      import("../doctor-model/finding.js"),
      import("../doctor/report.js"),
      import("../frameworks/registry.js"),
    ]);
  const gather = () => gatherFacts({ root, config: options.config, envFiles: options.env, environment: io.env });
  let { facts, wiring } = await gather();
  let fixed: string[] | undefined;
  if (options.fix) {
    const [{ planFixes }, { applyPlan }, { withProjectLock }] = await Promise.all([
      import("../planners/doctor-fix.js"),
      import("../workspace/plan.js"),
      import("../workspace/lock.js"),
    ]);
    fixed = await withProjectLock(root, async () => {
      // Planned under the lock from what is on disk now, so a parallel edit is read, not lost.
      const current = await gather();
      const plan = planFixes(current.facts, runChecks(current.facts, current.wiring));
      applyPlan(plan.changes);
      for (const { path, mode } of plan.modes) chmodSync(path, mode);
      return plan.done;
    });
    ({ facts, wiring } = await gather());
  }
  const progress = showsProgress(io.err as { isTTY?: boolean }, io.env)
    ? (line: string) => io.err.write(`${line}\n`)
    : () => {};
  const findings = [...runChecks(facts, wiring), ...(await checkDatabase(facts, progress))];
  if (options.online) {
    const { checkIssuers } = await import("../doctor/online.js");
    findings.push(...(await checkIssuers(facts, progress)));
  }
  findings.sort(bySeverity);
  const result: import("../doctor/report.js").DoctorReport = {
    version: 1,
    project: { dir: root, framework: facts.framework, config: facts.config.file },
    findings,
    ...(fixed ? { fixed } : {}),
    summary: report.summarize(findings),
  };
  // The last line of defence: whatever a message quotes, no secret value is printed.
  const secrets = new Set<string>();
  for (const name of secretNames(facts))
    for (const file of facts.envFiles) if (file.values[name]) secrets.add(file.values[name]!);
  for (const name of secretNames(facts)) if (facts.env[name]?.value) secrets.add(facts.env[name]!.value);
  const text = options.json
    ? report.renderJson(result)
    : report.renderText(
        { ...result, project: { ...result.project, framework: frameworkById(facts.framework).title } },
        shouldColor(io.out as { isTTY?: boolean }, io.env),
      );
  io.out.write(report.hideSecrets(text, secrets));
  return result.summary.errors > 0 ? ExitCode.failed : ExitCode.ok;
}

export function configure(command: Command, setExitCode: (code: number) => void, io: Io): void {
  doctorOptions
    .configure(command)
    .addHelpText(
      "after",
      `
Reads the auth config (never runs it), the env files and git's view of them, the framework's
wiring, and the database the adapter uses; prints each problem with its id and the fix.
The environment's variables count over the env files', as they do for the app.

Examples:
  $ create-auth doctor
  $ create-auth doctor --dir apps/web --json
  $ create-auth doctor --fix
  $ create-auth doctor --env .env.production --online
  $ create-auth doctor --json | jq '.findings[] | select(.severity == "error") | .id'

Exit codes: 0 no errors (warnings and info may remain), 1 at least one error, 2 usage error.`,
    )
    .action(async (flags: Record<string, unknown>) => {
      setExitCode(await runDoctor(flags as DoctorInput, io));
    });
}
