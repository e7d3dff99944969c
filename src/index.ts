// The programmatic API: run the adapter contract from code.

export { runVerifyAdapter } from "./commands/verify-adapter.js";
export { allCases } from "./contract/cases/index.js";
export { loadAdapterModule } from "./contract/isolation/loader.js";
export {
  type CaseResult,
  type RunEvent,
  type RunOptions,
  type RunSummary,
  runContract,
} from "./contract/run/runner.js";
export { runVerification, type VerificationOptions } from "./contract/run/verification.js";
export { type CapabilityName, capabilities, capabilityNames } from "./contract/spec/capabilities.js";
export type { ContractCase } from "./contract/spec/case.js";
