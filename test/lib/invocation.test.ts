import { describe, expect, it } from "vitest";
import { cacheProfile, invokedCommand } from "../../src/lib/invocation.js";

describe("invokedCommand", () => {
  it.each([
    [["add-provider", "social", "--api-version", "5.126"], "add-provider"],
    [["--yes", "init"], "init"],
    [[], "init"], // npm create auth
    [["--yes"], "init"],
    [["--help"], undefined],
    [["-v"], undefined],
    [["verify-adapter", "--help"], "verify-adapter"],
  ])("%j -> %s", (args, expected) => {
    expect(invokedCommand(args)).toBe(expected);
  });
});

describe("cacheProfile", () => {
  it.each([
    [["add-provider", "social"], "add-provider"],
    [[], "init"],
    [["verify-adapter", "./adapter.ts"], "verify-adapter"],
    [["add-provider", "--list"], "other"],
    [["add-provider", "--help"], "other"],
    [["--version"], "other"],
  ])("%j -> %s", (args, expected) => {
    expect(cacheProfile(args)).toBe(expected);
  });
});
