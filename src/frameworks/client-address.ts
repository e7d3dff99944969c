/**
 * The client-address module every framework's wiring writes beside the
 * adapter: the route hands the connection's address to Auth.js through it
 * (withClientAddress, or passClientAddress on Node's http), and the sign-in
 * throttle reads it back (clientOf). Which address a framework has is the
 * framework module's own business; this is only the file they share.
 */
import type { PlannedFile } from "../render/parts.js";
import { renderTemplate } from "../render/templates.js";

export const clientAddressPath = (authDir: string) => `${authDir}/client-address.ts`;

export async function clientAddressFile(authDir: string): Promise<PlannedFile> {
  return {
    path: clientAddressPath(authDir),
    contents: await renderTemplate("frameworks/web/client-address.ts.hbs", {}),
  };
}
