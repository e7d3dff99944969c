/** A tsconfig.json for a project that has none. */

export interface TsconfigChoice {
  text: string;
  importExtension: "" | ".js";
}

/**
 * A tsconfig for a project that has none. An ESM package gets Node's own
 * resolution (NodeNext, so relative imports carry ".js"); a CommonJS one
 * gets bundler resolution with bare imports, which tsx and bundlers accept.
 */
export function newTsconfig(esm: boolean, decorators: boolean): TsconfigChoice {
  const compilerOptions: Record<string, unknown> = {
    target: "ES2022",
    module: esm ? "NodeNext" : "ESNext",
    moduleResolution: esm ? "NodeNext" : "Bundler",
    lib: ["ES2023"],
    strict: true,
    skipLibCheck: true,
    esModuleInterop: true,
    noEmit: true,
    ...(decorators ? { experimentalDecorators: true, emitDecoratorMetadata: true } : {}),
  };
  const config = { compilerOptions, include: ["**/*.ts"], exclude: ["node_modules"] };
  return { text: `${JSON.stringify(config, null, 2)}\n`, importExtension: esm ? ".js" : "" };
}
