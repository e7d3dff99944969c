import { githubReporter } from "./github.js";
import { jsonReporter } from "./json.js";
import { junitReporter } from "./junit.js";
import { prettyReporter } from "./pretty.js";
import type { ReporterFactory } from "./reporter.js";

export const reporters = {
  pretty: prettyReporter,
  json: jsonReporter,
  junit: junitReporter,
  github: githubReporter,
} satisfies Record<string, ReporterFactory>;

export type ReporterName = keyof typeof reporters;
export const reporterNames = Object.keys(reporters) as ReporterName[];

/** Reporters whose output is a document, worth writing to --output-file. */
export const fileReporters: ReadonlySet<ReporterName> = new Set(["json", "junit"]);
