/**
 * add-provider credentials --two-factor totp: the two-factor modules beside
 * the adapter create-auth init wrote (the storage's store for it, found by
 * what is in that folder: the SQL backends' schema.<dialect>.sql, or the
 * in-memory adapter), the schema's two tables appended where the schema file
 * lacks them (`npm run db:migrate` makes them), and the config's signIn
 * callback. Refused, before anything is written, where there is no such
 * adapter or its store is not written yet (Prisma, Drizzle, a skeleton).
 */
import { join, posix } from "node:path";
import { twoFactorFiles, twoFactorModulePath, twoFactorPagesPath } from "../families/two-factor.js";
import type { FrameworkModule } from "../frameworks/framework.js";
import { twoFactorMountStep } from "../frameworks/two-factor-route.js";
import { UsageError } from "../lib/errors.js";
import { posixRelative } from "../lib/posix-path.js";
import type { FilesPart } from "../render/parts.js";
import {
  type FoundTwoFactorStore,
  findTwoFactorStore,
  schemaWithTwoFactor,
  twoFactorStoreFile,
} from "../storage/two-factor.js";
import type { ThrottleSetup } from "./provider-throttle.js";

export interface TwoFactorSetup {
  /** The adapter's folder, from the project's root. */
  authDir: string;
  store: FoundTwoFactorStore;
}

/** Where the two-factor modules go and which store they keep their state in; refuses what is not supported. */
export function findTwoFactorSetup(
  root: string,
  setup: ThrottleSetup | undefined,
  nextAuthV4: boolean,
): TwoFactorSetup {
  if (nextAuthV4)
    throw new UsageError(
      "--two-factor totp: the generated two-factor sign-in needs next-auth v5; run create-auth upgrade first. Nothing was written.",
    );
  if (!setup)
    throw new UsageError(
      "--two-factor totp: no adapter of create-auth init was found beside your config (two-factor keeps its state through it); run create-auth init first. Nothing was written.",
    );
  const authDir = posixRelative(root, setup.authDir);
  const store = findTwoFactorStore(setup.authDir);
  if (store) return { authDir, store };
  throw new UsageError(
    `--two-factor totp: the store of two-factor sign-in is written for create-auth's SQL backends and memory, not for ${join(authDir, "adapter.ts")} yet (Prisma, Drizzle and skeleton adapters). Nothing was written.`,
  );
}

/** The files to write where missing, the schema's tables, the config's callback; and what the user must do. */
export async function twoFactorPart(request: {
  root: string;
  setup: TwoFactorSetup;
  ext: "" | ".js";
  configPath: string;
  configText: string;
  framework: FrameworkModule;
  providerId: string;
  /** The provider counts its attempts through throttle.ts (written by this plan or before): codes count there too. */
  throttle: boolean;
}): Promise<{ part: FilesPart; configText: string; notices: string[] }> {
  const { root, setup, ext } = request;
  const notices: string[] = [];
  const files = await twoFactorFiles({
    authDir: setup.authDir,
    ext,
    configPath: posixRelative(root, request.configPath),
    basePath: request.framework.basePath,
    providerId: request.providerId,
    framework: request.framework.title,
    throttle: request.throttle,
  });
  const store = await twoFactorStoreFile(setup.store, setup.authDir, ext);
  const schema = await schemaWithTwoFactor(setup.store, root, setup.authDir);
  if (schema) notices.push("Create the two-factor tables (safe to repeat): npm run db:migrate");
  // A module of an earlier run is kept as it is (it may have been edited).
  const part: FilesPart = { ifMissing: [...files, store], edits: schema ? [schema] : [] };
  const { addCallbackToConfig } = await import("../ast/insert-callback.js");
  const from = posix.relative(
    posix.dirname(posixRelative(root, request.configPath)),
    twoFactorModulePath(setup.authDir),
  );
  const specifier = `${from.startsWith(".") ? from : `./${from}`}`.replace(/\.ts$/, ext);
  const edit = addCallbackToConfig(
    request.configText,
    { key: "signIn", value: "twoFactorSignIn", imports: [{ from: specifier, named: ["twoFactorSignIn"] }] },
    request.configPath,
  );
  if (edit.status === "refused")
    notices.push(
      `Add the two-factor signIn callback to ${posixRelative(root, request.configPath)} yourself (${edit.reason}): import { twoFactorSignIn } from "${specifier}" and set callbacks.signIn to it. Until then a password sign-in of a user with two-factor on signs in as no one.`,
    );
  notices.push(...twoFactorMountStep("your app", twoFactorPagesPath(setup.authDir)));
  return { part, configText: edit.status === "refused" ? request.configText : edit.text, notices };
}
