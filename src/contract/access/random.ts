/**
 * Reproducible random values. Each case gets its own generator derived from
 * the run's seed and the case id, so a case produces the same data whether it
 * runs alone, first, last or in parallel with others.
 */
import { randomBytes as randomBytesCrypto } from "node:crypto";

export type Random = () => number;

/** FNV-1a: a small, stable string hash to derive per-case seeds. */
function hashString(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/** mulberry32: fast, well-distributed 32-bit generator; the cases' data and exploration's values both draw from it. */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomFor(seed: number, caseId: string): Random {
  return mulberry32(hashString(`${seed}:${caseId}`));
}

/** Per run: keeps the values of two runs apart even when they share a seed. */
export function newNonce(): string {
  return randomBytesCrypto(6).toString("hex");
}

export function newSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

export function randomBytes(random: Random, count: number): number[] {
  return Array.from({ length: count }, () => Math.floor(random() * 256));
}

export function hex(random: Random, bytes: number): string {
  return randomBytes(random, bytes)
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");
}

/** A version-4-shaped uuid, so uuid columns accept it as an (unknown) key. */
export function uuid(random: Random): string {
  const b = randomBytes(random, 16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

export function base64url(random: Random, bytes: number): string {
  return Buffer.from(randomBytes(random, bytes)).toString("base64url");
}
