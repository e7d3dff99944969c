/**
 * The journey init → add-provider github → add-provider keycloak --issuer …
 * --refresh-tokens --federated-logout on the starter apps, with the app
 * compiling under its own tsconfig.json after every step against its real
 * packages (next-auth, @auth/express, hono…: the browser layer's installed
 * apps, the versions init installs). The unit layer walks the same steps
 * (test/commands/journeys.test.ts) without the framework packages.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { inProcess } from "../helpers.js";
import { type AppName, freshApp } from "./apps.js";
import { useCleanup } from "./cleanup.js";
import { startOidcServer } from "./oidc-server.js";

/** The packages' declaration files, parsed once for every step and app. */
const packageFiles = new Map<string, ts.SourceFile>();

function typecheck(dir: string): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(dir, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => {},
    },
  );
  if (!parsed) throw new Error("the app's tsconfig.json does not parse");
  const host = ts.createCompilerHost(parsed.options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => {
    if (!name.includes("/node_modules/")) return read(name, language, ...rest);
    const key = `${name.slice(name.lastIndexOf("/node_modules/"))}:${JSON.stringify(language)}`;
    const file = packageFiles.get(key) ?? read(name, language, ...rest);
    if (file) packageFiles.set(key, file);
    return file;
  };
  const program = ts.createProgram(parsed.fileNames, { ...parsed.options, noEmit: true, incremental: false }, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file
      ? `${d.file.fileName.slice(dir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
      : "";
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
  });
}

describe("journey on a starter app, compiled after every step with its real packages", () => {
  const defer = useCleanup();

  it.each<AppName>(["next", "express", "hono"])(
    "%s",
    async (name) => {
      const server = await startOidcServer({
        clientId: "c",
        clientSecret: "s",
        redirectUri: "http://localhost:3000/api/auth/callback/keycloak",
        account: { sub: "u-1", email: "a@corp.example", name: "A", picture: "https://corp.example/a.png" },
        tokens: { accessTokenTtl: 60, postLogoutRedirectUri: "http://localhost:3000/" },
      });
      defer(() => server.close());
      const dir = await freshApp(name, defer);
      // The Express starter is a package with no TypeScript yet: init writes its tsconfig.json.
      if (existsSync(join(dir, "tsconfig.json"))) expect(typecheck(dir), "the app as it comes").toEqual([]);
      for (const step of [
        ["init", "--yes"],
        ["add-provider", "github"],
        ["add-provider", "keycloak", "--issuer", server.issuer, "--refresh-tokens", "--federated-logout"],
      ]) {
        const result = await inProcess([...step, "--no-install"], { cwd: dir });
        expect(result.stderr, step.join(" ")).toBe("");
        expect(result.exitCode, step.join(" ")).toBe(0);
        expect(typecheck(dir), `after ${step.join(" ")}`).toEqual([]);
      }
    },
    180_000,
  );
});
