/** How one generated module names another: relative specifiers and import lines. */
import { posix } from "node:path";
import type { ImportSpec } from "./parts.js";

/** A relative module specifier from one project file to another, with the project's import extension. */
export function specifier(fromFile: string, toFile: string, ext: "" | ".js"): string {
  const rel = posix.relative(posix.dirname(fromFile), toFile).replace(/\.ts$/, ext);
  return rel.startsWith("../") || rel.startsWith("./") ? rel : `./${rel}`;
}

/** `import X, { a, b } from "from";` */
export function importLine(spec: ImportSpec): string {
  const parts = [spec.defaultImport, spec.named?.length ? `{ ${spec.named.join(", ")} }` : undefined].filter(Boolean);
  return `import ${parts.join(", ")} from "${spec.from}";`;
}
