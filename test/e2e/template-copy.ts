/**
 * A fresh copy of an installed fixture app (.cache/e2e-apps/) in a temporary
 * folder, removed when the test is done: node_modules
 * hard-linked, since an install takes minutes and a farm of links a tenth of
 * a second, the rest copied. npm rewrites node_modules/.package-lock.json in
 * place after an install (the same file, not a new one), so a linked one
 * would carry a copy's install back into its template: every later copy's
 * npm would believe the copy's packages installed, and every build key that
 * reads it would change from run to run. It is copied, not linked.
 */
import { copyFileSync, cpSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { execa } from "execa";

const npmWrites = join("node_modules", ".package-lock.json");

/** The copy's folder, named `create-auth-<name>-…`; `defer` removes it once the test is done. */
export async function copyTemplate(
  template: string,
  name: string,
  defer: (fn: () => unknown) => void,
): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), `create-auth-${name}-`));
  defer(() => rmSync(dir, { recursive: true, force: true }));
  for (const entry of readdirSync(template)) {
    if (entry === ".ready") continue;
    if (entry === "node_modules") await execa("cp", ["-al", join(template, entry), join(dir, entry)]);
    else cpSync(join(template, entry), join(dir, entry), { recursive: true });
  }
  if (existsSync(join(template, npmWrites))) {
    rmSync(join(dir, npmWrites));
    copyFileSync(join(template, npmWrites), join(dir, npmWrites));
  }
  return dir;
}
