import { describe, expect, it } from "vitest";
import { compareVersions, inRange, parseRange, parseVersion, raiseSpec, specFloor } from "../../src/lib/semver.js";

describe("versions", () => {
  it("orders releases, prereleases below their release, numeric identifiers as numbers", () => {
    const sorted = ["5.0.0", "5.0.0-beta.32", "4.24.15", "5.0.0-beta.4", "0.41.3", "5.0.0-alpha.1", "4.24.5"].sort(
      compareVersions,
    );
    expect(sorted).toEqual(["0.41.3", "4.24.5", "4.24.15", "5.0.0-alpha.1", "5.0.0-beta.4", "5.0.0-beta.32", "5.0.0"]);
    expect(compareVersions("1.2.3+build.5", "1.2.3")).toBe(0);
    expect(parseVersion("4.24")).toBeUndefined();
    expect(() => compareVersions("latest", "1.0.0")).toThrow(/not a version: latest/);
  });

  it("tests advisory ranges, betas included by order", () => {
    expect(inRange("5.0.0-beta.29", ">=5.0.0-beta.0 <5.0.0-beta.32")).toBe(true);
    expect(inRange("5.0.0-beta.32", ">=5.0.0-beta.0 <5.0.0-beta.32")).toBe(false);
    expect(inRange("4.24.14", "<4.24.15")).toBe(true);
    expect(inRange("5.0.0-beta.1", "<4.24.15")).toBe(false);
    expect(inRange("0.41.2", ">=0.1.0 <=0.41.2")).toBe(true);
    expect(inRange("not-a-version", "<1.0.0")).toBe(false);
    expect(() => parseRange(">=4 <5")).toThrow(/not a version/);
    expect(() => parseRange("  ")).toThrow(/empty range/);
  });

  it("reads the floor of a package.json spec, undefined where it cannot tell", () => {
    expect(specFloor("^4.24.5")).toBe("4.24.5");
    expect(specFloor("~0.41.0")).toBe("0.41.0");
    expect(specFloor("5.0.0-beta.29")).toBe("5.0.0-beta.29");
    expect(specFloor(">= 4.24.0")).toBe("4.24.0");
    expect(specFloor("4.x")).toBe("4.0.0");
    expect(specFloor("^4")).toBe("4.0.0");
    expect(specFloor("npm:next-auth@^4.24.7")).toBe("4.24.7");
    for (const spec of ["latest", "*", "", "workspace:*", "^4 || ^5", "<5", "https://example.com/x.tgz", "4.0.0 - 5"])
      expect(specFloor(spec), spec).toBeUndefined();
  });

  it("raises a spec keeping its operator", () => {
    expect(raiseSpec("^4.24.5", "4.24.15")).toBe("^4.24.15");
    expect(raiseSpec("~0.41.0", "0.41.3")).toBe("~0.41.3");
    expect(raiseSpec("4.24.11", "4.24.15")).toBe("4.24.15");
    expect(raiseSpec("=4.24.11", "4.24.15")).toBe("=4.24.15");
    expect(raiseSpec(">=5.0.0-beta.20", "5.0.0-beta.32")).toBe(">=5.0.0-beta.32");
    expect(raiseSpec("4.x", "4.24.15")).toBe("^4.24.15");
    expect(raiseSpec("npm:next-auth@4.24.11", "4.24.15")).toBe("npm:next-auth@4.24.15");
    expect(raiseSpec("latest", "4.24.15")).toBeUndefined();
    expect(raiseSpec("^4 || ^5", "4.24.15")).toBeUndefined();
  });
});
