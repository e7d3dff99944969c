/**
 * Every case, in the order a run takes them. A group of checks beyond what
 * the service needs of every adapter is added as `...optInCases(itsCases)`:
 * listed by --list, run only when --only names its ids (run/select.ts).
 */
import type { ContractCase } from "../spec/case.js";
import { accountTokenCases } from "./account-tokens.js";
import { accountCases } from "./accounts.js";
import { authenticatorCases } from "./authenticators.js";
import { flowCases } from "./flows.js";
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
  ...lifetimeCases,
  ...accountTokenCases,
];
