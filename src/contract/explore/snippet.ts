/**
 * A failing sequence as a short TypeScript program against the user's own
 * module: the calls in order, then what the model expected beside what the
 * adapter returned. It loads the module the way verify-adapter does (setup,
 * then the export, called when it is a factory, then teardown).
 *
 * A failure that shows only because results were changed after they were
 * read (the exploration changes what the service hands on, as a caller may)
 * is printed with the same changes: each such result goes through `handOn`,
 * which keeps a copy for later calls and changes the adapter's own object.
 * Without them the program would pass against the adapter that failed.
 */
import { changedMark, changedNumber, changedTime } from "../access/answers.js";
import { handedOn } from "./probe.js";
import { callCode, literal, type TraceCall, type TraceStep } from "./trace.js";

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

function statement(step: TraceStep, last: boolean, changes: boolean): string {
  const changed = (call: TraceCall) => changes && handedOn.has(call.method);
  const awaited = (call: TraceCall) =>
    changed(call) ? `handOn(await adapter.${callCode(call)})` : `await adapter.${callCode(call)}`;
  if (step.calls.length === 1) {
    const call = step.calls[0]!;
    const name = call.assign ?? (last ? "result" : undefined);
    return `${name ? `const ${name} = ` : ""}${awaited(call)};`;
  }
  const names = step.calls.map((c, i) => c.assign ?? (last ? `result${i + 1}` : `_${i + 1}`));
  const lines = step.calls.map((c) =>
    changed(c) ? `  Promise.resolve(adapter.${callCode(c)}).then(handOn),` : `  adapter.${callCode(c)},`,
  );
  const binding = names.some((n) => !n.startsWith("_")) ? `const [${names.join(", ")}] = ` : "";
  return `${binding}await Promise.all([\n${lines.join("\n")}\n]);`;
}

function received(step: TraceStep): string {
  if (step.calls.length === 1) return step.calls[0]!.assign ?? "result";
  if (step.shows !== undefined) return step.calls[step.shows]!.assign ?? `result${step.shows + 1}`;
  return `[${step.calls.map((c, i) => c.assign ?? `result${i + 1}`).join(", ")}]`;
}

export function formatSnippet(failure: SnippetSource, modulePath: string, exportName = "default"): string {
  const steps = failure.trace;
  const changes = failure.callerChanges === true;
  const body = steps.map((s, i) => statement(s, i === steps.length - 1, changes));
  const last = steps[steps.length - 1];
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
    "try {",
    ...body.flatMap((s) => s.split("\n").map((l) => `  ${l}`)),
    ...(last
      ? [
          `  console.log("expected:", ${literal(failure.expected ?? "see the message above")});`,
          `  console.log("received:", ${received(last)});`,
        ]
      : []),
    "} finally {",
    "  await mod.teardown?.();",
    "}",
    "",
  ];
  return lines.join("\n");
}
