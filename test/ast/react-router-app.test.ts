/**
 * The edits of a React Router app's own modules: the auth route listed in
 * app/routes.ts, and --protect's loader in app/root.tsx. Every other byte
 * stays; a second run changes nothing; what is not certain is refused.
 */
import { describe, expect, it } from "vitest";
import { addRootLoader, registerRoute } from "../../src/ast/react-router-app.js";

const route = (text: string) => registerRoute(text, "api/auth/*", "routes/api.auth.$.ts");
const edited = (edit: ReturnType<typeof route>) => (edit.status === "edited" ? edit.text : `<${edit.status}>`);

describe("registerRoute", () => {
  it("adds the route to a one-line array, `route` already imported", () => {
    const text = `import { index, type RouteConfig, route } from "@react-router/dev/routes";\n\nexport default [index("routes/home.tsx")] satisfies RouteConfig;\n`;
    const out = edited(route(text));
    expect(out).toBe(
      `import { index, type RouteConfig, route } from "@react-router/dev/routes";\n\nexport default [index("routes/home.tsx"), route("api/auth/*", "routes/api.auth.$.ts")] satisfies RouteConfig;\n`,
    );
    expect(route(out)).toEqual({ status: "unchanged" });
  });

  it("adds it on its own line to a multi-line array with a trailing comma, importing `route`, CRLF kept", () => {
    const text = `import { type RouteConfig, index } from "@react-router/dev/routes";\r\n\r\nexport default [\r\n  index("routes/home.tsx"),\r\n] satisfies RouteConfig;\r\n`;
    expect(edited(route(text))).toBe(
      `import { type RouteConfig, index, route } from "@react-router/dev/routes";\r\n\r\nexport default [\r\n  index("routes/home.tsx"),\r\n  route("api/auth/*", "routes/api.auth.$.ts"),\r\n] satisfies RouteConfig;\r\n`,
    );
  });

  it("leaves file-system routes alone: flatRoutes() finds the file by its name", () => {
    const text = `import { flatRoutes } from "@react-router/fs-routes";\n\nexport default flatRoutes();\n`;
    expect(route(text)).toEqual({ status: "unchanged" });
  });

  it("refuses a default export that is not an array", () => {
    const text = `import { routes } from "./somewhere";\n\nexport default routes;\n`;
    expect(route(text)).toEqual({ status: "refused", reason: "its default export is not an array of routes" });
  });
});

describe("addRootLoader", () => {
  const importLine = `import { protectPages } from "./.server/auth/protect";`;
  const loader = "export const loader = ({ request }: { request: Request }) => protectPages(request);";

  it("adds the import and the loader after the imports", () => {
    const text = `import { Outlet } from "react-router";\n\nexport default function App() {\n  return <Outlet />;\n}\n`;
    const out = addRootLoader(text, importLine, loader);
    expect(out).toEqual({
      status: "edited",
      text: `import { Outlet } from "react-router";\n${importLine}\n\n${loader}\n\nexport default function App() {\n  return <Outlet />;\n}\n`,
    });
    expect(addRootLoader((out as { text: string }).text, importLine, loader)).toEqual({ status: "unchanged" });
  });

  it("refuses a root that has a loader of its own", () => {
    const text = `export async function loader() {\n  return { theme: "dark" };\n}\n`;
    expect(addRootLoader(text, importLine, loader)).toEqual({
      status: "refused",
      reason: "it has a loader of its own",
    });
  });
});
