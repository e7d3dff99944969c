// TanStack Start's root route: `beforeLoad: protectPages` and its import added, every other byte kept, or the reason not.
import { describe, expect, it } from "vitest";
import { addRootBeforeLoad } from "../../src/ast/tanstack-root-route.js";

const importLine = 'import { protectPages } from "../auth/protect";';
const add = (text: string) => addRootBeforeLoad(text, importLine, "protectPages");
const header = 'import { createRootRoute } from "@tanstack/react-router";\n';

describe("addRootBeforeLoad", () => {
  it.each([
    [
      `${header}\nexport const Route = createRootRoute({\n  component: Root,\n});\n`,
      `${header}${importLine}\n\nexport const Route = createRootRoute({\n  beforeLoad: protectPages,\n  component: Root,\n});\n`,
    ],
    [
      `${header}export const Route = createRootRoute({ component: Root });\n`,
      `${header}${importLine}\nexport const Route = createRootRoute({ beforeLoad: protectPages, component: Root });\n`,
    ],
    [
      `${header}export const Route = createRootRoute({});\n`,
      `${header}${importLine}\nexport const Route = createRootRoute({ beforeLoad: protectPages });\n`,
    ],
    [
      `${header.trim()}\r\nexport const Route = createRootRouteWithContext<{ user: string }>()({\r\n\tcomponent: Root,\r\n});\r\n`,
      `${header.trim()}\r\n${importLine}\r\nexport const Route = createRootRouteWithContext<{ user: string }>()({\r\n\tbeforeLoad: protectPages,\r\n\tcomponent: Root,\r\n});\r\n`,
    ],
  ])("%j", (before, after) => {
    expect(add(before)).toEqual({ status: "edited", text: after });
  });

  it("changes nothing the second time", () => {
    const once = add(`${header}export const Route = createRootRoute({ component: Root });\n`);
    expect(once.status === "edited" && add(once.text)).toEqual({ status: "unchanged" });
  });

  it.each([
    [
      `${header}export const Route = createRootRoute({ beforeLoad: check, component: Root });\n`,
      "beforeLoad of its own",
    ],
    [`${header}export const Route = createRootRoute(options);\n`, "does not call createRootRoute({ ... }) once"],
    [`${header}export const Route = createFileRoute("/")({ component: Home });\n`, "does not call createRootRoute"],
    [`${header}export const Route = createRootRoute({ component: Root \n`, "does not parse"],
  ])("leaves %j alone", (text, reason) => {
    const edit = add(text);
    expect(edit.status).toBe("refused");
    expect(edit.status === "refused" && edit.reason).toContain(reason);
  });
});
