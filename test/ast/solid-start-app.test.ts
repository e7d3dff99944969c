// SolidStart's src/app.tsx: FileRoutes() wrapped by protectRoutes and its import added, every other byte kept, or the reason not.
import { describe, expect, it } from "vitest";
import { wrapFileRoutes } from "../../src/ast/solid-start-app.js";

const importLine = 'import { protectRoutes } from "./auth/protect";';
const imports = 'import { Router } from "@solidjs/router";\nimport { FileRoutes } from "@solidjs/start/router";\n';

describe("wrapFileRoutes", () => {
  it.each([
    [
      `${imports}\nexport default () => <Router>\n  <FileRoutes />\n</Router>;\n`,
      `${imports}${importLine}\n\nexport default () => <Router>\n  {protectRoutes(FileRoutes())}\n</Router>;\n`,
    ],
    [
      `${imports}export default () => <Router root={Layout}><FileRoutes/></Router>;\n`,
      `${imports}${importLine}\nexport default () => <Router root={Layout}>{protectRoutes(FileRoutes())}</Router>;\n`,
    ],
  ])("%j", (before, after) => {
    expect(wrapFileRoutes(before, importLine)).toEqual({ status: "edited", text: after });
  });

  it("changes nothing the second time", () => {
    const once = wrapFileRoutes(`${imports}export default () => <Router><FileRoutes /></Router>;\n`, importLine);
    expect(once.status === "edited" && wrapFileRoutes(once.text, importLine)).toEqual({ status: "unchanged" });
  });

  it.each([
    [`${imports}export default () => <Router>{FileRoutes()}</Router>;\n`, "does not render <FileRoutes /> once"],
    [`${imports}export default () => <Router><FileRoutes /><FileRoutes /></Router>;\n`, "once"],
    [`${imports}export default () => <Router><Route path="/" /></Router>;\n`, "once"],
    [`${imports}export default () => <Router><FileRoutes /></Router>\n)`, "does not parse"],
  ])("leaves %j alone", (text, reason) => {
    const edit = wrapFileRoutes(text, importLine);
    expect(edit.status).toBe("refused");
    expect(edit.status === "refused" && edit.reason).toContain(reason);
  });
});
