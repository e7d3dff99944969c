/** doctor for Elysia: where the server module hands requests to Auth.js, and whether AUTH_URL agrees. */
import { entryMountDoctor } from "../doctor-entry-mount.js";

export const elysiaDoctor = entryMountDoctor({
  id: "elysia",
  title: "Elysia",
  example: '.all("/auth/*", ...)',
  fix: (path) =>
    `Right after new Elysia(...): .all("${path}/*", ({ request }) => handleAuth(request), { parse: "none" })`,
});
