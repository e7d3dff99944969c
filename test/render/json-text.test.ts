import { describe, expect, it } from "vitest";
import { setJsonMember } from "../../src/render/json-text.js";

describe("setJsonMember", () => {
  it("replaces a value where it stands, every other byte kept", () => {
    const text = '{"name":"app","files":["dist","bin"],\n  "dependencies": {"next-auth":"4.24.11", "next": "15.3.0"}}';
    expect(setJsonMember(text, ["dependencies", "next-auth"], "4.24.15")).toBe(
      '{"name":"app","files":["dist","bin"],\n  "dependencies": {"next-auth":"4.24.15", "next": "15.3.0"}}',
    );
  });

  it("adds a member at the end of its object in the file's indentation and line endings", () => {
    const text = '{\r\n\t"name": "app",\r\n\t"dependencies": {\r\n\t\t"next": "15.3.0"\r\n\t}\r\n}';
    expect(setJsonMember(text, ["dependencies", "next-auth"], "5.0.0-beta.32")).toBe(
      '{\r\n\t"name": "app",\r\n\t"dependencies": {\r\n\t\t"next": "15.3.0",\r\n\t\t"next-auth": "5.0.0-beta.32"\r\n\t}\r\n}',
    );
  });

  it("creates the objects a path lacks, nested in the file's style", () => {
    const text = '{\n    "name": "app",\n    "files": ["a", "b"]\n}\n';
    expect(setJsonMember(text, ["pnpm", "overrides", "@auth/core"], "^0.41.3")).toBe(
      '{\n    "name": "app",\n    "files": ["a", "b"],\n    "pnpm": {\n        "overrides": {\n            "@auth/core": "^0.41.3"\n        }\n    }\n}\n',
    );
  });

  it("fills an empty object, and an inline object stays on its line", () => {
    expect(setJsonMember('{\n  "overrides": {}\n}', ["overrides", "@auth/core"], "^0.41.3")).toBe(
      '{\n  "overrides": {\n    "@auth/core": "^0.41.3"\n  }\n}',
    );
    expect(setJsonMember('{ "resolutions": { "a": "1" } }', ["resolutions", "b"], "2")).toBe(
      '{ "resolutions": { "a": "1", "b": "2" } }',
    );
  });

  it("reads strings with escapes, numbers, literals and nested arrays on the way", () => {
    const text = '{"a":"x\\"}","b":-1.5e3,"c":[true,null,{"d":[]}],"e":{}}';
    expect(setJsonMember(text, ["e", "f"], 1)).toBe(
      '{"a":"x\\"}","b":-1.5e3,"c":[true,null,{"d":[]}],"e":{\n  "f": 1\n}}',
    );
    expect(() => setJsonMember(text, ["b", "x"], 1)).toThrow(/"b" is not an object/);
  });
});
