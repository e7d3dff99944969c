/** `--backend memory`: an in-process adapter, for tests. */
import { defineBackend, planOwnTemplate } from "./backend.js";

export const memoryBackend = defineBackend({
  name: "memory",
  hint: "in-process, for tests",
  plan: (context) => planOwnTemplate("memory", context),
});
