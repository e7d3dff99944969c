// The programmatic API: run the adapter contract from code.
export { allCases } from "./contract/cases/index.js";
export { capabilities, capabilityNames, type CapabilityName } from "./contract/capabilities.js";
export type { ContractCase } from "./contract/case.js";
export { loadAdapterModule } from "./contract/loader.js";
export { runContract, type CaseResult, type RunEvent, type RunOptions, type RunSummary } from "./contract/runner.js";
export { runVerifyAdapter } from "./commands/verify-adapter.js";
