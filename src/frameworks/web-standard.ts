/**
 * The one generic wiring, for frameworks without an official Auth.js
 * package that fits @auth/core 0.41: a route handing the Web Request to
 * Auth() with `basePath` equal to its mount, `setEnvDefaults`, and a
 * `getSession(request)` helper (templates/frameworks/web/session.ts.hbs);
 * the env files loaded by the app itself where its production server reads
 * none. A framework module adds only what its framework needs on top.
 */
import { loadEnvModule } from "../render/env-files.js";
import { specifier } from "../render/modules.js";
import { type EnvVariable, part } from "../render/parts.js";
import type { EnvOrder } from "../render/project-env.js";
import { renderTemplate } from "../render/templates.js";
import { clientAddressFile, clientAddressPath } from "./client-address.js";
import {
  type ConfigShape,
  type FrameworkPart,
  type FrameworkRequest,
  plainConfig,
  trustHostVariable,
} from "./framework.js";

export interface WebStandardOptions {
  title: string;
  /** Where Auth.js is mounted: the config's basePath. */
  basePath: string;
  /** Where the session module goes (handleAuth, getSession, signInUrl, isProtected). */
  sessionPath: string;
  /** Where the env loader goes, for a production server that reads no env file; omit when the framework loads them. */
  loadEnvPath?: string;
  /** The order the framework's env files are loaded in (its module's envOrder). */
  envOrder: EnvOrder;
  /**
   * The session module imports the env loader first and names it: for servers whose build drops a module
   * imported for its side effects alone (Nitro's), where the config's own side-effect import would vanish.
   */
  envInSession?: boolean;
  /** How the session module imports the config; a relative specifier by default. */
  configModule?: string;
  /** Header lines of the auth config: how the app uses it. */
  header: string[];
  /**
   * With --protect, where the protected paths go when code in the browser checks them too (a module with
   * no server import); the session module re-exports its isProtected. In the session module otherwise.
   */
  protectedPathsPath?: string;
}

/** A path pattern as --protect takes it ("/dashboard/:path*", "/admin/:id") as a RegExp literal's source. */
export function pathPattern(path: string): string {
  const literal = (text: string) => text.replace(/[.+?^${}()|[\]\\/]/g, "\\$&");
  let pattern = "";
  for (const segment of path.replace(/\/+$/, "").split("/").slice(1)) {
    const param = /^:\w+([*+?]?)$/.exec(segment);
    if (!param) pattern += `\\/${literal(segment)}`;
    else if (param[1] === "*") pattern += "(?:\\/.*)?";
    else if (param[1] === "+") pattern += "\\/.+";
    else if (param[1] === "?") pattern += "(?:\\/[^/]+)?";
    else pattern += "\\/[^/]+";
  }
  return `/^${pattern || "\\/"}\\/?$/`;
}

/**
 * The generic part: the session module, the env loader, AUTH_TRUST_HOST,
 * and the config's basePath. The framework adds its route, its mount and
 * how it protects pages.
 */
export async function webStandardPart(
  request: FrameworkRequest<unknown>,
  options: WebStandardOptions,
): Promise<FrameworkPart> {
  const configModule =
    options.configModule ?? specifier(options.sessionPath, request.configPath, request.importExtension);
  const protect = request.protect?.map(pathPattern) ?? false;
  const protectList = request.protect?.join(",") ?? "";
  const pathsPath = protect ? options.protectedPathsPath : undefined;
  const files = [
    {
      path: options.sessionPath,
      contents: await renderTemplate("frameworks/web/session.ts.hbs", {
        title: options.title,
        basePath: options.basePath,
        configModule,
        envModule:
          options.envInSession && options.loadEnvPath
            ? specifier(options.sessionPath, options.loadEnvPath, request.importExtension)
            : false,
        protect,
        protectList,
        pathsModule: pathsPath ? specifier(options.sessionPath, pathsPath, request.importExtension) : false,
        federatedSignOut: request.federatedSignOut ?? false,
        clientAddressModule: specifier(
          options.sessionPath,
          clientAddressPath(request.authDir),
          request.importExtension,
        ),
      }),
    },
    await clientAddressFile(request.authDir),
  ];
  if (pathsPath)
    files.push({
      path: pathsPath,
      contents: await renderTemplate("frameworks/web/protected-paths.ts.hbs", { protect, protectList }),
    });
  if (options.loadEnvPath) files.push(await loadEnvModule(options.loadEnvPath, options.envOrder));
  const env: EnvVariable[] = [trustHostVariable];
  const config: ConfigShape = plainConfig({
    header: options.header,
    options: [
      `// Where ${options.title} mounts Auth.js's routes; its callback URLs are <origin>${options.basePath}/callback/<provider>.`,
      `basePath: ${JSON.stringify(options.basePath)},`,
    ],
  });
  return { ...part({ files, env }), config };
}
