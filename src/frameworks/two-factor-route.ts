/**
 * How a framework mounts the two-factor pages (--two-factor totp): the
 * framework-neutral handler, handleTwoFactor(request) of two-factor-pages.ts,
 * at twoFactorPath and every path below it, for GET and POST. File-routed
 * frameworks get a catch-all route file: the shared head of
 * templates/frameworks/two-factor/route.ts.hbs, then the framework's own
 * imports and handler, the partial two-factor-route.hbs of its templates
 * folder; a framework that mounts it in a server module of the user's writes
 * the line there or names it in a step.
 */
import { twoFactorPath } from "../families/two-factor.js";
import { specifier } from "../render/modules.js";
import type { PlannedFile } from "../render/parts.js";
import { renderTemplate } from "../render/templates.js";
import { clientAddressPath } from "./client-address.js";
import type { FrameworkRequest } from "./framework.js";

/**
 * A catch-all route file at `path` handing its requests to the pages; none without --two-factor. Its handler is
 * `partials/two-factor-route.hbs` of the framework's `templates` folder (e.g. "frameworks/next"). Where a
 * catch-all does not match its folder's own path (Nitro's `[...]`), call it again for that path.
 */
export async function twoFactorRoute(
  request: FrameworkRequest<unknown>,
  path: string,
  templates: string,
  /** What the framework's imports and route name need (TanStack Start: its packages and the route's path). */
  data: Record<string, string> = {},
): Promise<PlannedFile[]> {
  const pagesModule = request.twoFactorPages && specifier(path, request.twoFactorPages, request.importExtension);
  if (!pagesModule) return [];
  const context = {
    ...data,
    path: twoFactorPath,
    pagesModule,
    clientAddressModule: specifier(path, clientAddressPath(request.authDir), request.importExtension),
  };
  return [{ path, contents: await renderTemplate("frameworks/two-factor/route.ts.hbs", context, templates) }];
}

/** The step for a server the user writes (or a framework whose route is not written): where to mount the pages. */
export function twoFactorMountStep(where: string, pages: string | undefined): string[] {
  if (!pages) return [];
  return [
    `Mount the two-factor pages in ${where}: every GET and POST of ${twoFactorPath} and the paths below it handed to handleTwoFactor(request) from ${pages}, as a Web Request.`,
  ];
}

/** The imports of a server module that mounts the pages itself: the handler and withClientAddress. */
export function twoFactorImports(request: FrameworkRequest<unknown>, from: string): string[] {
  if (!request.twoFactorPages) return [];
  const ext = request.importExtension;
  return [
    `import { handleTwoFactor } from "${specifier(from, request.twoFactorPages, ext)}";`,
    `import { withClientAddress } from "${specifier(from, clientAddressPath(request.authDir), ext)}";`,
  ];
}
