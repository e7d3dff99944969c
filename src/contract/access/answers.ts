/**
 * What a call's result looks like to the suite: a copy of what the service
 * would read. The service reads a user's `id`, `email`, a session's
 * `expires` as properties, so an ORM's model instance (fields as prototype
 * getters, Sequelize's `dataValues`, Mongoose's `_doc`) is read the same
 * way: every §2.9/§2.10 field of the result's kind through a property read
 * (getters run here, where the adapter lives), beside its own plain fields.
 * A field the adapter really leaves out stays out, so the model check still
 * names it. The copy is plain data, so it crosses the worker's boundary as
 * it is, and nothing the suite does to it reaches the adapter.
 *
 * After a copy is made, the call may ask for the adapter's own objects to be
 * changed the way a caller may change what it got (scribble): a store that
 * hands out, or keeps, the objects it returns shows it on the next read.
 *
 * Loaded by the verify worker before the user's module: what it relies on is
 * captured here, so a module that replaces intrinsics changes nothing.
 */
import { types } from "node:util";
import { type ModelName, modelFields } from "../../schemas/model-fields.js";
import type { AdapterMethod } from "../spec/adapter.js";
import { describeThrownValue } from "../spec/thrown.js";

const { isDate, isProxy, isTypedArray } = types;
const { getPrototypeOf, keys, prototype: objectPrototype } = Object;
const { isArray } = Array;
const apply = Reflect.apply;
const getTime = Date.prototype.getTime;
const setTime = Date.prototype.setTime;
const hasOwn = Object.hasOwn;

type Row = Record<string, unknown>;

/** The kind of record each method answers with (§4.2). */
export const answerKinds: Record<
  AdapterMethod,
  ModelName | "sessionAndUser" | "authenticators" | "accounts" | "value"
> = {
  createUser: "user",
  getUser: "user",
  getUserByEmail: "user",
  getUserByAccount: "user",
  updateUser: "user",
  deleteUser: "user",
  linkAccount: "account",
  unlinkAccount: "account",
  getAccount: "account",
  createSession: "session",
  updateSession: "session",
  deleteSession: "session",
  getSessionAndUser: "sessionAndUser",
  createVerificationToken: "verificationToken",
  useVerificationToken: "verificationToken",
  createAuthenticator: "authenticator",
  getAuthenticator: "authenticator",
  updateAuthenticatorCounter: "authenticator",
  listAuthenticatorsByUserId: "authenticators",
  updateAccount: "account",
  listAccountsByUserId: "accounts",
  leaseAccount: "value",
  incrementAttempts: "value",
  decrementAttempts: "value",
  clearAttempts: "value",
};

/** Reading the result threw (a getter, a Proxy): to the service that is the call throwing. */
export class UnreadableResult extends Error {
  constructor(readonly description: string) {
    super(description);
    this.name = "UnreadableResult";
  }
}

const isPlain = (value: object) => {
  const proto = getPrototypeOf(value);
  return proto === objectPrototype || proto === null;
};

const copyDate = (date: Date) => new Date(apply(getTime, date, []) as number);

/**
 * A JSON-like value as plain data: objects and arrays copied, Dates new, functions and symbols dropped,
 * an object met again on its own path (a cycle) or too deep left out.
 */
function plainCopy(value: unknown, depth: number, path: object[] = []): unknown {
  if (typeof value === "function" || typeof value === "symbol") return undefined;
  if (value === null || typeof value !== "object") return value;
  if (isDate(value)) return copyDate(value);
  if (isTypedArray(value)) return value;
  if (depth > 8 || path.includes(value)) return undefined;
  const inner = [...path, value];
  if (isArray(value)) return value.map((item) => plainCopy(item, depth + 1, inner));
  if (isProxy(value) || !isPlain(value)) return ownScalars(value);
  const copy: Row = {};
  for (const key of keys(value)) {
    const item = plainCopy((value as Row)[key], depth + 1, inner);
    if (item !== undefined || (value as Row)[key] === undefined) copy[key] = item;
  }
  return copy;
}

/** The own fields of an instance that are values, not the ORM's machinery (objects, functions). */
function ownScalars(value: object): Row {
  const copy: Row = {};
  for (const key of keys(value)) {
    const item = (value as Row)[key];
    if (item === null || item === undefined || typeof item !== "object") {
      if (typeof item !== "function" && typeof item !== "symbol") copy[key] = item;
    } else if (isDate(item)) copy[key] = copyDate(item);
  }
  return copy;
}

/** One record: its own plain fields, then each field of its kind read as the service reads it. */
function recordCopy(value: unknown, kind: ModelName): unknown {
  if (value === null || typeof value !== "object" || isArray(value) || isDate(value)) return plainCopy(value, 0);
  const plain = !isProxy(value) && isPlain(value);
  const copy = (plain ? plainCopy(value, 0) : ownScalars(value)) as Row;
  for (const field of modelFields[kind]) {
    if (hasOwn(copy, field)) continue;
    const read = (value as Row)[field];
    // Absent stays absent, so a missing required field is reported as missing.
    if (read === undefined && !(field in value)) continue;
    copy[field] = plainCopy(read, 1);
  }
  return copy;
}

function copyOf(method: AdapterMethod, value: unknown): unknown {
  const kind = answerKinds[method];
  if (kind === "authenticators")
    return isArray(value) ? value.map((item) => recordCopy(item, "authenticator")) : plainCopy(value, 0);
  if (kind === "accounts")
    return isArray(value) ? value.map((item) => recordCopy(item, "account")) : plainCopy(value, 0);
  if (kind === "value") return plainCopy(value, 0);
  if (kind !== "sessionAndUser") return recordCopy(value, kind);
  if (value === null || typeof value !== "object") return value;
  const pair = (!isProxy(value) && isPlain(value) ? plainCopy(value, 0) : ownScalars(value)) as Row;
  for (const part of ["session", "user"] as const) {
    const read = (value as Row)[part];
    if (read !== undefined || part in value) pair[part] = recordCopy(read, part);
  }
  return pair;
}

/** The copy of `method`'s result the suite works with; reading the result may throw (UnreadableResult). */
export function answerCopy(method: AdapterMethod, value: unknown): unknown {
  try {
    return copyOf(method, value);
  } catch (error) {
    throw new UnreadableResult(`reading the result threw (${describeThrownValue(error)})`);
  }
}

/** What a call may ask to be changed after it answered, where the adapter's own objects are. */
export type Scribble = "result" | "arguments";

/**
 * What `scribble` writes, chosen so that no stored value holds it by chance:
 * an extra column may well hold the epoch (a default) or a small negative
 * whole number (a time zone offset), and reading those back is no aliasing.
 */
export const changedMark = "\u2060changed";
export const changedTime = -1_234_567_890_123; // 1930-11-18T00:28:29.877Z
export const changedNumber = -7.25e-7;

/**
 * Changes an object the way a caller may change what it was given or got
 * back: strings, numbers and Dates in it (two levels down) get other values,
 * arrays are emptied. A frozen or refusing object is left as it is: nobody
 * can change it, so there is nothing to learn.
 */
export function scribble(value: unknown, depth = 0): void {
  if (value === null || typeof value !== "object" || depth > 1 || isProxy(value)) return;
  try {
    const row = value as Row;
    for (const key of keys(row)) {
      const v = row[key];
      if (isDate(v)) apply(setTime, v, [changedTime]);
      else if (typeof v === "string") row[key] = `${v}${changedMark}`;
      else if (typeof v === "number") row[key] = changedNumber;
      else if (isArray(v)) v.length = 0;
      else if (v && typeof v === "object") scribble(v, depth + 1);
    }
  } catch {
    // Frozen, or a setter that refuses: nothing a caller could change either.
  }
}

/** Scribbles what the call asked for, after its answer was copied. Never throws. */
export function scribbleAfter(what: readonly Scribble[] | undefined, result: unknown, args: unknown[]): void {
  if (!what) return;
  if (what.includes("result")) {
    if (isArray(result)) for (const item of result) scribble(item);
    else scribble(result);
  }
  if (what.includes("arguments")) for (const arg of args) scribble(arg);
}

/** The field a caller changed in an earlier answer, when `row` shows that change. */
export function changedByCaller(row: unknown): string | undefined {
  if (row === null || typeof row !== "object") return undefined;
  for (const [key, v] of Object.entries(row as Row)) {
    if (typeof v === "string" && v.endsWith(changedMark)) return key;
    if (v instanceof Date && v.getTime() === changedTime) return key;
    if (v === changedNumber) return key;
  }
  return undefined;
}
