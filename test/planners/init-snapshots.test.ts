/**
 * init's whole plan for every framework × storage, with and without token
 * rotation and two-factor sign-in: every path and every byte it would write,
 * secrets and this checkout's path masked. A tree is a manifest under
 * test/planners/__snapshots__/init/ (each path beside the name of its
 * contents) and each distinct file's contents is kept once, in files/, named
 * by its file name and a hash of its bytes: one template line changes one
 * file there (git shows it as a rename with the changed line) and the line
 * of each manifest that names it, instead of rewriting dozens of whole trees.
 * After an intended change:
 *
 *   npm run test:snapshots -- -u     (also removes contents no manifest names any more)
 */
import { createHash } from "node:crypto";
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync } from "node:fs";
import { basename, join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import { parseResolved, resolveProviderName } from "../../src/families/index.js";
import { chosenFramework, frameworkIds } from "../../src/frameworks/registry.js";
import { planInit } from "../../src/planners/init-plan.js";
import { storageModules } from "../../src/storage/registry.js";
import { ProjectView } from "../../src/workspace/project-view.js";
import { root, tempDir } from "../helpers.js";

/** The starter app of a framework the browser layer uses (or the app named), else an empty folder. */
function projectFor(framework: string, appName?: string): string {
  // A fixed folder name: a new package.json is named after it.
  const dir = join(tempDir(`create-auth-snapshot-${framework}-`), "app");
  // Its own name, else the first of its versions ("react-router-7").
  const apps = readdirSync(join(root, "fixtures/apps")).sort();
  const name = appName ?? apps.find((a) => a === framework) ?? apps.find((a) => a.startsWith(`${framework}-`));
  const app = name && join(root, "fixtures/apps", name);
  if (app && existsSync(app)) cpSync(app, dir, { recursive: true });
  else mkdirSync(dir, { recursive: true });
  return dir;
}

/** `root` ends in a separator; the dependency on this checkout does not. */
const checkout = root.replace(/[\\/]+$/, "");
const masked = (text: string) =>
  text.replace(/^(AUTH_SECRET=).+$/m, "$1<secret>").replaceAll(`file:${checkout}`, "file:<create-auth>");

/** --refresh-tokens --federated-logout with an OpenID provider that offers both. */
const tokens = {
  providers: { credentials: {}, keycloak: { issuer: "https://sso.example.com/realms/main" } },
  choice: { refresh: true, federatedLogout: true },
};

/** --providers credentials --two-factor totp: the two-factor modules, the store and the framework's route. */
const twoFactor = { credentials: { twoFactor: "totp" } };

async function plan(
  framework: string,
  storageId: string,
  variant: "plain" | "tokens" | "two-factor" = "plain",
  app?: string,
): Promise<{ path: string; text: string }[]> {
  const withTokens = variant === "tokens";
  const dir = projectFor(framework, app);
  const project = new ProjectView(dir);
  const storage = storageModules.find((s) => s.id === storageId)!;
  const named: Record<string, Record<string, unknown>> = withTokens
    ? tokens.providers
    : variant === "two-factor"
      ? twoFactor
      : { credentials: {}, email: {}, github: {} };
  const providers = Object.entries(named).map(([n, o]) => parseResolved(resolveProviderName(n), o));
  const planned = await planInit({
    ...(withTokens ? { tokens: tokens.choice, postLogoutRedirectUri: "http://localhost:3000/" } : {}),
    root: dir,
    project,
    providers,
    session: variant === "two-factor" ? "jwt" : "database",
    force: false,
    framework: chosenFramework(project, framework),
    storage: {
      module: storage,
      facts: storage.detect?.(project)?.facts ?? storage.assume(project),
      dialect: storage.dialect ?? "postgres",
      schema: storage.chosenBy === "orm" ? (storage.id as "prisma" | "drizzle") : "sql",
    },
  });
  said.push(...planned.notices, ...planned.manualSteps, ...planned.snippets.flatMap((snippet) => snippet.steps));
  return planned.changes
    .map((c) => ({ path: relative(dir, c.path), text: masked(c.after) }))
    .sort((a, b) => a.path.localeCompare(b.path));
}

const snapshots = join(root, "test/planners/__snapshots__/init");
/** Every file this run generated, by its contents' name, and how many trees were recorded. */
const generated = new Map<string, { path: string; text: string }>();
/** What the plans tell the user beside the files: notices and next steps. */
const said: string[] = [];
let recorded = 0;
const treeCount = () => pairs.length + 2 * frameworkIds.length + ormTwoFactor.length + otherMajors.length;
const pairs = frameworkIds.flatMap((f) => storageModules.map((s) => [f, s.id] as const));
// An app of another major whose wiring differs from the first's (Nitro 2's h3 1 route and middleware).
const otherMajors = [{ framework: "nitro", app: "nitro-2" }];
const ormTwoFactor = ["prisma", "drizzle"];

/** The name contents are kept under: the file's own name and the start of its bytes' hash. */
const contentsName = (path: string, text: string) =>
  `${basename(path)}-${createHash("sha256").update(text).digest("hex").slice(0, 12)}.txt`;

/** A tree as its manifest, and each of its files' contents once under files/. */
async function record(tree: string, files: { path: string; text: string }[]) {
  const lines = files.map((f) => {
    const name = contentsName(f.path, f.text);
    generated.set(name, f);
    return `${f.path}  ${name}\n`;
  });
  await expect(lines.join("")).toMatchFileSnapshot(`__snapshots__/init/${tree}.txt`);
  for (const f of files)
    await expect(f.text).toMatchFileSnapshot(`__snapshots__/init/files/${contentsName(f.path, f.text)}`);
  recorded++;
}

describe("init's plan, whole, per framework × storage", () => {
  it.each(pairs)("%s × %s", async (framework, storage) => {
    await record(`${framework}-${storage}`, await plan(framework, storage));
  });
  // The rotation lives in the config's callbacks and events and token-rotation.ts: each framework's whole plan with it.
  it.each(frameworkIds)("%s × sqlite, --refresh-tokens --federated-logout", async (framework) => {
    await record(`${framework}-sqlite-tokens`, await plan(framework, "sqlite", "tokens"));
  });
  // Two-factor sign-in: its modules beside the adapter, the config's signIn callback, and the framework's mount.
  it.each(frameworkIds)("%s × sqlite, --providers credentials --two-factor totp", async (framework) => {
    await record(`${framework}-sqlite-two-factor`, await plan(framework, "sqlite", "two-factor"));
  });
  // Two-factor over an ORM: its models or tables beside the auth ones, and the store over the ORM's client.
  it.each(ormTwoFactor)("next × %s, --providers credentials --two-factor totp", async (storage) => {
    await record(`next-${storage}-two-factor`, await plan("next", storage, "two-factor"));
  });
  it.each(otherMajors)("$app (as $framework) × sqlite", async ({ framework, app }) => {
    await record(`${app}-sqlite`, await plan(framework, "sqlite", "plain", app));
  });

  it("keeps no contents that no tree names, nor a manifest of a tree it no longer plans", (context) => {
    const trees = treeCount();
    // Only a run of every tree knows what is no longer named (a run filtered with -t records fewer).
    if (recorded !== trees) return context.skip();
    const manifests = readdirSync(snapshots).filter((n) => n.endsWith(".txt"));
    const orphans = [
      ...readdirSync(join(snapshots, "files"))
        .filter((n) => !generated.has(n))
        .map((n) => join("files", n)),
      ...(manifests.length === trees ? [] : manifests.filter((n) => !isPlanned(n, pairs, otherMajors))),
    ];
    // vitest keeps whether -u was given on the snapshot state, not in the worker's argv.
    const updating = (expect.getState().snapshotState as unknown as { _updateSnapshot: string })._updateSnapshot;
    if (updating === "all") {
      for (const orphan of orphans) rmSync(join(snapshots, orphan));
      expect(readdirSync(join(snapshots, "files")).filter((n) => !generated.has(n))).toEqual([]);
    } else expect(orphans, "left over from an earlier plan: remove them with npm run test:snapshots -- -u").toEqual([]);
  });
});

/** Whether a manifest's file name is one of the trees this file plans. */
function isPlanned(name: string, pairs: readonly (readonly [string, string])[], others: { app: string }[]): boolean {
  const tree = name.slice(0, -".txt".length);
  return (
    pairs.some(([f, s]) => tree === `${f}-${s}`) ||
    frameworkIds.some((f) => tree === `${f}-sqlite-tokens` || tree === `${f}-sqlite-two-factor`) ||
    ormTwoFactor.some((s) => tree === `next-${s}-two-factor`) ||
    others.some((o) => tree === `${o.app}-sqlite`)
  );
}

describe("what the generated files say", () => {
  // Every file the trees above generated, as this run generated it (the kept contents are written only after the run).
  const everyFile = (context: { skip(): void }) => {
    if (recorded !== treeCount()) context.skip();
    return [...generated.values()];
  };

  it("points nowhere the user cannot see: not at create-auth's README, not at the contract's sections", (context) => {
    const files = everyFile(context);
    expect(files.length).toBeGreaterThan(100);
    for (const { path, text } of files) {
      expect(text, path).not.toMatch(/\bREADME\b/);
      // An RFC's section is the user's to look up; the adapter contract's numbering is this project's own.
      expect(text.replace(/RFC \d+ §[\d.]+/g, ""), path).not.toMatch(/§/);
    }
    // Nor what init prints beside them.
    expect(said.length).toBeGreaterThan(100);
    for (const line of said) expect(line).not.toMatch(/\bREADME\b|§/);
  });

  it("has a JavaScript form in every TypeScript file (a JavaScript project gets them with their types erased)", async (context) => {
    const { stripTypes } = await import("../../src/ast/strip-types.js");
    const typescript = everyFile(context).filter((f) => /\.tsx?$/.test(f.path));
    expect(typescript.length).toBeGreaterThan(50);
    for (const { path, text } of typescript) expect(() => stripTypes(text, path), path).not.toThrow();
  });
});
