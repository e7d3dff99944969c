// Astro's pages under --protect: which ones a pattern covers, and the frontmatter line that renders one on demand.
import { describe, expect, it } from "vitest";
import { onDemandEdits, renderedOnDemand, routeOf } from "../../src/frameworks/astro/pages.js";
import { pathPattern } from "../../src/frameworks/web-standard.js";

const pattern = (path: string) => new RegExp(pathPattern(path).slice(1, -1));

describe("Astro pages", () => {
  it.each([
    ["index.astro", "/"],
    ["dashboard.astro", "/dashboard"],
    ["dashboard/index.astro", "/dashboard"],
    ["dashboard/[id].astro", "/dashboard/x"],
    ["docs/[...slug].astro", "/docs/x"],
  ])("%s answers %s", (file, route) => expect(routeOf(file)).toBe(route));

  it("adds the line at the top of the frontmatter, keeping every other byte (CRLF too)", () => {
    const text = '---\r\nimport Layout from "../layouts/Layout.astro";\r\n---\r\n<Layout title="x" />\r\n';
    const after = renderedOnDemand(text);
    expect(after).toMatch(/^---\r\n\/\/ .+\r\nexport const prerender = false;\r\nimport Layout/);
    expect(after.replace(/^---\r\n\/\/ .+\r\nexport const prerender = false;\r\n/, "---\r\n")).toBe(text);
  });

  it("gives a page without frontmatter one", () => {
    expect(renderedOnDemand("<h1>Dashboard</h1>\n")).toMatch(
      /^---\n\/\/ .+\nexport const prerender = false;\n---\n\n<h1>Dashboard<\/h1>\n$/,
    );
  });

  it("edits only the covered pages that are prerendered, and asks by hand where the page says prerender = true", () => {
    const pages = [
      { path: "src/pages/index.astro", route: "/", text: "<h1/>" },
      { path: "src/pages/dashboard.astro", route: "/dashboard", text: "<h1/>" },
      {
        path: "src/pages/dashboard/a.astro",
        route: "/dashboard/a",
        text: "---\nexport const prerender = false;\n---\n",
      },
      {
        path: "src/pages/dashboard/b.astro",
        route: "/dashboard/b",
        text: "---\nexport const prerender = true;\n---\n",
      },
    ];
    const { edits, steps } = onDemandEdits(pages, [pattern("/dashboard/:path*")]);
    expect(edits.map((e) => e.path)).toEqual(["src/pages/dashboard.astro"]);
    expect(steps).toHaveLength(1);
    expect(steps[0]).toMatch(/^src\/pages\/dashboard\/b\.astro is prerendered/);
  });
});
