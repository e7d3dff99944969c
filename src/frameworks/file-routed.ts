/**
 * The plan the file-routed frameworks on the generic wiring share (Nuxt,
 * Nitro, TanStack Start, SolidStart): the session module and env loader,
 * imported by name since their production servers read no env file; a
 * catch-all route file handing requests to Auth.js; and with --protect a
 * file of theirs (a middleware, a start file) or, when the project already
 * has that file, the lines to add to it.
 */

import { containerFile, type ProjectFacts } from "../doctor-model/facts.js";
import { specifier } from "../render/modules.js";
import { renderTemplate } from "../render/templates.js";
import type { FrameworkPart, FrameworkRequest } from "./framework.js";
import { webStandardPart } from "./web-standard.js";

export interface FileRoutedOptions {
  title: string;
  basePath: string;
  /** The catch-all route file and its template (given basePath, sessionModule and `data`). */
  route: { path: string; template: string; data?: Record<string, unknown> };
  /** How a server-side handler reads the session, for the config's header. */
  sessionRead: string;
  /** With --protect, a module of the protected paths alone, for a check in the browser too. */
  protectedPathsPath?: string;
}

export interface FileRoutedPart {
  wiring: FrameworkPart;
  sessionPath: string;
}

export async function fileRoutedPart(
  request: FrameworkRequest<unknown>,
  { title, basePath, route, sessionRead, protectedPathsPath }: FileRoutedOptions,
): Promise<FileRoutedPart> {
  const sessionPath = `${request.authDir}/session.ts`;
  const wiring = await webStandardPart(request, {
    title,
    basePath,
    envOrder: "vite",
    sessionPath,
    loadEnvPath: `${request.authDir}/load-env.ts`,
    envInSession: true,
    protectedPathsPath,
    header: [
      `${title}: ${route.path} hands requests under ${basePath} to Auth.js (handleAuth from ${sessionPath});`,
      sessionRead,
      "https://authjs.dev/reference/core",
    ],
  });
  wiring.files.push({
    path: route.path,
    contents: await renderTemplate(route.template, {
      basePath,
      ...route.data,
      sessionModule: specifier(route.path, sessionPath, request.importExtension),
    }),
  });
  return { wiring, sessionPath };
}

export interface ProtectFile {
  path: string;
  /** Given sessionModule, sessionPath and `data`. */
  template: string;
  data?: Record<string, unknown>;
  /** The project's own file at that place, left alone. */
  own: string | undefined;
  /** What the step tells the user to do with the rendered lines ("add a middleware such as"). */
  addIt: string;
}

/** --protect's file, written, or added to the steps when the project has its own: its rendered text either way. */
export async function protectFile(
  request: FrameworkRequest<unknown>,
  { wiring, sessionPath }: FileRoutedPart,
  file: ProtectFile,
): Promise<string> {
  const contents = await renderTemplate(file.template, {
    ...file.data,
    sessionModule: specifier(file.path, sessionPath, request.importExtension),
    sessionPath,
  });
  if (file.own)
    wiring.steps.push(
      `${file.own} is yours and was left alone; to protect ${(request.protect ?? []).join(", ")}, ${file.addIt}:\n${contents}`,
    );
  else wiring.files.push({ path: file.path, contents });
  return contents;
}

/**
 * doctor's `ownServer` for a framework whose build is a Nitro Node server: `name` when the start or preview
 * script runs .output/server/index.mjs or `preview` (its preview command), else what a container file says.
 */
export function nitroNodeServer(preview: string, name: string): (facts: ProjectFacts) => string | undefined {
  return (facts) => {
    const { start = "", preview: previewScript = "" } = facts.packageJson.scripts;
    const scripts = `${start} ${previewScript}`;
    return scripts.includes(".output/server/index.mjs") || scripts.includes(preview) ? name : containerFile(facts);
  };
}
