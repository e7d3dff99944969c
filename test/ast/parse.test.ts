import { describe, expect, it } from "vitest";
import { parse, parseExpression } from "../../src/ast/parse.js";

describe("parse", () => {
  it("keeps the nodes of an earlier parse usable after later parses", () => {
    const first = parse("export default { providers: [a] };", "auth.ts");
    const statement = first.getStatements()[0]!;
    parse("export const other = 1;", "auth.ts");
    parseExpression("vk");
    expect(statement.getText()).toBe("export default { providers: [a] };");
    expect(first.getFullText()).toBe("export default { providers: [a] };");
  });
});
