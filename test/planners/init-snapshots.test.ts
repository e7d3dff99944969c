/**
 * init's whole plan for every framework × storage, as one file per pair
 * under test/planners/__snapshots__/: every path and every byte it would
 * write, secrets and this checkout's path masked. A change to any generated
 * file shows in review as a change here. After an intended change:
 *
 *   npm run test:snapshots -- -u
 */
import { cpSync, existsSync, mkdirSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
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
): Promise<string> {
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
  const files = planned.changes
    .map((c) => ({ path: relative(dir, c.path), text: masked(c.after) }))
    .sort((a, b) => a.path.localeCompare(b.path));
  return files.map((f) => `=== ${f.path}\n${f.text}${f.text.endsWith("\n") ? "" : "\n"}`).join("\n");
}

describe("init's plan, whole, per framework × storage", () => {
  const pairs = frameworkIds.flatMap((f) => storageModules.map((s) => [f, s.id] as const));
  it.each(pairs)("%s × %s", async (framework, storage) => {
    await expect(await plan(framework, storage)).toMatchFileSnapshot(`__snapshots__/init/${framework}-${storage}.txt`);
  });
  // The rotation lives in the config's callbacks and events and token-rotation.ts: each framework's whole plan with it.
  it.each(frameworkIds)("%s × sqlite, --refresh-tokens --federated-logout", async (framework) => {
    await expect(await plan(framework, "sqlite", "tokens")).toMatchFileSnapshot(
      `__snapshots__/init/${framework}-sqlite-tokens.txt`,
    );
  });
  // Two-factor sign-in: its modules beside the adapter, the config's signIn callback, and the framework's mount.
  it.each(frameworkIds)("%s × sqlite, --providers credentials --two-factor totp", async (framework) => {
    await expect(await plan(framework, "sqlite", "two-factor")).toMatchFileSnapshot(
      `__snapshots__/init/${framework}-sqlite-two-factor.txt`,
    );
  });
  // Two-factor over an ORM: its models or tables beside the auth ones, and the store over the ORM's client.
  it.each(["prisma", "drizzle"])("next × %s, --providers credentials --two-factor totp", async (storage) => {
    await expect(await plan("next", storage, "two-factor")).toMatchFileSnapshot(
      `__snapshots__/init/next-${storage}-two-factor.txt`,
    );
  });
  // An app of another major whose wiring differs from the first's (Nitro 2's h3 1 route and middleware).
  const otherMajors = [{ framework: "nitro", app: "nitro-2" }];
  it.each(otherMajors)("$app (as $framework) × sqlite", async ({ framework, app }) => {
    await expect(await plan(framework, "sqlite", "plain", app)).toMatchFileSnapshot(
      `__snapshots__/init/${app}-sqlite.txt`,
    );
  });
});
