/**
 * Generated modules for a JavaScript project whose server runs its modules
 * as written (node server.js): each TypeScript module the parts plan is
 * written as JavaScript under a .js name (its types erased,
 * src/ast/strip-types.ts), every mention of its path follows it (the other
 * modules' comments, scripts, next steps), and scripts run them with node
 * rather than tsx.
 */
import type { GeneratedPart, PlannedFile } from "../render/parts.js";

interface JavaScriptOutput<P extends Pick<GeneratedPart, "files" | "scripts">> {
  part: P;
  /** A project path, or a text naming generated modules, as the JavaScript output names them. */
  rename(text: string): string;
}

const isTypeScript = (path: string) => path.endsWith(".ts") && !path.endsWith(".d.ts");
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The part with its TypeScript modules as JavaScript; `also` names other modules to rename (a provider's). */
export async function inJavaScript<P extends Pick<GeneratedPart, "files" | "scripts">>(
  part: P,
  also: string[] = [],
): Promise<JavaScriptOutput<P>> {
  const { stripTypes } = await import("../ast/strip-types.js");
  const paths = [...part.files.map((f) => f.path), ...also].filter(isTypeScript);
  // Longest first: "src/auth/session.ts" before a shorter path it ends with.
  const pattern = paths.length
    ? new RegExp(
        `(?<![\\w./-])(${paths
          .sort((a, b) => b.length - a.length)
          .map(escapeRegExp)
          .join("|")})(?![\\w-])`,
        "g",
      )
    : undefined;
  const rename = (text: string) => (pattern ? text.replace(pattern, (path) => path.replace(/\.ts$/, ".js")) : text);
  const files: PlannedFile[] = part.files.map((file) =>
    isTypeScript(file.path)
      ? { path: rename(file.path), contents: rename(stripTypes(file.contents, file.path)) }
      : { ...file, contents: rename(file.contents) },
  );
  const scripts = Object.fromEntries(
    Object.entries(part.scripts).map(([name, script]) => [
      name,
      rename(script)
        .replace(/(^|&&\s*|;\s*)tsx watch /g, "$1node --watch ")
        .replace(/(^|&&\s*|;\s*)tsx /g, "$1node "),
    ]),
  );
  return { part: { ...part, files, scripts }, rename };
}
