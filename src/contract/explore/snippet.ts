/**
 * A failing sequence as a short TypeScript program against the user's own
 * module: the calls in order, then what the model expected beside what the
 * adapter returned, printed as the report prints them (types shown, a model
 * instance's fields read as properties, the way the service reads them), so
 * the program's last two lines can be set beside the report's. It loads the
 * module the way verify-adapter does (setup, then the export, called when it
 * is a factory, then teardown).
 *
 * A failure that shows only because results were changed after they were
 * read (the exploration changes what the service hands on, as a caller may)
 * is printed with the same changes: each such result goes through `handOn`,
 * which keeps a copy for later calls and changes the adapter's own object.
 * Without them the program would pass against the adapter that failed.
 *
 * A call that threw in the run without failing it (a duplicate the contract
 * says must be refused) is caught in the program too, so the program goes on
 * to the call that failed instead of stopping at one that did what it should.
 */

import { modelFields } from "../../schemas/adapter-models.js";
import { answerKinds, changedMark, changedNumber, changedTime } from "../access/answers.js";
import type { AdapterMethod } from "../spec/adapter.js";
import { describeValue } from "../spec/failure.js";
import { handedOn } from "./probe.js";
import { callCode, literal, Ref, type TraceCall, type TraceStep } from "./trace.js";

interface SnippetSource {
  message: string;
  expected?: string;
  received?: string;
  replay: string;
  trace: TraceStep[];
  /** The failure needs the caller's changes to results replayed (Divergence.callerChanges). */
  callerChanges?: boolean;
}

/** The program's copy of the suite's change to a result (answers.ts: scribble), with the same values. */
const handOnHelper = [
  "// The run changed results like these after reading them, as code the service hands them to may;",
  "// a store that hands out its own objects shows the change on a later read.",
  "function handOn<T>(result: T): T {",
  "  const copy = structuredClone(result);",
  "  for (const item of Array.isArray(result) ? result : [result]) changeAsCaller(item, 0);",
  "  return copy;",
  "}",
  "function changeAsCaller(value: any, depth: number): void {",
  '  if (value === null || typeof value !== "object" || depth > 1) return;',
  "  try {",
  "    for (const key of Object.keys(value)) {",
  "      const v = value[key];",
  `      if (v instanceof Date) v.setTime(${changedTime});`,
  `      else if (typeof v === "string") value[key] = v + ${JSON.stringify(changedMark)};`,
  `      else if (typeof v === "number") value[key] = ${changedNumber};`,
  "      else if (Array.isArray(v)) v.length = 0;",
  '      else if (v && typeof v === "object") changeAsCaller(v, depth + 1);',
  "    }",
  "  } catch {}",
  "}",
  "",
];

/** The fields the service reads from `method`'s answer (answers.ts), in its order: what `show` reads from an instance. */
function fieldsRead(method: AdapterMethod): string[] {
  const kind = answerKinds[method];
  const kinds =
    kind === "sessionAndUser"
      ? (["session", "user"] as const)
      : kind === "authenticators"
        ? (["authenticator"] as const)
        : kind === "accounts"
          ? (["account"] as const)
          : kind === "value"
            ? []
            : [kind];
  return [...new Set(kinds.flatMap((k) => modelFields[k]))];
}

/** The program's copy of describeValue (spec/failure.ts) over the fields the service reads (answers.ts). */
function showHelper(fields: string[]): string[] {
  return [
    "// Prints a value as the report does: types shown, and a model instance's fields read as properties,",
    "// as the service reads them (a getter on its prototype runs; console.log would not show what it returns).",
    `const fieldsRead = ${JSON.stringify(fields)};`,
    "function show(value: any, depth = 0): string {",
    "  if (value === null || value === undefined) return String(value);",
    '  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "Invalid Date" : `Date(${value.toISOString()})`;',
    '  if (typeof value === "string") return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);',
    '  if (typeof value !== "object") return `${typeof value} ${String(value)}`;',
    '  if (depth > 2) return Array.isArray(value) ? "[...]" : "{...}";',
    '  if (Array.isArray(value)) return `[${value.map((v) => show(v, depth + 1)).join(", ")}]`;',
    "  const plain = [Object.prototype, null].includes(Object.getPrototypeOf(value));",
    "  const entries = Object.entries(value).filter(",
    '    ([, v]) => !["function", "symbol"].includes(typeof v) && (plain || v === null || typeof v !== "object" || v instanceof Date),',
    "  );",
    "  if (!plain) for (const key of fieldsRead) if (key in value && !entries.some(([k]) => k === key)) entries.push([key, value[key]]);",
    '  return `{ ${entries.map(([k, v]) => `${k}: ${show(v, depth + 1)}`).join(", ")} }`;',
    "}",
    "",
  ];
}

const noAnswerPattern = /^no answer within (\d+) ms$/;

/**
 * For a call that never settled: the program waits as long as the run did and then says so. Without it, Node
 * ends a program whose awaited call can never settle without a word (exit code 13), and one whose store keeps a
 * connection open waits forever; either way the reader sees no failure.
 */
function noAnswerTimer(ms: string, expected: string | undefined): string[] {
  return [
    "const noAnswer = setTimeout(() => {",
    `  console.log("expected:", ${literal(expected ?? "a result")});`,
    `  console.log("received:", ${literal(`no answer within ${ms} ms`)});`,
    "  process.exit(1);",
    `}, ${ms});`,
  ];
}

function statement(step: TraceStep, last: boolean, changes: boolean): string {
  const changed = (call: TraceCall) => changes && handedOn.has(call.method);
  const awaited = (call: TraceCall) =>
    changed(call) ? `handOn(await adapter.${callCode(call)})` : `await adapter.${callCode(call)}`;
  const shown = step.shows === undefined ? undefined : step.calls[step.shows];
  if (step.calls.length === 1) {
    const call = step.calls[0]!;
    if (call.threw && !last)
      return `try {\n  ${awaited(call)};\n} catch {} // it threw in the run too, and the run went on`;
    const name = call.assign ?? (last ? "result" : undefined);
    return `${name ? `const ${name} = ` : ""}${awaited(call)};`;
  }
  const names = step.calls.map((c, i) => c.assign ?? (last ? `result${i + 1}` : `_${i + 1}`));
  const binding = names.some((n) => !n.startsWith("_")) ? `const [${names.join(", ")}] = ` : "";
  // One of them threw and the run went on: settle them all, as the run did, and keep what each returned.
  if (step.calls.some((c) => c.threw) && !(last && (shown ? shown.threw : true))) {
    const lines = step.calls.map(
      (c) => `  (async () => ${changed(c) ? `handOn(await adapter.${callCode(c)})` : `adapter.${callCode(c)}`})(),`,
    );
    return `${binding}(await Promise.allSettled([\n${lines.join("\n")}\n])).map((r) => (r.status === "fulfilled" ? r.value : undefined)); // one threw in the run too`;
  }
  const lines = step.calls.map((c) =>
    changed(c) ? `  Promise.resolve(adapter.${callCode(c)}).then(handOn),` : `  adapter.${callCode(c)},`,
  );
  return `${binding}await Promise.all([\n${lines.join("\n")}\n]);`;
}

function received(step: TraceStep): string {
  if (step.calls.length === 1) return step.calls[0]!.assign ?? "result";
  if (step.shows !== undefined) return step.calls[step.shows]!.assign ?? `result${step.shows + 1}`;
  return `[${step.calls.map((c, i) => c.assign ?? `result${i + 1}`).join(", ")}]`;
}

/** The variable each record's id is in (`user1.id`), by the id it had in the run: the program's records get others. */
function idsInProgram(steps: TraceStep[]): Map<string, string> {
  const codes = new Map<string, string>();
  const visit = (value: unknown): void => {
    if (value instanceof Ref) codes.set(describeValue(value.value), value.code);
    else if (Array.isArray(value)) value.forEach(visit);
    else if (value !== null && typeof value === "object" && !(value instanceof Date))
      Object.values(value).forEach(visit);
  };
  for (const step of steps) for (const call of step.calls) call.args.forEach(visit);
  return codes;
}

/** The run's expectation as code: an id the run's record had is printed as the program's record has it. */
function expectedCode(expected: string, steps: TraceStep[]): string {
  const codes = idsInProgram(steps);
  const parts: string[] = [];
  let rest = expected;
  for (;;) {
    const found = [...codes.keys()]
      .map((id) => ({ id, at: rest.indexOf(id) }))
      .filter((f) => f.at >= 0)
      .sort((a, b) => a.at - b.at)[0];
    if (!found) break;
    if (found.at > 0) parts.push(literal(rest.slice(0, found.at)));
    parts.push(`show(${codes.get(found.id)})`);
    rest = rest.slice(found.at + found.id.length);
  }
  if (rest !== "" || parts.length === 0) parts.push(literal(rest));
  return parts.join(" + ");
}

export function formatSnippet(failure: SnippetSource, modulePath: string, exportName = "default"): string {
  const steps = failure.trace;
  const changes = failure.callerChanges === true;
  const body = steps.map((s, i) => statement(s, i === steps.length - 1, changes));
  const last = steps[steps.length - 1];
  const lastCall = last && (last.calls[last.shows ?? 0] ?? last.calls[0]);
  const wait = failure.received?.match(noAnswerPattern)?.[1];
  const lines = [
    `// ${failure.message}`,
    `// Replay: create-auth verify-adapter ${modulePath} ${failure.replay}`,
    "// This writes records through your adapter: run it against a test database.",
    `import * as adapterModule from ${JSON.stringify(modulePath)};`,
    "",
    "const mod: any = adapterModule;",
    "await mod.setup?.();",
    `const exported = mod[${JSON.stringify(exportName)}];`,
    'const adapter = typeof exported === "function" ? await exported() : await exported;',
    ...(changes ? handOnHelper : []),
    ...(lastCall ? showHelper(fieldsRead(lastCall.method)) : []),
    ...(wait ? noAnswerTimer(wait, failure.expected) : []),
    "try {",
    ...body.flatMap((s) => s.split("\n").map((l) => `  ${l}`)),
    ...(wait ? ["  clearTimeout(noAnswer);"] : []),
    ...(last
      ? [
          failure.expected === undefined
            ? `  console.log("expected:", "see the message above");`
            : `  console.log("expected:", ${expectedCode(failure.expected, steps)});`,
          `  console.log("received:", show(${received(last)}));`,
        ]
      : []),
    "} finally {",
    "  await mod.teardown?.();",
    "}",
    "",
  ];
  return lines.join("\n");
}
