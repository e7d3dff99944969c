/**
 * The frameworks init wires sign-in into: where each keeps the auth module
 * and the adapter, what it installs, and the port its server listens on
 * (shown in the next steps as http://localhost:<port>, not 127.0.0.1, which
 * the browser treats as another site for the CSRF cookie in development).
 */
import type { DependencyName } from "./dependencies.js";

export const frameworks = ["next", "sveltekit", "express", "none"] as const;
export type Framework = (typeof frameworks)[number];

export interface FrameworkEntry {
  title: string;
  /** Packages the wiring imports; versions from src/catalog/dependencies.ts. */
  dependencies: DependencyName[];
  devDependencies: DependencyName[];
  /** Where a browser reaches the app in development, and the auth routes under it. */
  port: number;
  basePath: string;
  /** The command that starts the app in development. */
  devCommand: string;
}

export const frameworkCatalog: Record<Framework, FrameworkEntry> = {
  next: {
    title: "Next.js",
    dependencies: ["next-auth"],
    devDependencies: [],
    port: 3000,
    basePath: "/api/auth",
    devCommand: "npm run dev",
  },
  sveltekit: {
    title: "SvelteKit",
    dependencies: ["@auth/sveltekit"],
    devDependencies: [],
    port: 5173,
    basePath: "/auth",
    devCommand: "npm run dev",
  },
  express: {
    title: "Express",
    dependencies: ["@auth/express", "express"],
    devDependencies: ["@types/express"],
    port: 3000,
    basePath: "/auth",
    devCommand: "npm run dev",
  },
  none: {
    title: "no framework",
    dependencies: [],
    devDependencies: [],
    port: 3000,
    basePath: "/api/auth",
    devCommand: "",
  },
};
