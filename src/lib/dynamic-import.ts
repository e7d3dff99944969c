/**
 * `import()` for what must load as an ES module at run time: a user's
 * JavaScript adapter, and tsx's loader API. The CLI bundle runs from a V8
 * code cache compiled through node:vm, where Node 20 cannot run `import()`
 * without an experimental flag (lib/compile-cache.ts), so its launcher,
 * compiled by Node as usual, hands in an `import` of its own. Bare
 * specifiers then resolve from the launcher, inside this package. Elsewhere
 * (the library, tests) the default is used.
 */
type Importer = (specifier: string) => Promise<unknown>;

let importer: Importer = (specifier) => import(specifier);

export function useImporter(next: Importer): void {
  importer = next;
}

export function dynamicImport<T = Record<string, unknown>>(specifier: string): Promise<T> {
  return importer(specifier) as Promise<T>;
}
