/** doctor for TanStack Start: the splat server route ($) under src/routes that hands requests to Auth.js. */
import { catchAllRouteDoctor, urlOf } from "../catch-all-route.js";

export const tanstackStartDoctor = catchAllRouteDoctor({
  id: "tanstack-start",
  title: "TanStack Start",
  example: "src/routes/api/auth/$.ts",
  layout: {
    roots: ["src/routes", "app/routes"],
    // Folders and flat names alike: api/auth/$.ts, api.auth.$.ts, api/auth.$.tsx; (groups) and _layouts add no segment.
    catchAllPath(file) {
      const segments = file
        .replace(/\.[cm]?[jt]sx?$/, "")
        .split(/[/.]/)
        .filter((s) => !/^\(.*\)$/.test(s) && !s.startsWith("_"));
      return segments.pop() === "$" ? urlOf(segments) : undefined;
    },
  },
});
