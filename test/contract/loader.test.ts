import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadAdapterModule } from "../../src/contract/isolation/loader.js";
import { LoadError } from "../../src/lib/errors.js";
import { fixture, tempDir } from "../helpers.js";

const modules = (name: string) => fixture("modules", name);

async function open(name: string, exportName?: string) {
  const loaded = await loadAdapterModule(modules(name), { exportName });
  await loaded.setup();
  const adapter = await loaded.adapter();
  await loaded.close();
  return { loaded, adapter };
}

describe("loading adapter modules", () => {
  it.each([
    ["esm-object.mjs", "default", "getUser"],
    ["named-adapter.js", "adapter", "getUserByEmail"],
    ["cjs-factory.cjs", "adapter", "getUser"],
    ["typed-cjs.cts", "default", "getAuthenticator"],
    ["async-factory.ts", "default", "createUser"],
    ["promise-export.ts", "default", "createUser"],
    ["ts-paths/src/adapter.ts", "default", "getUser"],
    ["commonjs-package/adapter.ts", "default", "getUser"],
  ])("%s: finds the adapter in export %s", async (name, exportName, method) => {
    const { loaded, adapter } = await open(name);
    expect(loaded.exportName).toBe(exportName);
    expect(typeof (adapter as Record<string, unknown>)[method]).toBe("function");
  });

  it("compiles TypeScript that imports local files through tsconfig paths", async () => {
    const { adapter } = await open("ts-paths/src/adapter.ts");
    expect(await adapter.getUser!("nobody")).toBeNull();
  });

  it("finds export default and setup in a TypeScript module of a CommonJS package", async () => {
    const { adapter } = await open("commonjs-package/adapter.ts");
    expect(await adapter.getUser!("nobody")).toBeNull();
  });

  it("runs a CommonJS module's setup before its factory", async () => {
    const { adapter } = await open("cjs-factory.cjs");
    // The factory's adapter answers null only once setup() has run.
    expect(adapter.getUser!()).toBeNull();
  });

  it("takes a named export with --export", async () => {
    const { loaded, adapter } = await open("named-export.mts", "postgresAdapter");
    expect(loaded.exportName).toBe("postgresAdapter");
    expect(typeof adapter.getSessionAndUser).toBe("function");
  });

  it("calls setup, then the factory once, then teardown", async () => {
    const log = join(tempDir(), "hooks.log");
    process.env.HOOK_LOG = log;
    const loaded = await loadAdapterModule(modules("with-hooks.ts"));
    await loaded.setup();
    await loaded.adapter();
    await loaded.close();
    expect(readFileSync(log, "utf8").trim().split("\n")).toEqual(["setup", "factory 1", "teardown"]);
  });
});

describe("modules that cannot be used fail before any case runs", () => {
  const fails = async (name: string, pattern: RegExp, exportName?: string) => {
    const attempt = (async () => {
      const loaded = await loadAdapterModule(modules(name), { exportName });
      await loaded.setup();
      await loaded.adapter();
    })();
    await expect(attempt).rejects.toBeInstanceOf(LoadError);
    await expect(attempt).rejects.toThrow(pattern);
  };

  it("a path that does not exist", () => fails("missing.ts", /Cannot find the adapter module .*missing\.ts/));
  it("a directory", () => fails("ts-paths", /is a directory/));
  it("an unsupported extension", () => fails("README.md", /unsupported extension "\.md"/));
  it("a module that throws on import shows its error", () =>
    fails("throws-on-import.ts", /Importing .* failed: Error: DATABASE_URL is not set/));
  it("no adapter-like export lists what the module exports", () =>
    fails(
      "no-adapter.ts",
      /exports no adapter\. It exports: .*helper.*schema|exports no adapter\. It exports: .*schema.*helper/,
    ));
  it("a default export that is neither object nor function", () =>
    fails("wrong-kind.ts", /default export .* is a string; expected an adapter object/));
  it("a --export name the module does not have", () =>
    fails("named-export.mts", /no export named "mysqlAdapter"; it exports: .*postgresAdapter/, "mysqlAdapter"));
  it("a --export that is not an adapter", () =>
    fails("named-export.mts", /Export "notTheAdapter" .* is a number/, "notTheAdapter"));
  it("a factory that throws", () =>
    fails("factory-throws.ts", /adapter factory \(export "default"\) failed: Error: connect ECONNREFUSED/));
  it("a factory that returns nothing", () =>
    fails("factory-returns-nothing.ts", /produced undefined; expected an adapter object/));
});
