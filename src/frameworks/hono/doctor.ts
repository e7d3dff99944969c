/** doctor for Hono: where the server module hands requests to Auth.js, and whether AUTH_URL agrees. */
import { entryMountDoctor } from "../doctor-entry-mount.js";

export const honoDoctor = entryMountDoctor({
  id: "hono",
  title: "Hono",
  example: 'app.on(["GET", "POST"], "/auth/*", ...)',
  fix: (path) => `After the app is created: app.on(["GET", "POST"], "${path}/*", (c) => handleAuth(c.req.raw))`,
});
