/**
 * Frames between verify-adapter (the supervisor) and the worker that holds
 * the user's module: a 4-byte length, then the value as tagged JSON
 * (codec.ts), so Dates, undefined, BigInts and nested records keep their
 * types across the process boundary. Nothing in a frame can run code when
 * read, and a frame larger than the limit, or one that does not decode,
 * ends the channel.
 */
import { decodeValue, encodeValue } from "./codec.js";

/** Far above any adapter result (a user with hundreds of 4 KB tokens); below what would strain memory. */
const maxFrameBytes = 64 * 1024 * 1024;

// Captured when this module loads, before the worker loads the user's module,
// which may replace them in its process (fixtures/modules/hostile/patches-intrinsics.ts).
const apply = Reflect.apply;
const readLength = Buffer.prototype.readUInt32BE;
const writeLength = Buffer.prototype.writeUInt32BE;
const copyBytes = Buffer.prototype.copy;
const slice = Buffer.prototype.subarray;
const allocUnsafe = Buffer.allocUnsafe;
const byteLength = Buffer.byteLength;
const writeText = Buffer.prototype.write;
const readText = Buffer.prototype.toString;

/** Buffer.concat on the captured primitives: Node's own calls the Buffer.allocUnsafe a module may replace. */
function concat(parts: Buffer[]): Buffer {
  let total = 0;
  for (const part of parts) total += part.length;
  const out = allocUnsafe(total);
  let at = 0;
  for (const part of parts) at += apply(copyBytes, part, [out, at]) as number;
  return out;
}

export function encodeFrame(value: unknown): Buffer {
  const text = encodeValue(value);
  const length = byteLength(text, "utf8");
  const frame = allocUnsafe(4 + length);
  apply(writeLength, frame, [length, 0]);
  apply(writeText, frame, [text, 4, length, "utf8"]);
  return frame;
}

/**
 * Frames sent in one turn of the event loop leave in one write: a sweep's
 * lookups, or the answers to them, cost one system call, not hundreds.
 */
export class FrameWriter {
  private frames: Buffer[] = [];
  private scheduled = false;

  constructor(
    private readonly write: (bytes: Buffer) => void,
    private readonly defer: (flush: () => void) => void,
  ) {}

  send(value: unknown): void {
    this.frames.push(encodeFrame(value));
    if (this.scheduled) return;
    this.scheduled = true;
    this.defer(() => this.flush());
  }

  /** Writes what is waiting now (also from an exit handler, where nothing deferred would run). */
  flush(): void {
    this.scheduled = false;
    if (this.frames.length === 0) return;
    const bytes = this.frames.length === 1 ? this.frames[0]! : concat(this.frames);
    this.frames = [];
    this.write(bytes);
  }
}

class FrameError extends Error {}

/** Collects chunks and hands out whole frames; a malformed one is a FrameError. */
export class FrameReader {
  private chunks: Buffer[] = [];
  private buffered = 0;
  /** The whole frame's size, once its length is known: chunks are joined only when it is all there. */
  private needed = 4;

  push(chunk: Buffer): unknown[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const values: unknown[] = [];
    while (this.buffered >= this.needed) {
      const head = this.chunks.length === 1 ? this.chunks[0]! : concat(this.chunks);
      this.chunks = [head];
      const length = apply(readLength, head, [0]) as number;
      if (length > maxFrameBytes) throw new FrameError(`a frame of ${length} bytes (the limit is ${maxFrameBytes})`);
      this.needed = 4 + length;
      if (this.buffered < this.needed) break;
      try {
        values.push(decodeValue(apply(readText, head, ["utf8", 4, 4 + length]) as string));
      } catch (error) {
        throw new FrameError(`a frame that does not decode (${(error as Error).message})`);
      }
      const rest: Buffer = apply(slice, head, [4 + length]);
      this.chunks = rest.length > 0 ? [rest] : [];
      this.buffered = rest.length;
      this.needed = 4;
    }
    return values;
  }
}
