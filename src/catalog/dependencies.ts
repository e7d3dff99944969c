/**
 * The one table of package versions that generated projects depend on,
 * chosen to install and run on Node 20 and later (typeorm 0.3 likewise).
 */

/**
 * better-sqlite3 depends on the Node it will run on, which is the Node
 * running create-auth: 12 is the last line that builds for Node 20, and on
 * Node 24 its objects abort the process when collected (Node changed
 * node::ObjectWrap); 13 moved to Node-API and needs Node 22 or later.
 */
const betterSqlite3 = Number(process.versions.node.split(".")[0]) >= 22 ? "^13.2.0" : "^12.6.0";

export const dependencyVersions = {
  // The floors of the Auth.js packages are their first versions without a known advisory (advisories.data.ts).
  "@auth/core": "^0.41.3",
  // v5 is published only as betas and some registries have no "beta" tag: an exact version, never a tag.
  "next-auth": "5.0.0-beta.32",
  "@auth/sveltekit": "^1.11.3",
  "@auth/express": "^0.12.3",
  "@auth/qwik": "0.9.1",
  express: "^5.1.0",
  "@types/express": "^5.0.0",
  // @auth/core's peer range for nodemailer is ^7.0.7 || ^8.0.5.
  nodemailer: "^8.0.5",
  "@types/nodemailer": "^8.0.0",
  "better-sqlite3": betterSqlite3,
  "@types/better-sqlite3": "^7.6.13",
  pg: "^8.16.0",
  "@types/pg": "^8.15.0",
  mysql2: "^3.14.0",
  "drizzle-orm": "^0.45.0",
  typeorm: "^0.3.25",
  "reflect-metadata": "^0.2.2",
  // Prisma 7 reaches the database through a driver adapter (and needs Node 20.19 or later).
  prisma: "^7.10.0",
  "@prisma/client": "^7.10.0",
  "@prisma/adapter-better-sqlite3": "^7.10.0",
  "@prisma/adapter-pg": "^7.10.0",
  "@prisma/adapter-mariadb": "^7.10.0",
  "@auth/prisma-adapter": "^2.11.3",
  "@auth/drizzle-adapter": "^1.11.3",
  "drizzle-kit": "^0.31.0",
  zod: "^3.25.0",
  "@simplewebauthn/server": "^9.0.2",
  "@simplewebauthn/browser": "^9.0.1",
  "@types/node": "^20.19.0",
  // Replaced at plan time by src/workspace/self.ts when create-auth runs from a checkout.
  "create-auth": "^0.1.0",
  tsx: "^4.20.0",
  typescript: "^5.9.0",
} as const;

export type DependencyName = keyof typeof dependencyVersions;

/**
 * What a catalogued package installed at its catalog version depends on
 * exactly, for the packages the advisory table names: a pin no floor of ours
 * can move, so a generated project gets the package manager's override for
 * it when the pinned version is affected. From the registry (`npm view
 * @auth/qwik@0.9.1 dependencies`); its test checks each entry's catalog
 * version is exact, so a bump of the catalog has to revisit the entry.
 */
export const pinnedDependencies: Partial<Record<DependencyName, { version: string; pins: Record<string, string> }>> = {
  // @auth/qwik 0.9.1 is the registry's newest; it depends on @auth/core "0.41.1".
  "@auth/qwik": { version: "0.9.1", pins: { "@auth/core": "0.41.1" } },
};

/**
 * npm 11 runs a dependency's install script only when package.json's
 * allowScripts names it, and warns about every other one. better-sqlite3
 * needs its script (the native build). esbuild, which tsx brings, runs from
 * its platform package without its script, so it is denied: no warning, and
 * no script run. Each is added when the package `when` names is a dependency.
 */
export const installScripts: Record<string, { allow: boolean; when: DependencyName }> = {
  "better-sqlite3": { allow: true, when: "better-sqlite3" },
  esbuild: { allow: false, when: "tsx" },
};
