/** doctor for SolidStart: the catch-all API route under src/routes that hands requests to Auth.js. */
import { catchAllRouteDoctor, urlOf } from "../catch-all-route.js";

export const solidStartDoctor = catchAllRouteDoctor({
  id: "solid-start",
  title: "SolidStart",
  example: "src/routes/api/auth/[...auth].ts",
  layout: {
    roots: ["src/routes"],
    // (group) folders add no URL segment.
    catchAllPath(file) {
      const segments = file.split("/").filter((s) => !/^\(.*\)$/.test(s));
      const name = segments.pop()!.replace(/\.[cm]?[jt]sx?$/, "");
      return /^\[\.\.\.\w+\]$/.test(name) ? urlOf(segments) : undefined;
    },
  },
});
