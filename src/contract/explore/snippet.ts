/**
 * A failing sequence as a short TypeScript program against the user's own
 * module: the calls in order, then what the model expected beside what the
 * adapter returned. It loads the module the way verify-adapter does (setup,
 * then the export, called when it is a factory, then teardown).
 */
import { callCode, literal, type TraceCall, type TraceStep } from "./trace.js";

interface SnippetSource {
  message: string;
  expected?: string;
  received?: string;
  replay: string;
  trace: TraceStep[];
}

const awaited = (call: TraceCall) => `adapter.${callCode(call)}`;

function statement(step: TraceStep, last: boolean): string {
  if (step.calls.length === 1) {
    const call = step.calls[0]!;
    const name = call.assign ?? (last ? "result" : undefined);
    return `${name ? `const ${name} = ` : ""}await ${awaited(call)};`;
  }
  const names = step.calls.map((c, i) => c.assign ?? (last ? `result${i + 1}` : `_${i + 1}`));
  const lines = step.calls.map((c) => `  ${awaited(c)},`);
  const binding = names.some((n) => !n.startsWith("_")) ? `const [${names.join(", ")}] = ` : "";
  return `${binding}await Promise.all([\n${lines.join("\n")}\n]);`;
}

function received(step: TraceStep): string {
  if (step.calls.length === 1) return step.calls[0]!.assign ?? "result";
  return `[${step.calls.map((c, i) => c.assign ?? `result${i + 1}`).join(", ")}]`;
}

export function formatSnippet(failure: SnippetSource, modulePath: string, exportName = "default"): string {
  const steps = failure.trace;
  const body = steps.map((s, i) => statement(s, i === steps.length - 1));
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
