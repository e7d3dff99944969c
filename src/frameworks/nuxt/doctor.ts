/** doctor for Nuxt: the catch-all server route (server/api: under /api, server/routes: at the root) that hands requests to Auth.js. */
import { catchAllRouteDoctor, urlOf } from "../catch-all-route.js";

export const nuxtDoctor = catchAllRouteDoctor({
  id: "nuxt",
  title: "Nuxt",
  example: "server/api/auth/[...].ts",
  layout: {
    roots: ["server"],
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
