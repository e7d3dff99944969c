/**
 * Every case, in the order a run takes them. A group of checks beyond what
 * the service needs of every adapter is one of `optInGroups` (made with
 * optInCases): listed by --list, run only when --only (or verify-adapter's
 * --require tokens) names its ids (run/select.ts).
 */
import { accountTokenMethods, attemptMethods } from "../spec/adapter.js";
import type { ContractCase } from "../spec/case.js";
import { accountTokenCases } from "./account-tokens.js";
import { accountCases } from "./accounts.js";
import { attemptCases } from "./attempts.js";
import { authenticatorCases } from "./authenticators.js";
import { flowCases } from "./flows.js";
import { lifecycleCases } from "./lifecycles.js";
import { lifetimeCases } from "./lifetimes.js";
import { passkeyValueCases } from "./passkey-values.js";
import { providerValueCases } from "./provider-values.js";
import { servicePathCases } from "./service-paths.js";
import { sessionCases } from "./sessions.js";
import { userCases } from "./users.js";
import { verificationTokenCases } from "./verification-tokens.js";

export const allCases: ContractCase[] = [
  ...userCases,
  ...accountCases,
  ...sessionCases,
  ...verificationTokenCases,
  ...authenticatorCases,
  ...providerValueCases,
  ...passkeyValueCases,
  ...flowCases,
  ...servicePathCases,
  ...lifecycleCases,
  ...lifetimeCases,
];

/** The opt-in groups (optInCases): run only when named, so never part of a run of `allCases`. */
export const optInGroups: ContractCase[] = [...accountTokenCases, ...attemptCases];

/**
 * The opt-in groups verify-adapter's --require names: what a feature adds to an adapter, the ids of its
 * cases and the methods it must have.
 */
export const requirableGroups = {
  tokens: {
    cases: "account.tokens.",
    methods: accountTokenMethods,
    hint: "Token rotation needs updateAccount, listAccountsByUserId and leaseAccount; the adapters create-auth init generates have them.",
  },
  attempts: {
    cases: "attempts.",
    methods: attemptMethods,
    hint: "The sign-in throttle needs incrementAttempts, decrementAttempts and clearAttempts; the adapters create-auth init generates have them.",
  },
} as const;
export type RequirableGroup = keyof typeof requirableGroups;

/** What --only, --skip and --list choose from: every case and the opt-in groups. */
export const selectableCases: ContractCase[] = [...allCases, ...optInGroups];
