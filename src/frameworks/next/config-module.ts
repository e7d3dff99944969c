import { specifier } from "../../render/modules.js";
import type { FrameworkRequest } from "../framework.js";

/** How a file imports the auth module: through tsconfig's "@/" alias when it covers the module, else relatively. */
export function configModule(from: string, request: FrameworkRequest<unknown>): string {
  const bare = request.configPath.replace(/\.ts$/, "");
  if (request.alias !== undefined && bare.startsWith(request.alias)) return `@/${bare.slice(request.alias.length)}`;
  return specifier(from, request.configPath, request.importExtension);
}
