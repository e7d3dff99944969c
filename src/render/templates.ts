/**
 * Handlebars for generated TypeScript: one isolated instance, code-safe
 * helpers, templates and partials loaded from the package's templates/
 * folder and compiled once per process.
 *
 * Templates produce code, not HTML: they compile with `noEscape`, so `{{x}}`
 * is raw. A user value must therefore only reach a template through `{{js x}}`,
 * which emits a complete JS literal; raw `{{x}}` is for values the generator
 * computed itself (identifiers, validated ids).
 */
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import type { HelperOptions } from "handlebars";

type Handlebars = typeof import("handlebars");
type Template = (context: unknown, options?: { partials?: Record<string, unknown> }) => string;

/** The templates folder at the package root; the same relative URL works from src/ (tsx) and dist/. */
export const templatesRoot = new URL("../../templates/", import.meta.url);

/**
 * A string as a JS string literal that evaluates to exactly `value`.
 * JSON.stringify handles quotes, backslashes and control characters and
 * escapes lone surrogates; U+2028/2029 are escaped too because editors and
 * older tools treat them as line breaks. Other non-ASCII stays readable.
 */
export function jsString(value: string): string {
  return JSON.stringify(value)
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** Any plain value (string, finite number, boolean, null, arrays and plain objects of those) as a JS literal. */
export function jsLiteral(value: unknown): string {
  if (typeof value === "string") return jsString(value);
  if (typeof value === "boolean" || value === null) return String(value);
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (Array.isArray(value)) return `[${value.map(jsLiteral).join(", ")}]`;
  if (typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype) {
    const entries = Object.entries(value as Record<string, unknown>).map(
      ([k, v]) => `${jsPropertyKey(k)}: ${jsLiteral(v)}`,
    );
    return entries.length ? `{ ${entries.join(", ")} }` : "{}";
  }
  // Refuse rather than guess: an undefined or odd value in a template is a generator bug.
  throw new TypeError(`Cannot write ${String(value)} (${typeof value}) as a JS literal`);
}

const identifier = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** An object key: bare when it is an identifier name (reserved words are fine as keys), else quoted. */
export function jsPropertyKey(key: string): string {
  return identifier.test(key) && key !== "__proto__" ? key : jsString(key);
}

const jsReserved = new Set(
  (
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if " +
    "implements import in instanceof interface let new null package private protected public return static super switch this " +
    "throw true try typeof var void while with yield await async arguments eval undefined NaN Infinity"
  ).split(" "),
);

/** Whether `name` can be a `const` binding in an ES module. */
export function isBindingName(name: string): boolean {
  return identifier.test(name) && !jsReserved.has(name);
}

function register(hbs: Handlebars): void {
  hbs.registerHelper("js", (value: unknown) => jsLiteral(value));
  hbs.registerHelper("key", (value: unknown) => jsPropertyKey(String(value)));
  // {{#each list}}...{{#unless @last}},{{/unless}} is noisy; `{{#join list ", "}}{{js this}}{{/join}}` reads better.
  hbs.registerHelper("join", (list: unknown[], separator: string, options: HelperOptions) => {
    return list.map((item) => options.fn(item)).join(typeof separator === "string" ? separator : ", ");
  });
  hbs.registerHelper("eq", (a: unknown, b: unknown) => a === b);
  hbs.registerHelper("includes", (list: unknown, item: unknown) => Array.isArray(list) && list.includes(item));
}

/** How templates compile: code, not HTML (no escaping), and a missing value is an error. */
export const compileOptions = { noEscape: true, strict: true } as const;

type TemplateSpec = Parameters<Handlebars["template"]>[0];

/** Built by scripts/build.ts into dist/; absent when running from src/ (the .hbs files are compiled then). */
async function precompiled(): Promise<Record<string, TemplateSpec> | undefined> {
  const file = fileURLToPath(new URL("../templates.precompiled.cjs", import.meta.url));
  return existsSync(file) ? (createRequire(import.meta.url)(file) as Record<string, TemplateSpec>) : undefined;
}

let instance: Promise<{ hbs: Handlebars; specs: Record<string, TemplateSpec> | undefined }> | undefined;

/**
 * Handlebars is imported only when something is rendered, so other commands
 * never pay for it; with precompiled templates only its runtime is loaded.
 */
function handlebars() {
  instance ??= precompiled().then(async (specs) => {
    const mod = (specs ? await import("handlebars/runtime.js") : await import("handlebars")) as unknown as {
      default?: Handlebars;
    } & Handlebars;
    const hbs = (mod.default ?? mod).create() as Handlebars;
    register(hbs);
    return { hbs, specs };
  });
  return instance;
}

const templates = new Map<string, Promise<Template>>();
const partialSets = new Map<string, Promise<Record<string, Template>>>();

async function compile(path: string): Promise<Template> {
  const { hbs, specs } = await handlebars();
  const spec = specs?.[path];
  if (spec) return hbs.template(spec) as Template;
  const source = await readFile(new URL(path, templatesRoot), "utf8");
  return hbs.compile(source, compileOptions) as Template;
}

/** Partials of a template folder live in its `partials/` subfolder, named by file name without `.hbs`. */
function partialsOf(folder: string): Promise<Record<string, Template>> {
  let set = partialSets.get(folder);
  if (!set) {
    set = (async () => {
      const dir = `${folder}partials/`;
      // The package ships only the precompiled templates, so their keys are the listing there.
      const { specs } = await handlebars();
      const names = specs
        ? Object.keys(specs)
            .filter((key) => key.startsWith(dir) && !key.slice(dir.length).includes("/"))
            .map((key) => key.slice(dir.length))
        : await readdir(new URL(dir, templatesRoot)).catch(() => [] as string[]);
      const entries = await Promise.all(
        names.filter((n) => n.endsWith(".hbs")).map(async (n) => [n.slice(0, -4), await compile(dir + n)] as const),
      );
      return Object.fromEntries(entries);
    })();
    partialSets.set(folder, set);
  }
  return set;
}

/**
 * Renders `templates/<path>` (e.g. "providers/social.ts.hbs") with `context`.
 * Compiled templates are cached for the life of the process. `partialsFrom`
 * names a second folder (e.g. "frameworks/next") whose partials the template
 * may use too, theirs winning on a name both have: a shared template whose
 * parts each kind writes in its own folder.
 */
export async function renderTemplate(path: string, context: object, partialsFrom?: string): Promise<string> {
  let template = templates.get(path);
  if (!template) {
    template = compile(path);
    templates.set(path, template);
    // A failed read or compile is not cached, so a fixed template works on the next call.
    template.catch(() => templates.delete(path));
  }
  const folder = path.slice(0, path.lastIndexOf("/") + 1);
  const [render, own, theirs] = await Promise.all([
    template,
    partialsOf(folder),
    partialsFrom === undefined ? {} : partialsOf(`${partialsFrom.replace(/\/$/, "")}/`),
  ]);
  return render(context, { partials: { ...own, ...theirs } });
}
