/**
 * Each command's options are written once, in its options table: commander's
 * flags and arguments, the zod schema, the CI error's list and the prompts
 * all come from it, and nothing in the command's file defines an option
 * another way.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { Command } from "commander";
import { describe, expect, it } from "vitest";
import { builtinProviders } from "../../src/catalog/builtin-providers.js";
import * as addProvider from "../../src/commands/add-provider.js";
import { addProviderOptions, providerFlagKeys } from "../../src/commands/add-provider-options.js";
import * as doctor from "../../src/commands/doctor.js";
import { doctorOptions } from "../../src/commands/doctor.js";
import * as init from "../../src/commands/init.js";
import { initOptions, requiredInCi } from "../../src/commands/init-options.js";
import * as migrate from "../../src/commands/migrate.js";
import { migrateOptions } from "../../src/commands/migrate.js";
import * as upgrade from "../../src/commands/upgrade.js";
import { upgradeOptions } from "../../src/commands/upgrade.js";
import * as verifyAdapter from "../../src/commands/verify-adapter.js";
import { verifyAdapterOptions } from "../../src/commands/verify-adapter.js";
import { kindCatalog } from "../../src/families/registry.js";
import { twoFactorOption } from "../../src/families/two-factor.js";
import { type CommandOptions, keyOf, longFlag, type OptionRow, questionOf } from "../../src/lib/command-options.js";
import { type Io, processIo } from "../../src/lib/io.js";
import { root } from "../helpers.js";

type AnyTable = CommandOptions<Record<string, OptionRow>>;
type Configure = (command: Command, setExitCode: (code: number) => void, io: Io) => void;

const commands: { name: string; table: AnyTable; configure: Configure; files: string[] }[] = [
  {
    name: "init",
    table: initOptions as unknown as AnyTable,
    configure: init.configure,
    files: ["init.ts", "init-options.ts", "init-storage.ts"],
  },
  {
    name: "migrate",
    table: migrateOptions as unknown as AnyTable,
    configure: migrate.configure,
    files: ["migrate.ts"],
  },
  {
    name: "upgrade",
    table: upgradeOptions as unknown as AnyTable,
    configure: upgrade.configure,
    files: ["upgrade.ts"],
  },
  {
    name: "add-provider",
    table: addProviderOptions as unknown as AnyTable,
    configure: addProvider.configure,
    files: ["add-provider.ts", "add-provider-options.ts"],
  },
  { name: "doctor", table: doctorOptions as unknown as AnyTable, configure: doctor.configure, files: ["doctor.ts"] },
  {
    name: "verify-adapter",
    table: verifyAdapterOptions as unknown as AnyTable,
    configure: verifyAdapter.configure,
    files: ["verify-adapter.ts"],
  },
];

function configured(name: string, configure: Configure): Command {
  const command = new Command(name);
  configure(command, () => {}, processIo());
  return command;
}

describe.each(commands)("$name's options table", ({ name, table, configure, files }) => {
  it("gives commander every flag and argument, and nothing else", () => {
    const command = configured(name, configure);
    const rows = Object.values(table.rows);
    expect(command.options.map((o) => o.flags).sort()).toEqual(
      rows.flatMap((r) => [r.flag, r.negation].filter((f) => f !== undefined)).sort(),
    );
    expect(command.registeredArguments.map((a) => a.name())).toEqual(
      rows.flatMap((r) => (r.argument ? [keyOf(r)] : [])),
    );
    for (const option of command.options) {
      const row = table.rows[option.attributeName()] as OptionRow | undefined;
      if (option.flags === row?.negation)
        expect(option.description).toBe(`not ${row?.flag}, and not asked in a terminal`);
      else expect(row?.description).toBe(option.description);
    }
  });

  it("is the zod schema's every key", () => {
    expect(Object.keys(table.schema.shape).sort()).toEqual(Object.keys(table.rows).sort());
  });

  it("is the only place the command defines an option", () => {
    for (const file of files) {
      const text = readFileSync(join(root, "src/commands", file), "utf8");
      expect(text, file).not.toMatch(/\.(?:option|argument|requiredOption)\(/);
      expect(text, file).not.toMatch(/\bz\.object\(/);
    }
  });
});

describe("init's questions", () => {
  it("are the rows with a question, and CI needs exactly those with a --yes answer", () => {
    const asked = Object.entries(initOptions.rows as Record<string, OptionRow>)
      .filter(([, row]) => row.question && !row.question.later)
      .map(([key]) => key);
    expect(initOptions.asked).toEqual(asked);
    expect(requiredInCi).toEqual(asked.filter((k) => k in initOptions.fallbacks));
    expect(requiredInCi).toEqual(["providers", "backend", "schema", "session"]);
  });

  it("the session question offers database sessions only when no provider signs in with a password", () => {
    const offered = (providers: unknown) =>
      initOptions.rows.session.question
        .choices({ framework: { id: "none", reason: "" }, orm: { id: undefined, reason: "" }, answers: { providers } })
        .map((c) => c.value);
    expect(offered(["email", "github"])).toEqual(["jwt", "database"]);
    expect(offered(undefined)).toEqual(["jwt", "database"]);
    // From the providers question (a list) or from --providers (the raw comma text).
    expect(offered(["email", "credentials"])).toEqual(["jwt"]);
    expect(offered("github, credentials")).toEqual(["jwt"]);
  });

  it("a missing answer in CI names the flags from the table", async () => {
    const { runInit } = await import("../../src/commands/init.js");
    const { capturedIo, tempDir } = await import("../helpers.js");
    const { io } = capturedIo(tempDir("create-auth-ci-"));
    await expect(runInit({}, { ...io, interactive: false })).rejects.toThrow(
      `init needs ${requiredInCi.map((k) => `--${k}`).join(", ")}`,
    );
  });
});

describe("add-provider's table", () => {
  it("has a row for every flag of every provider family and built-in, with that flag", () => {
    const options = [...kindCatalog.flatMap((k) => k.options), ...builtinProviders.flatMap((p) => p.options ?? [])];
    expect(options.length).toBeGreaterThan(10);
    for (const option of options) {
      expect(providerFlagKeys).toContain(option.key);
      expect((addProviderOptions.rows as Record<string, OptionRow>)[option.key]?.flag).toBe(option.flag);
    }
    // The command's own rows are not provider flags.
    expect(providerFlagKeys).not.toContain("config");
    expect(providerFlagKeys).not.toContain("provider");
  });

  it("asks only for the provider, the one thing CI must give", async () => {
    expect(addProviderOptions.asked).toEqual(["provider"]);
    const { runAddProvider } = await import("../../src/commands/add-provider.js");
    const { capturedIo, tempDir } = await import("../helpers.js");
    const { io } = capturedIo(tempDir("create-auth-ci-"));
    await expect(runAddProvider({}, { ...io, interactive: false })).rejects.toThrow("Missing the provider.");
  });

  it("collects a provider's flags for its own schema: a bad value is the provider's error", async () => {
    const { runAddProvider } = await import("../../src/commands/add-provider.js");
    const { capturedIo, tempDir } = await import("../helpers.js");
    const { io } = capturedIo(tempDir("create-auth-ci-"));
    await expect(
      runAddProvider({ provider: "social", apiVersion: "five" }, { ...io, interactive: false }),
    ).rejects.toThrow(/--api-version/);
  });
});

describe("the token flags", () => {
  it("are one pair of rows in init's and add-provider's tables: booleans, with a --no- form", () => {
    for (const key of ["refreshTokens", "federatedLogout"] as const) {
      expect(initOptions.rows[key]).toBe(addProviderOptions.rows[key]);
      for (const table of [initOptions, addProviderOptions] as CommandOptions<Record<string, OptionRow>>[]) {
        expect(table.parse({ [key]: true })[key]).toBe(true);
        expect(table.parse({ [key]: false })[key]).toBe(false);
        expect(table.parse({})[key]).toBeUndefined();
      }
    }
    for (const name of ["init", "add-provider"]) {
      const command = configured(name, name === "init" ? init.configure : addProvider.configure);
      const flags = command.options.map((o) => o.long);
      expect(flags, name).toEqual(expect.arrayContaining(["--refresh-tokens", "--no-refresh-tokens"]));
      expect(flags, name).toEqual(expect.arrayContaining(["--federated-logout", "--no-federated-logout"]));
    }
  });

  it("ask one question each, on their row, once the providers are known: never among the first, never required in CI", () => {
    for (const key of ["refreshTokens", "federatedLogout"] as const) {
      const { question } = initOptions.rows[key];
      expect(question.later).toBe(true);
      expect(question.message).toContain(longFlag(initOptions.rows[key]));
      expect(question.choices?.(undefined).map((c) => c.value)).toEqual(["no", "yes"]);
      expect(question.initial?.(undefined)).toBe("no");
      for (const table of [initOptions, addProviderOptions] as CommandOptions<Record<string, OptionRow>>[])
        expect(table.asked).not.toContain(key);
    }
  });
});

describe("a provider's option", () => {
  it("is a row of the same table type, whose question its description, values and fallback make", () => {
    const question = questionOf(twoFactorOption);
    expect(question.message).toBe(`${twoFactorOption.description} (--two-factor)`);
    expect(question.choices?.(undefined)).toEqual([
      { value: "none", label: "none", hint: twoFactorOption.hints!.none },
      { value: "totp", label: "totp", hint: twoFactorOption.hints!.totp },
    ]);
    expect(question.initial?.(undefined)).toBe("none");
    expect(keyOf(twoFactorOption)).toBe(twoFactorOption.key);
  });

  it("without values asks for a typed answer, its fallback the placeholder", () => {
    const maxAge = kindCatalog.find((k) => k.kind === "email")!.options.find((o) => o.key === "maxAge")!;
    const question = questionOf(maxAge);
    expect(question.choices).toBeUndefined();
    expect(question.initial?.(undefined)).toBe("86400");
  });

  it("keeps a row's own question", () => {
    expect(questionOf(initOptions.rows.backend)).toBe(initOptions.rows.backend.question);
  });
});
