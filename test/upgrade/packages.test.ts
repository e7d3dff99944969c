/**
 * The versions upgrade writes for next-auth 5 and the swapped adapters: the
 * newest release whose peers the project satisfies, read from the lockfile
 * (what installs) or package.json's range; a driver no release made for
 * next-auth 5 takes is raised, with a note; one past every release is a
 * refusal. Every swapped adapter with peers goes through the same check.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { v5Releases } from "../../src/catalog/next-auth-5-releases.js";
import { planPackages } from "../../src/planners/upgrade/packages.js";
import { satisfies } from "../../src/planners/upgrade/version-range.js";
import { tempDir } from "../helpers.js";

function project(dependencies: Record<string, string>, lock?: Record<string, string>): string {
  const dir = tempDir("create-auth-upgrade-packages-");
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ name: "app", dependencies }, null, 2)}\n`);
  if (lock)
    writeFileSync(
      join(dir, "package-lock.json"),
      JSON.stringify({
        lockfileVersion: 3,
        packages: Object.fromEntries(
          Object.entries(lock).map(([name, version]) => [`node_modules/${name}`, { version }]),
        ),
      }),
    );
  return dir;
}

async function plan(dependencies: Record<string, string>, lock?: Record<string, string>) {
  const dir = project(dependencies, lock);
  const { readFileSync } = await import("node:fs");
  const result = await planPackages(dir, readFileSync(join(dir, "package.json"), "utf8"));
  if (result.status === "refused") return result;
  return {
    ...result,
    dependencies: (JSON.parse(result.text) as { dependencies: Record<string, string> }).dependencies,
  };
}

/** The lowest version a range's first alternative names: "^12.0.0 || ^13.0.0" → 12.0.0, "^6" → 6.0.0. */
const lowest = (range: string) => {
  const [major, minor = "0", patch = "0"] = /\d+(?:\.\d+){0,2}/.exec(range)![0].split(".");
  return `${major}.${minor}.${patch}`;
};

const v4 = { next: "14.2.35", react: "18.3.1", "next-auth": "^4.24.11" };

describe("the packages upgrade swaps in fit the project's peers", () => {
  it("mongodb 5: no MongoDB adapter made for next-auth 5 takes it, so mongodb is raised to 6, with a note", async () => {
    const result = await plan({ ...v4, "@next-auth/mongodb-adapter": "^1.1.3", mongodb: "^5.9.2" });
    expect(result).toMatchObject({
      status: "planned",
      dependencies: { "@auth/mongodb-adapter": "3.11.3", mongodb: "^6.0.0", "next-auth": "5.0.0-beta.32" },
    });
    expect("notes" in result && result.notes).toContain(
      "mongodb goes from ^5.9.2 to ^6.0.0 in package.json: @auth/mongodb-adapter 3.11.3 needs mongodb ^6, and no release of it made for next-auth 5 takes ^5.9.2. Check the app's own uses of mongodb against its release notes.",
    );
  });

  it("the lockfile's version is what counts: mongodb 6 locked under a wide range fits as it is", async () => {
    const result = await plan({ ...v4, "@next-auth/mongodb-adapter": "^1.1.3", mongodb: ">=5" }, { mongodb: "6.12.0" });
    expect(result).toMatchObject({ dependencies: { mongodb: ">=5", "@auth/mongodb-adapter": "3.11.3" } });
    expect("notes" in result && result.notes).toEqual([
      "@next-auth/mongodb-adapter is now @auth/mongodb-adapter (its imports too).",
    ]);
  });

  it("firebase-admin 11: the newest Firestore adapter that takes it, its driver left alone", async () => {
    const result = await plan(
      { ...v4, "@next-auth/firebase-adapter": "^2.0.1", "firebase-admin": "^11.11.1" },
      { "firebase-admin": "11.11.1" },
    );
    expect(result).toMatchObject({ dependencies: { "@auth/firebase-adapter": "2.4.2", "firebase-admin": "^11.11.1" } });
    expect("notes" in result && result.notes).toEqual([
      "@next-auth/firebase-adapter is now @auth/firebase-adapter 2.4.2 (its imports too): the newest release that takes the project's firebase-admin 11.11.1 (later ones need firebase-admin ^12.0.0 || ^13.0.0).",
    ]);
  });

  it("next-auth 5's own peers: nodemailer 6, which v4's email sign-in used, goes to 7", async () => {
    const result = await plan({ ...v4, nodemailer: "^6.9.16" });
    expect(result).toMatchObject({ dependencies: { nodemailer: "^7.0.7", "next-auth": "5.0.0-beta.32" } });
  });

  it("a copy installed in a folder above the project counts for nothing (npm resolves in the project), its own copy does", async () => {
    const { mkdirSync } = await import("node:fs");
    const outer = tempDir("create-auth-upgrade-outer-");
    const install = (dir: string, version: string) => {
      mkdirSync(join(dir, "node_modules/nodemailer"), { recursive: true });
      writeFileSync(join(dir, "node_modules/nodemailer/package.json"), JSON.stringify({ name: "nodemailer", version }));
    };
    const nodemailer = async (range: string, own?: string) => {
      const dir = join(outer, `app-${own ?? "bare"}`);
      mkdirSync(dir);
      const text = `${JSON.stringify({ name: "app", dependencies: { ...v4, nodemailer: range } })}\n`;
      writeFileSync(join(dir, "package.json"), text);
      if (own) install(dir, own);
      const result = await planPackages(dir, text);
      return result.status === "planned" ? (JSON.parse(result.text).dependencies.nodemailer as string) : result.reason;
    };
    install(outer, "8.0.11");
    expect(await nodemailer("^6.9.16")).toBe("^7.0.7");
    expect(await nodemailer(">=6", "6.10.1")).toBe("^7.0.7");
    expect(await nodemailer(">=6", "7.0.9")).toBe(">=6");
  });

  it("a driver newer than any release takes is refused before anything is written", async () => {
    const result = await plan({ ...v4, "@next-auth/mongodb-adapter": "^1.1.3", mongodb: "^7.0.0" });
    expect(result).toEqual({
      status: "refused",
      reason:
        "@auth/mongodb-adapter 3.11.3 needs mongodb ^6, and the project has ^7.0.0, newer than any release of @auth/mongodb-adapter made for next-auth 5 takes.",
    });
  });

  it("a range it cannot read (a tag, a link) is the user's choice and is left alone", async () => {
    const result = await plan({ ...v4, "@next-auth/mongodb-adapter": "^1.1.3", mongodb: "latest" });
    expect(result).toMatchObject({ dependencies: { mongodb: "latest", "@auth/mongodb-adapter": "3.11.3" } });
  });

  it("every adapter upgrade swaps in: a project at the lowest drivers any listed release takes gets a release that takes them, unraised", async () => {
    for (const [name, releases] of Object.entries(v5Releases)) {
      if (name === "next-auth") continue;
      const old = `@next-auth/${name.slice("@auth/".length)}`;
      for (const release of releases) {
        // Each required peer at the lowest version the release's range names, as the lockfile has it.
        const drivers = Object.fromEntries(
          Object.entries(release.peers)
            .filter(([peer]) => !release.optional?.includes(peer))
            .map(([peer, range]) => [peer, lowest(range)]),
        );
        const result = await plan({ ...v4, [old]: "^1.0.0", ...drivers }, drivers);
        const where = `${name} with ${JSON.stringify(drivers)}`;
        if (result.status === "refused") throw new Error(`${where}: ${result.reason}`);
        const chosen = releases.find((r) => r.version === result.dependencies[name]);
        expect(chosen, where).toBeDefined();
        expect(releases.indexOf(chosen!), where).toBeLessThanOrEqual(releases.indexOf(release));
        for (const [peer, version] of Object.entries(drivers)) {
          expect(result.dependencies[peer], where).toBe(version);
          expect(satisfies(version, chosen!.peers[peer] ?? "*"), `${where}: ${peer}`).toBe(true);
        }
      }
    }
  });
});
