// SolidStart's vite.config: the middleware option added to solidStart(), every other byte kept, or the reason not.
import { describe, expect, it } from "vitest";
import { addMiddlewareOption } from "../../src/frameworks/solid-start/vite-config.js";

const option = "./src/middleware.ts";

describe("addMiddlewareOption", () => {
  it.each([
    ["plugins: [solidStart(), nitro()]", 'plugins: [solidStart({ middleware: "./src/middleware.ts" }), nitro()]'],
    ["plugins: [solidStart({}), nitro()]", 'plugins: [solidStart({ middleware: "./src/middleware.ts" }), nitro()]'],
    [
      "plugins: [solidStart({\r\n    ssr: true,\r\n  })]",
      'plugins: [solidStart({ middleware: "./src/middleware.ts",\r\n    ssr: true,\r\n  })]',
    ],
  ])("%j", (before, after) => {
    expect(addMiddlewareOption(before, option)).toEqual({ status: "edited", text: after });
  });

  it.each([
    ['solidStart({ middleware: "./src/mw.ts" })', "names a middleware already"],
    ["solidStart(options)", "options that are no object"],
    ["export default defineConfig({})", "does not call solidStart() once"],
  ])("leaves %j alone", (text, reason) => {
    const edit = addMiddlewareOption(text, option);
    expect(edit.status).toBe("refused");
    expect(edit.status === "refused" && edit.reason).toContain(reason);
  });
});
