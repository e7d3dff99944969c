/** A broken contract rule: what the rule expected and what came back. */
export class ContractFailure extends Error {
  readonly expected: string | undefined;
  readonly received: string | undefined;

  constructor(message: string, details: { expected?: string; received?: string } = {}) {
    super(message);
    this.name = "ContractFailure";
    this.expected = details.expected;
    this.received = details.received;
  }
}

/** Shows a value the way a failure message needs it: types visible. */
export function describeValue(value: unknown, depth = 0): string {
  if (value === null) return "null";
  if (value === undefined) return "undefined";
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? "Invalid Date" : `Date(${value.toISOString()})`;
  if (typeof value === "string") return JSON.stringify(value.length > 80 ? `${value.slice(0, 77)}...` : value);
  if (typeof value === "number" || typeof value === "boolean" || typeof value === "bigint") {
    return `${typeof value} ${String(value)}`;
  }
  if (typeof value === "function") return "function";
  if (depth > 2) return Array.isArray(value) ? "[...]" : "{...}";
  if (Array.isArray(value)) return `[${value.map((v) => describeValue(v, depth + 1)).join(", ")}]`;
  const entries = Object.entries(value as Record<string, unknown>);
  return `{ ${entries.map(([k, v]) => `${k}: ${describeValue(v, depth + 1)}`).join(", ")} }`;
}
