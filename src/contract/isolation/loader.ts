/**
 * Loads a user's adapter module and finds the adapter in it (§4.2: "a plain
 * object or the result of a factory function"). Every way this can go wrong
 * is a LoadError, raised before any case runs.
 */
import { existsSync, statSync } from "node:fs";
import { extname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { LoadError } from "../../lib/errors.js";
import { type AnyAdapter, adapterMethods } from "../spec/adapter.js";
import { describeThrownValue } from "../spec/thrown.js";
import { importTypeScript } from "./typescript.js";

const typescriptExtensions = new Set([".ts", ".mts", ".cts"]);
const supportedExtensions = new Set([...typescriptExtensions, ".js", ".mjs", ".cjs"]);

type Hook = () => unknown;

interface LoadedModule {
  path: string;
  /** Which export held the adapter, for the report. */
  exportName: string;
  /** Runs the module's setup(), if any. */
  setup(): Promise<void>;
  /** Resolves the adapter: the object, the factory's result (called once) or the promise's value. */
  adapter(): Promise<AnyAdapter>;
  /** Runs the module's teardown(), if any. */
  close(): Promise<void>;
}

async function importModule(path: string): Promise<Record<string, unknown>> {
  if (!typescriptExtensions.has(extname(path))) return import(pathToFileURL(path).href);
  return importTypeScript(path);
}

function isAdapterObject(value: unknown): value is AnyAdapter {
  if (typeof value !== "object" || value === null) return false;
  try {
    return adapterMethods.some((m) => typeof (value as AnyAdapter)[m] === "function");
  } catch (error) {
    // A Proxy whose `get` throws, or a getter that does.
    throw new LoadError(`Reading the adapter's methods threw: ${describeThrownValue(error)}`, {
      hint: "The adapter must be an object whose methods can be read.",
    });
  }
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === "function";
}

const usable = (value: unknown) => typeof value === "function" || isAdapterObject(value) || isThenable(value);

function describeKind(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object with none of the adapter methods (createUser, getUser, ...)";
  return `a ${typeof value}`;
}

/** Picks the export holding the adapter: --export NAME, else default, else `adapter`. */
function pickExport(
  mod: Record<string, unknown>,
  path: string,
  requested: string | undefined,
): { name: string; value: unknown } {
  const names = Object.keys(mod).filter((k) => k !== "module.exports");
  const listing = names.length > 0 ? names.join(", ") : "nothing";
  if (requested) {
    if (!(requested in mod))
      throw new LoadError(`${path} has no export named "${requested}"; it exports: ${listing}.`, {
        hint: "Pass --export with one of those names.",
      });
    const value = mod[requested];
    if (!usable(value))
      throw new LoadError(
        `Export "${requested}" of ${path} is ${describeKind(value)}; expected an adapter object, a factory function or a promise of an adapter.`,
      );
    return { name: requested, value };
  }
  for (const name of ["default", "adapter"]) {
    if (usable(mod[name])) return { name, value: mod[name] };
  }
  // A CommonJS module's `module.exports = { adapter }` arrives as the default export.
  const cjs = mod.default as Record<string, unknown> | undefined;
  if (cjs && typeof cjs === "object" && usable(cjs.adapter)) return { name: "adapter", value: cjs.adapter };
  // `export default` compiled to CommonJS (a "type": "commonjs" package) arrives as { __esModule: true, default }.
  if (cjs && typeof cjs === "object" && usable(cjs.default)) return { name: "default", value: cjs.default };
  if ("default" in mod) {
    throw new LoadError(
      `The default export of ${path} is ${describeKind(mod.default)}; expected an adapter object, a factory function or a promise of an adapter.`,
      {
        hint: names.length > 1 ? `It also exports: ${listing}. Choose one with --export NAME.` : undefined,
      },
    );
  }
  throw new LoadError(`${path} exports no adapter. It exports: ${listing}.`, {
    hint: "Export the adapter as the default export or as `adapter`, or pass --export NAME.",
  });
}

function hook(mod: Record<string, unknown>, name: "setup" | "teardown"): Hook | undefined {
  const cjs = mod.default as Record<string, unknown> | undefined;
  const value = mod[name] ?? (cjs && typeof cjs === "object" ? cjs[name] : undefined);
  return typeof value === "function" ? (value as Hook) : undefined;
}

export async function loadAdapterModule(
  modulePath: string,
  options: { exportName?: string; cwd?: string } = {},
): Promise<LoadedModule> {
  const path = resolve(options.cwd ?? process.cwd(), modulePath);
  if (!existsSync(path))
    throw new LoadError(`Cannot find the adapter module ${modulePath} (looked for ${path}).`, {
      hint: "Paths are resolved from the current directory.",
    });
  if (!statSync(path).isFile()) throw new LoadError(`${path} is a directory; pass the adapter module file itself.`);
  if (!supportedExtensions.has(extname(path))) {
    throw new LoadError(`${path} has an unsupported extension "${extname(path)}".`, {
      hint: "Use one of .ts, .mts, .cts, .js, .mjs, .cjs.",
    });
  }

  let mod: Record<string, unknown>;
  try {
    mod = await importModule(path);
  } catch (error) {
    if (error instanceof LoadError) throw error;
    throw new LoadError(`Importing ${modulePath} failed: ${describeThrownValue(error)}`, { cause: error });
  }
  const picked = pickExport(mod, modulePath, options.exportName);
  const setup = hook(mod, "setup");
  const teardown = hook(mod, "teardown");

  return {
    path,
    exportName: picked.name,
    async setup() {
      if (!setup) return;
      try {
        await setup();
      } catch (error) {
        throw new LoadError(`setup() of ${modulePath} failed: ${describeThrownValue(error)}`, { cause: error });
      }
    },
    async adapter() {
      let adapter: unknown;
      try {
        adapter = typeof picked.value === "function" ? await (picked.value as () => unknown)() : await picked.value;
      } catch (error) {
        const what = typeof picked.value === "function" ? "The adapter factory" : "The adapter promise";
        throw new LoadError(`${what} (export "${picked.name}") failed: ${describeThrownValue(error)}`, {
          cause: error,
        });
      }
      if (!isAdapterObject(adapter)) {
        throw new LoadError(
          `Export "${picked.name}" of ${modulePath} produced ${describeKind(adapter)}; expected an adapter object with the adapter methods (createUser, getUser, ...).`,
        );
      }
      return adapter;
    },
    async close() {
      if (!teardown) return;
      try {
        await teardown();
      } catch (error) {
        throw new LoadError(`teardown() of ${modulePath} failed: ${describeThrownValue(error)}`, { cause: error });
      }
    },
  };
}
