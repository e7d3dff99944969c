// The programmatic API: run the adapter contract from code.

export { runVerifyAdapter } from "./commands/verify-adapter.js";
export { type CapabilityName, capabilities, capabilityNames } from "./contract/capabilities.js";
export type { ContractCase } from "./contract/case.js";
export { allCases } from "./contract/cases/index.js";
export { loadAdapterModule } from "./contract/loader.js";
export { type CaseResult, type RunEvent, type RunOptions, type RunSummary, runContract } from "./contract/runner.js";
