/** `--backend memory`: an in-process adapter, for tests. */
import { defineStorage, planOwnTemplate } from "./storage.js";

export const memoryStorage = defineStorage({
  id: "memory",
  title: "memory",
  hint: "in-process, for tests",
  accountTokens: true,
  chosenBy: "backend",
  assume: () => ({}),
  plan: (request) => planOwnTemplate("memory", request),
});
