// A copy of an installed fixture app shares its packages with the template, never what npm rewrites in place.
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../helpers.js";
import { copyTemplate } from "./template-copy.js";

function template(): string {
  const dir = tempDir("create-auth-template-");
  mkdirSync(join(dir, "node_modules/next-auth"), { recursive: true });
  writeFileSync(join(dir, "node_modules/next-auth/package.json"), '{ "version": "4.24.11" }\n');
  writeFileSync(join(dir, "node_modules/.package-lock.json"), '{ "next-auth": "4.24.11" }\n');
  writeFileSync(join(dir, "package.json"), '{ "name": "app" }\n');
  writeFileSync(join(dir, ".ready"), "");
  return dir;
}

describe("a copy of an installed app", () => {
  it("links the packages and copies npm's record of them, so an install in the copy leaves the template as it was", async () => {
    const source = template();
    const deferred: Array<() => unknown> = [];
    const copy = await copyTemplate(source, "template-test", (fn) => deferred.push(fn));
    expect(basename(copy)).toMatch(/^create-auth-template-test-/);

    const inode = (dir: string, file: string) => statSync(join(dir, file)).ino;
    expect(inode(copy, "node_modules/next-auth/package.json")).toBe(
      inode(source, "node_modules/next-auth/package.json"),
    );
    expect(inode(copy, "package.json")).not.toBe(inode(source, "package.json"));
    // As npm writes it after an install: the same file, truncated and written again.
    writeFileSync(join(copy, "node_modules/.package-lock.json"), '{ "next-auth": "5.0.0-beta.32" }\n');
    writeFileSync(join(copy, "package.json"), '{ "name": "changed" }\n');

    expect(readFileSync(join(source, "node_modules/.package-lock.json"), "utf8")).toBe('{ "next-auth": "4.24.11" }\n');
    expect(readFileSync(join(source, "package.json"), "utf8")).toBe('{ "name": "app" }\n');
    expect(() => statSync(join(copy, ".ready"))).toThrow();
    for (const fn of deferred) fn();
    expect(existsSync(copy)).toBe(false);
  });
});
