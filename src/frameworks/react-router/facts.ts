/** A React Router app's layout: its app folder, route config and root route, as the wiring plans and the doctor part checks them. */
import { posix } from "node:path";
import type { ProjectView } from "../../workspace/project-view.js";

export interface ReactRouterFacts {
  /** The app folder (react-router.config's appDirectory, "app" by default). */
  appDir: string;
  /** The route config module (app/routes.ts) when the app has one. */
  routesFile: { path: string; text: string } | undefined;
  /** The root route module (app/root.tsx). */
  rootFile: { path: string; text: string } | undefined;
  major: number | undefined;
}

const codeExtensions = ["ts", "tsx", "js", "jsx"];

/** What the wiring and the doctor part read of a React Router app. */
export function reactRouterFacts(project: ProjectView): ReactRouterFacts {
  const config = project.configFile("react-router.config");
  const appDir = (config && /\bappDirectory\s*:\s*["'`]([^"'`]+)["'`]/.exec(project.read(config) ?? "")?.[1]) || "app";
  const dir = posix.normalize(appDir).replace(/^\.\/|\/$/g, "");
  const fileOf = (base: string) => {
    const path = project.firstFile(codeExtensions.map((ext) => `${dir}/${base}.${ext}`));
    const text = path ? project.read(path) : null;
    return path && text !== null ? { path, text } : undefined;
  };
  return { appDir: dir, routesFile: fileOf("routes"), rootFile: fileOf("root"), major: project.major("react-router") };
}
