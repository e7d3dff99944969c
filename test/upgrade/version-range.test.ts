// npm's range forms the peer check reads, each against versions on both sides of its edges.
import { describe, expect, it } from "vitest";
import { intersects, raisedRange, satisfies } from "../../src/planners/upgrade/version-range.js";

describe("satisfies", () => {
  it.each([
    ["6.0.0", "^6", true],
    ["5.9.2", "^6", false],
    ["7.0.0", "^6", false],
    ["0.27.6", "^0.28.15", false],
    ["0.28.15", "^0.28.15", true],
    ["0.29.0", "^0.28.15", false],
    ["0.0.3", "^0.0.3", true],
    ["0.0.4", "^0.0.3", false],
    ["5.9.2", "^5 || ^4", true],
    ["4.17.1", "^5 || ^4", true],
    ["13.0.0", "^12.0.0 || ^13.0.0", true],
    ["11.11.1", "^12.0.0 || ^13.0.0", false],
    ["7.10.0", ">=2.26.0 || >=3 || >=4 || >=5 || >=6", true],
    ["2.25.0", ">=2.26.0 || >=3", false],
    ["1.2.9", "~1.2.3", true],
    ["1.3.0", "~1.2.3", false],
    ["1.9.0", "1.x", true],
    ["2.0.0", "1.x", false],
    ["1.2.3", "1.2.3", true],
    ["1.2.4", "=1.2.3", false],
    ["2.5.0", "1.2.3 - 2.5", true],
    ["2.6.0", "1.2.3 - 2.5", false],
    ["1.5.0", ">= 1.2 < 2", true],
    ["2.0.0", ">=1.2 <2", false],
    ["1.3.0", ">1.2", true],
    ["1.2.9", ">1.2", false],
    ["1.2.9", "<=1.2", true],
    ["1.3.0", "<=1.2", false],
    ["14.0.0-canary.1", "^14.0.0-0 || ^15.0.0 || ^16.0.0", true],
    ["13.5.6", "^14.0.0-0 || ^15.0.0 || ^16.0.0", false],
    ["16.0.0-canary.3", "^14.0.0-0 || ^15.0.0", false],
    ["3.0.0", "*", true],
    ["3.0.0", "", true],
  ])("%s in %s: %s", (version, range, expected) => {
    expect(satisfies(version, range)).toBe(expected);
  });

  it("says nothing about what is not a semver range", () => {
    expect(satisfies("1.0.0", "latest")).toBeUndefined();
    expect(satisfies("1.0.0", "workspace:*")).toBeUndefined();
    expect(satisfies("github:user/repo", "^1")).toBeUndefined();
  });
});

describe("intersects", () => {
  it.each([
    ["^5.9.0", "^6", false],
    [">=5", "^6", true],
    ["^0.27.5", "^0.28.15", false],
    ["~0.28.0", "^0.28.15", true],
    ["^12.1.0", "^12.0.0 || ^13.0.0", true],
    ["5.9.2", "^5 || ^4", true],
    ["<6", "^6", false],
  ])("%s and %s: %s", (a, b, expected) => {
    expect(intersects(a, b)).toBe(expected);
  });
});

describe("raisedRange", () => {
  it("is the lowest version the range takes above the current one", () => {
    expect(raisedRange("5.9.2", "^6")).toBe("^6.0.0");
    expect(raisedRange("^5.1.0", "^6")).toBe("^6.0.0");
    expect(raisedRange("0.27.6", "^0.28.15")).toBe("^0.28.15");
    expect(raisedRange("11.11.1", "^12.0.0 || ^13.0.0")).toBe("^12.0.0");
    expect(raisedRange("6.3.0", "^7.0.7 || ^8.0.5")).toBe("^7.0.7");
  });

  it("is nothing when the project is already past the range", () => {
    expect(raisedRange("7.0.0", "^6")).toBeUndefined();
  });
});
