/** `--backend skeleton`: every adapter method to fill in, for a store of the user's own. */
import { defineBackend, planOwnTemplate } from "./backend.js";

export const skeletonBackend = defineBackend({
  name: "skeleton",
  hint: "every method to fill in",
  plan: (context) => planOwnTemplate("skeleton", context),
});
