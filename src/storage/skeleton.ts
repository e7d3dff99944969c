/** `--backend skeleton`: every adapter method to fill in, for a store of the user's own. */
import { defineStorage, planOwnTemplate } from "./storage.js";

export const skeletonStorage = defineStorage({
  id: "skeleton",
  title: "skeleton",
  hint: "every method to fill in",
  chosenBy: "backend",
  assume: () => ({}),
  plan: (request) => planOwnTemplate("skeleton", request),
});
