/** doctor for Nitro: the catch-all route (routes/: at the root, api/: under /api) that hands requests to Auth.js. */
import { catchAllRouteDoctor, urlOf } from "../catch-all-route.js";

export const nitroDoctor = catchAllRouteDoctor({
  id: "nitro",
  title: "Nitro",
  example: "server/routes/api/auth/[...].ts",
  layout: {
    roots: ["server", "src", "."],
    catchAllPath(file) {
      const segments = file.split("/");
      const name = segments.pop()!.replace(/\.[cm]?[jt]s$/, "");
      const [top, ...rest] = segments;
      if (!/^\[\.\.\.\w*\]$/.test(name)) return undefined;
      if (top === "api") return urlOf(["api", ...rest]);
      return top === "routes" ? urlOf(rest) : undefined;
    },
  },
});
