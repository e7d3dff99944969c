/**
 * A fresh copy of an installed fixture app (.cache/e2e-apps/): node_modules
 * hard-linked, since an install takes minutes and a farm of links a tenth of
 * a second, the rest copied. npm rewrites node_modules/.package-lock.json in
 * place after an install (the same file, not a new one), so a linked one
 * would carry a copy's install back into its template: every later copy's
 * npm would believe the copy's packages installed, and every build key that
 * reads it would change from run to run. It is copied, not linked.
 */
import { copyFileSync, cpSync, existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";

const npmWrites = join("node_modules", ".package-lock.json");

export async function copyTemplate(template: string, dir: string): Promise<void> {
  for (const entry of readdirSync(template)) {
    if (entry === ".ready") continue;
    if (entry === "node_modules") await execa("cp", ["-al", join(template, entry), join(dir, entry)]);
    else cpSync(join(template, entry), join(dir, entry), { recursive: true });
  }
  if (!existsSync(join(template, npmWrites))) return;
  rmSync(join(dir, npmWrites));
  copyFileSync(join(template, npmWrites), join(dir, npmWrites));
}
