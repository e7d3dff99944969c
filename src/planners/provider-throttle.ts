/**
 * add-provider and the sign-in throttle: a credentials or email provider
 * counts its attempts through throttle.ts beside the adapter init wrote,
 * which needs the adapter's attempt counters and the client-address module
 * of the framework's wiring. Written when missing (a project of an older
 * init); when the adapter has no counters, or there is none of create-auth's,
 * the provider is written without the throttle and the notice says why.
 */
import { join } from "node:path";
import { attemptOperations, throttleFile } from "../families/throttle.js";
import { clientAddressFile } from "../frameworks/client-address.js";
import type { FrameworkModule } from "../frameworks/framework.js";
import { posixRelative } from "../lib/posix-path.js";
import type { FilesPart } from "../render/parts.js";
import { readIfExists } from "../workspace/plan.js";
import { ProjectView } from "../workspace/project-view.js";

export interface ThrottleSetup {
  /** The adapter's folder, absolute. */
  authDir: string;
  /** Its adapter.ts defines the attempt counters. */
  counters: boolean;
}

/** The folder of the adapter create-auth init wrote: where the framework puts it, else the usual places. */
export function findThrottleSetup(root: string, framework: FrameworkModule): ThrottleSetup | undefined {
  const project = new ProjectView(root);
  const dirs = [
    framework.layout(framework.assume(project), project).authDir,
    "auth",
    "src/auth",
    "src/lib/server/auth",
  ];
  for (const dir of new Set(dirs)) {
    const adapter = readIfExists(join(root, dir, "adapter.ts"));
    if (adapter !== null)
      return { authDir: join(root, dir), counters: attemptOperations.every((name) => adapter.includes(name)) };
  }
  return undefined;
}

/** throttle.ts and client-address.ts, written where they are missing, and what the user must know. */
export async function throttlePart(
  root: string,
  setup: ThrottleSetup,
  ext: "" | ".js",
): Promise<{ part: FilesPart; notices: string[] }> {
  const dir = posixRelative(root, setup.authDir);
  const [throttle, address] = await Promise.all([throttleFile(dir, ext), clientAddressFile(dir)]);
  // The routes of a project whose init predates the module hand Auth.js no address until the user passes it.
  const notices =
    readIfExists(join(root, address.path)) === null
      ? [
          `Your routes hand requests to Auth.js without the client's address, so the sign-in throttle counts attempts per account only: pass it with withClientAddress(request, address) from ${address.path}.`,
        ]
      : [];
  return { part: { ifMissing: [throttle, address] }, notices };
}

/**
 * The config's adapter wrapped in withSignInEmailLimits, so that a refused sign-in email stores no token
 * (Auth.js stores it while it asks for the mail); where the adapter cannot be found, the notice says what to write.
 */
export async function limitEmailTokens(
  configText: string,
  configPath: string,
  throttleSpecifier: string,
): Promise<{ text: string; notices: string[] }> {
  const { wrapConfigAdapter } = await import("../ast/wrap-adapter.js");
  const wrapped = wrapConfigAdapter(
    configText,
    { wrapper: "withSignInEmailLimits", imports: [{ from: throttleSpecifier, named: ["withSignInEmailLimits"] }] },
    configPath,
  );
  if (wrapped.status !== "refused") return { text: wrapped.text, notices: [] };
  return {
    text: configText,
    notices: [
      `Wrap the config's adapter yourself (${wrapped.reason}): adapter: withSignInEmailLimits(<your adapter>), imported from "${throttleSpecifier}". Until then a sign-in email the throttle refuses still stores its (unsent) token.`,
    ],
  };
}

/** Why a provider that counts its attempts was written without the throttle. */
export function unthrottledNotice(kind: string, setup: ThrottleSetup | undefined, nextAuthV4: boolean): string {
  const why = nextAuthV4
    ? "the generated throttle needs next-auth v5 (create-auth upgrade)"
    : setup
      ? `${join(setup.authDir, "adapter.ts")} has no attempt counters (${attemptOperations.join(", ")}); create-auth init's adapters have them`
      : "no adapter of create-auth init was found beside your config";
  return `The ${kind} provider does not count attempts, so nothing limits how often it is tried: ${why}.`;
}
