/**
 * The adapter as the suite sees it: every method optional (§4.2), every
 * return value possibly a promise. Typed loosely on purpose: the suite's job
 * is to find out what the adapter really returns, so results are `unknown`
 * until a zod model has checked them.
 */
export const adapterMethods = [
  "createUser",
  "getUser",
  "getUserByEmail",
  "getUserByAccount",
  "updateUser",
  "deleteUser",
  "linkAccount",
  "unlinkAccount",
  "getAccount",
  "createSession",
  "getSessionAndUser",
  "updateSession",
  "deleteSession",
  "createVerificationToken",
  "useVerificationToken",
  "createAuthenticator",
  "getAuthenticator",
  "listAuthenticatorsByUserId",
  "updateAuthenticatorCounter",
] as const;

/**
 * Operations some adapters add beyond the 19 (§4.2 lets an adapter be
 * extended): what access-token rotation uses. Only the opt-in group
 * account.tokens.* calls them, so they never change the verdict on the 19.
 */
export const accountTokenMethods = ["updateAccount", "listAccountsByUserId", "leaseAccount"] as const;

/** The attempt counters a sign-in throttle keeps through the adapter; only the opt-in group attempts.* calls them. */
export const attemptMethods = ["incrementAttempts", "decrementAttempts", "clearAttempts"] as const;

export type AdapterMethod =
  | (typeof adapterMethods)[number]
  | (typeof accountTokenMethods)[number]
  | (typeof attemptMethods)[number];

export type AnyAdapter = Partial<Record<AdapterMethod, (...args: any[]) => unknown>>;

export function hasMethod(adapter: AnyAdapter, method: AdapterMethod): boolean {
  return typeof adapter[method] === "function";
}

export function presentMethods(adapter: AnyAdapter): AdapterMethod[] {
  return [...adapterMethods, ...accountTokenMethods, ...attemptMethods].filter((method) => hasMethod(adapter, method));
}
