import { relative } from "node:path";

/** The path from `from` to `to` with forward slashes, as messages and generated code show it on every platform. */
export function posixRelative(from: string, to: string): string {
  return relative(from, to).split("\\").join("/");
}
