import type { ContractCase } from "../spec/case.js";
import { accountCases } from "./accounts.js";
import { authenticatorCases } from "./authenticators.js";
import { flowCases } from "./flows.js";
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
  ...flowCases,
  ...servicePathCases,
];
