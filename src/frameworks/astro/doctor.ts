/** doctor for Astro: the catch-all API route under src/pages that hands requests to Auth.js. */
import { catchAllRouteDoctor, urlOf } from "../catch-all-route.js";

export const astroDoctor = catchAllRouteDoctor({
  id: "astro",
  title: "Astro",
  example: "src/pages/api/auth/[...auth].ts",
  layout: {
    roots: ["src/pages"],
    catchAllPath(file) {
      const segments = file.split("/");
      const name = segments.pop()!.replace(/\.[cm]?[jt]sx?$/, "");
      return /^\[\.\.\.\w+\]$/.test(name) ? urlOf(segments) : undefined;
    },
  },
});
