/**
 * What an adapter threw, in one line, found without running any of the
 * value's own code: no getter, no `toString`, no `toJSON`, no Proxy trap,
 * no `instanceof` (which asks a Proxy for its prototype). A throw is a
 * throw, whatever was thrown; only its description depends on what can be
 * read safely. The verify worker loads this before the user's module, so
 * the functions it relies on are the originals.
 */
import { types } from "node:util";

const { isProxy, isNativeError, isDate } = types;
const { getOwnPropertyDescriptor, getPrototypeOf, keys } = Object;
const { isArray } = Array;
const apply = Reflect.apply;
const toIso = Date.prototype.toISOString;
const getTime = Date.prototype.getTime;
const quote = JSON.stringify;

/** A data property's value; undefined for an accessor (never called) or a missing property. */
function dataProperty(target: object, key: string): unknown {
  const descriptor = getOwnPropertyDescriptor(target, key);
  return descriptor && "value" in descriptor ? descriptor.value : undefined;
}

/** The name a constructor was declared with, read as data. */
function constructorName(prototype: object): string | undefined {
  const maker = dataProperty(prototype, "constructor");
  if (typeof maker !== "function" || isProxy(maker)) return undefined;
  const name = dataProperty(maker, "name");
  return typeof name === "string" && name !== "" ? name : undefined;
}

/** An Error's name: the first `name` data property up its chain; an accessor there gives way to its class's name. */
function errorName(error: object): string {
  for (let at: object | null = error; at !== null && !isProxy(at); at = getPrototypeOf(at)) {
    const descriptor = getOwnPropertyDescriptor(at, "name");
    if (!descriptor) continue;
    if ("value" in descriptor) return typeof descriptor.value === "string" ? descriptor.value : "Error";
    return constructorName(at) ?? "Error";
  }
  return "Error";
}

/** JSON of own enumerable data properties only, depth-limited; what cannot be read safely is named instead. */
function safeJson(value: unknown, depth: number): string {
  if (value === null || typeof value === "boolean" || typeof value === "number") return String(value);
  if (typeof value === "string") return quote(value.length > 200 ? `${value.slice(0, 197)}...` : value);
  if (typeof value === "bigint") return `"${value}n"`;
  if (typeof value !== "object") return `"[${typeof value}]"`;
  if (isProxy(value)) return '"[Proxy]"';
  if (isDate(value)) return Number.isNaN(apply(getTime, value, [])) ? '"Invalid Date"' : quote(apply(toIso, value, []));
  if (depth > 2) return isArray(value) ? '"[...]"' : '"{...}"';
  const entries = keys(value)
    .slice(0, 20)
    .flatMap((key) => {
      const descriptor = getOwnPropertyDescriptor(value, key);
      // As JSON would: methods and undefined left out.
      const kept =
        descriptor && "value" in descriptor && !["function", "symbol", "undefined"].includes(typeof descriptor.value);
      return kept ? [[key, descriptor.value] as const] : [];
    });
  if (isArray(value)) return `[${entries.map(([, item]) => safeJson(item, depth + 1)).join(",")}]`;
  return `{${entries.map(([key, item]) => `${quote(key)}:${safeJson(item, depth + 1)}`).join(",")}}`;
}

function describe(value: unknown): string {
  if (value === undefined) return "thrown undefined";
  if (value === null) return "thrown null";
  if (typeof value === "string") return `thrown string ${quote(value)}`;
  if (typeof value === "function") return "thrown function";
  if (typeof value === "symbol") return "thrown symbol";
  if (typeof value !== "object") return `thrown ${typeof value} ${String(value)}`;
  if (isProxy(value)) return "thrown Proxy (not inspected: reading it would run its code)";
  if (isNativeError(value)) {
    const message = dataProperty(value, "message");
    return `${errorName(value)}: ${typeof message === "string" ? message : "(no message)"}`;
  }
  return `thrown object ${safeJson(value, 0)}`;
}

/** One line for any thrown value; never throws, never runs the value's code. */
export function describeThrownValue(value: unknown): string {
  try {
    return describe(value);
  } catch {
    // Only our own reads are in here; a host object that refuses even those is still a throw.
    return "thrown value (not inspected)";
  }
}
