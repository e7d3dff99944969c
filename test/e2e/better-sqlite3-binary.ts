/**
 * better-sqlite3 12's native addon. Its install script (`prebuild-install || node-gyp rebuild`) downloads
 * a prebuilt binary from the project's GitHub releases and builds from source (two minutes) only when
 * none is reachable, which on this machine is always. So the addon is built once per version and Node
 * (`betterSqliteBuild`), and an install that must run the script for real gets that binary the way users
 * get theirs, downloaded by prebuild-install, from a release mirror on loopback (`prebuiltMirror`).
 */
import { createReadStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { execa } from "execa";
import { root } from "../helpers.js";
import { userEnv } from "./user-env.js";

/** The Node a build is for: "node" for the one running the tests. */
export interface BuildRuntime {
  node: string;
  /** As process.version prints it: part of the cached build's key. */
  version: string;
  installEnv: Record<string, string>;
}

/** The Node running the tests, as a user's shell has it. */
export const testsNode = (): BuildRuntime => ({ node: "node", version: process.version, installEnv: userEnv() });

export const versionOf = (dir: string) =>
  (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version: string }).version;

/**
 * A build/ folder of better-sqlite3 `version` for `runtime`'s Node: this repository's own when it is that
 * version on this Node, else built once (against that Node's headers).
 */
export async function betterSqliteBuild(version: string, runtime: BuildRuntime): Promise<string> {
  const own = join(root, "node_modules/better-sqlite3");
  if (
    runtime.node === "node" &&
    versionOf(own) === version &&
    existsSync(join(own, "build/Release/better_sqlite3.node"))
  )
    return join(own, "build");
  const dir = join(root, ".cache/e2e-apps", `better-sqlite3-${version}-${runtime.version}`);
  if (!existsSync(join(dir, ".ready"))) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir, { recursive: true });
    writeFileSync(
      join(dir, "package.json"),
      JSON.stringify({
        private: true,
        dependencies: { "better-sqlite3": version },
        allowScripts: { "better-sqlite3": true },
      }),
    );
    await execa("npm", ["install", "--no-audit", "--no-fund"], { cwd: dir, env: runtime.installEnv });
    writeFileSync(join(dir, ".ready"), new Date().toISOString());
  }
  return join(dir, "node_modules/better-sqlite3/build");
}

/** The highest published version in `range`, as npm install picks it (from the registry: pack layer only). */
export async function newestIn(range: string): Promise<string> {
  const { stdout } = await execa("npm", ["view", `better-sqlite3@${range}`, "version", "--json"], {
    env: userEnv(),
    extendEnv: false,
  });
  const listed = JSON.parse(stdout) as string | string[];
  const parts = (v: string) => v.split(".").map(Number);
  const newer = (a: string, b: string) => {
    const [x, y] = [parts(a), parts(b)];
    const differs = x.findIndex((n, i) => n !== y[i]);
    return differs >= 0 && x[differs]! > y[differs]!;
  };
  return (Array.isArray(listed) ? listed : [listed]).reduce((best, v) => (newer(v, best) ? v : best));
}

export interface PrebuiltMirror {
  /** For the install's environment: prebuild-install downloads from here instead of GitHub. */
  env: Record<string, string>;
  /** The paths asked for, answered or not. */
  requests: string[];
  close(): Promise<void>;
}

/**
 * better-sqlite3 `version`'s prebuilt binary for this Node, at the path prebuild-install asks a mirror for
 * (`<host>/v<version>/<name>-v<version>-node-v<abi>-<platform>-<arch>.tar.gz`); any other path is a 404.
 */
export async function prebuiltMirror(version: string): Promise<PrebuiltMirror> {
  const build = await betterSqliteBuild(version, testsNode());
  const name = `better-sqlite3-v${version}-node-v${process.versions.modules}-${process.platform}-${process.arch}.tar.gz`;
  const folder = mkdtempSync(join(tmpdir(), "create-auth-prebuilt-"));
  const tarball = join(folder, name);
  await execa("tar", ["-czf", tarball, "-C", dirname(build), "build/Release/better_sqlite3.node"]);
  const requests: string[] = [];
  const server = createServer((request, response) => {
    requests.push(request.url ?? "");
    if (request.url !== `/v${version}/${name}`) return void response.writeHead(404).end();
    response.writeHead(200, { "content-type": "application/gzip" });
    createReadStream(tarball).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    env: { npm_config_better_sqlite3_binary_host: `http://127.0.0.1:${port}` },
    requests,
    close: async () => {
      await new Promise((resolve) => server.close(resolve));
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
