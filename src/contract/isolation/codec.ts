/**
 * What a frame holds: JSON, with the values JSON has no word for tagged so
 * they cross unchanged: Dates, undefined, BigInts, NaN and the infinities,
 * bytes. A tagged value is an object whose one own key is "\u0000"; a key of
 * the data that starts with "\u0000" gets one more in front, so no data is
 * ever read as a tag. JSON costs a small fraction of V8's serializer for the
 * small records an adapter answers with, and reading it runs no code.
 *
 * Loaded in the worker before the user's module, so what it relies on is
 * captured here: a module that replaces JSON or Buffer methods in its own
 * process changes nothing.
 */
import { types } from "node:util";

const tag = "\u0000";
const { isDate, isTypedArray, isArrayBuffer } = types;
const { keys, hasOwn, defineProperty, create } = Object;
const { isArray } = Array;
const finite = Number.isFinite;
const { stringify, parse } = JSON;
const apply = Reflect.apply;
const getTime = Date.prototype.getTime;
const bigintText = BigInt.prototype.toString;
const bufferFrom = Buffer.from;
const bufferText = Buffer.prototype.toString;
const DateClass = Date;
const BigIntOf = BigInt;
const NumberOf = Number;

function packBytes(value: ArrayBufferView | ArrayBuffer): unknown {
  const bytes = isArrayBuffer(value)
    ? bufferFrom(value)
    : bufferFrom((value as ArrayBufferView).buffer, (value as ArrayBufferView).byteOffset, value.byteLength);
  return { [tag]: "b", v: apply(bufferText, bytes, ["base64"]) };
}

/** `value` as a tree JSON can hold; objects come out with no prototype, so any key is plain data. */
function pack(value: unknown): unknown {
  switch (typeof value) {
    case "string":
    case "boolean":
      return value;
    case "number":
      return finite(value) ? value : { [tag]: "f", v: `${value}` };
    case "bigint":
      return { [tag]: "n", v: apply(bigintText, value, []) };
    case "object": {
      if (value === null) return null;
      if (isDate(value)) return { [tag]: "d", v: apply(getTime, value, []) };
      if (isTypedArray(value) || isArrayBuffer(value)) return packBytes(value as ArrayBufferView);
      if (isArray(value)) return value.map(pack);
      const out = create(null) as Record<string, unknown>;
      for (const key of keys(value))
        out[key[0] === tag ? `${tag}${key}` : key] = pack((value as Record<string, unknown>)[key]);
      return out;
    }
    default:
      // undefined; functions and symbols never reach a frame (answers are copies), and would read as absent.
      return { [tag]: "u" };
  }
}

function untag(value: Record<string, unknown>): unknown {
  const v = value.v;
  switch (value[tag]) {
    case "d":
      return new DateClass(v === null ? NaN : NumberOf(v));
    case "n":
      return BigIntOf(String(v));
    case "f":
      return NumberOf(v);
    case "b":
      return new Uint8Array(bufferFrom(String(v), "base64"));
    default:
      return undefined;
  }
}

/** The tree JSON.parse made, tags turned back into values; keys are set as data, never through a setter. */
function unpack(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = unpack(value[i]);
    return value;
  }
  const row = value as Record<string, unknown>;
  if (hasOwn(row, tag)) return untag(row);
  for (const key of keys(row)) {
    const item = unpack(row[key]);
    const name = key[0] === tag ? key.slice(1) : key;
    if (name !== key) delete row[key];
    if (name !== key || item !== row[key])
      defineProperty(row, name, { value: item, writable: true, enumerable: true, configurable: true });
  }
  return row;
}

export function encodeValue(value: unknown): string {
  return stringify(pack(value));
}

/** Throws (a SyntaxError) for text that is not a frame's JSON. */
export function decodeValue(text: string): unknown {
  return unpack(parse(text));
}
