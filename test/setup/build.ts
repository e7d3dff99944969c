// Builds dist/ from src/ before any test runs, so tests that run the CLI as a
// user does (bin/create-auth.js loads the bundle) exercise the code as edited.
import { buildAll } from "../../scripts/build.js";

export default async function setup(): Promise<void> {
  await buildAll();
}
