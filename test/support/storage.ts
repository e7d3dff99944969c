/** A storage module's plan as init would make it for a new project, for tests of the adapters it writes. */
import { storageById } from "../../src/storage/registry.js";
import type { StoragePart } from "../../src/storage/storage.js";
import { ProjectView } from "../../src/workspace/project-view.js";

export function planStorage(
  id: string,
  options: { importExtension: "" | ".js"; passwords?: boolean; twoFactor?: boolean; dir?: string; root?: string },
): Promise<StoragePart> {
  const module = storageById(id);
  return module.plan({
    facts: module.assume(new ProjectView(options.root ?? "/nonexistent")),
    dialect: module.dialect ?? "sqlite",
    authDir: options.dir ?? "auth",
    ext: options.importExtension,
    passwords: options.passwords ?? false,
    twoFactor: options.twoFactor ?? false,
    envOrder: "next",
  });
}
