/**
 * The commands a user runs one after another, on one project, as CI runs
 * them: init, add-provider without token flags, add-provider of an OpenID
 * provider that needs an issuer with --refresh-tokens --federated-logout,
 * a second one, then doctor. After every step the project compiles under its
 * own tsconfig.json against the real packages (@auth/core, better-sqlite3,
 * @types/node), and at the end doctor finds no error once the user has done
 * what the commands said (filled in the client ids, created the tables).
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { useCleanup } from "../e2e/cleanup.js";
import { startOidcServer } from "../e2e/oidc-server.js";
import { inProcess, root, tempDir } from "../helpers.js";

/** The packages' declaration files, parsed once for every step (they do not change between commands). */
const packageFiles = new Map<string, ts.SourceFile>();

/** The project's own `tsc --noEmit`: its tsconfig.json, its files. */
function typecheck(dir: string): string[] {
  const parsed = ts.getParsedCommandLineOfConfigFile(
    join(dir, "tsconfig.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: () => {},
    },
  );
  if (!parsed) throw new Error("the project's tsconfig.json does not parse");
  const host = ts.createCompilerHost(parsed.options);
  const read = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) => {
    if (!name.includes("/node_modules/")) return read(name, language, ...rest);
    const file = packageFiles.get(name) ?? read(name, language, ...rest);
    if (file) packageFiles.set(name, file);
    return file;
  };
  const program = ts.createProgram(parsed.fileNames, parsed.options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const where = d.file
      ? `${d.file.fileName.slice(dir.length + 1)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}`
      : "";
    return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, " ")}`;
  });
}

/** An empty project in a folder whose parent holds the packages, as an installed app's node_modules would. */
function emptyProject(): string {
  const parent = tempDir("create-auth-journey-");
  symlinkSync(join(root, "node_modules"), join(parent, "node_modules"), "dir");
  const dir = join(parent, "app");
  mkdirSync(dir);
  return dir;
}

const read = (dir: string, path: string) => readFileSync(join(dir, path), "utf8");

describe("journey: init, add-provider, add-provider with token flags, doctor", () => {
  const defer = useCleanup();

  it("a project of no framework compiles after every step and ends with doctor finding no error", async () => {
    const server = await startOidcServer({
      clientId: "c",
      clientSecret: "s",
      redirectUri: "http://localhost:3000/api/auth/callback/keycloak",
      account: { sub: "u-1", email: "a@corp.example", name: "A", picture: "https://corp.example/a.png" },
      tokens: { accessTokenTtl: 60, postLogoutRedirectUri: "http://localhost:3000/" },
    });
    defer(() => server.close());
    const dir = emptyProject();
    const step = async (...args: string[]) => {
      const result = await inProcess([...args, "--no-install"], { cwd: dir });
      expect(result.stderr, args.join(" ")).toBe("");
      expect(result.exitCode, args.join(" ")).toBe(0);
      expect(typecheck(dir), `after ${args.join(" ")}`).toEqual([]);
      return result;
    };

    await step("init", "--yes", "--framework", "none", "--providers", "credentials");
    const github = await step("add-provider", "github");
    expect(github.stdout).not.toMatch(/token/i);
    expect(read(dir, "auth.ts")).not.toContain("createTokenRotation");

    const issuer = ["--issuer", server.issuer];
    const keycloak = await step("add-provider", "keycloak", ...issuer, "--refresh-tokens", "--federated-logout");
    expect(keycloak.stdout).not.toMatch(/^note: .*(?:not wired|does not send|add to it)/m);
    const config = read(dir, "auth.ts");
    expect(config).toMatch(/refresh: \[keycloak\],\n {2}federatedSignOut: \[keycloak\],/);
    // No framework: the config itself exports the handler that sends sign-out on to the provider.
    expect(config).toContain("export async function handleAuth(request: Request): Promise<Response> {");
    expect(read(dir, "auth/token-rotation.ts")).toContain("export function createTokenRotation(");

    // A second provider with the token flags joins the lists; nothing is wired twice.
    await step("add-provider", "oidc", "--id", "corp", ...issuer, "--refresh-tokens", "--federated-logout");
    const twice = read(dir, "auth.ts");
    expect(twice).toMatch(/refresh: \[keycloak, corp\],\n {2}federatedSignOut: \[keycloak, corp\],/);
    for (const once of ["createTokenRotation({", "export async function handleAuth(", "events: tokens.events,"])
      expect(twice.split(once).length - 1, once).toBe(1);
    expect(twice.match(/refreshOnRead\(/g)).toHaveLength(1);

    // What the commands asked of the user: the client ids, the tables.
    const env = read(dir, ".env.local").replace(/^# (AUTH_(?:GITHUB|KEYCLOAK|CORP)_(?:ID|SECRET))=$/gm, "$1=set");
    writeFileSync(join(dir, ".env.local"), env, { mode: 0o600 });
    expect((await inProcess(["migrate"], { cwd: dir })).exitCode).toBe(0);
    const doctor = await inProcess(["doctor", "--json"], { cwd: dir });
    const report = JSON.parse(doctor.stdout) as { findings: { id: string; severity: string; message: string }[] };
    expect(report.findings.filter((f) => f.severity === "error")).toEqual([]);
    expect(doctor.exitCode).toBe(0);
  }, 120_000);
});
