// Cold wall time of one `add-provider social` on a typical Next.js-style
// config, beside `node -e 0` in the same run. Each run edits a fresh copy.
// Usage: npm run build && node bench/add-provider.js [runs]
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { printTable, time } from "./measure.js";

const root = fileURLToPath(new URL("..", import.meta.url));
const runs = Number(process.argv[2] ?? 7);
const config = `import NextAuth from "next-auth";
import GitHub from "next-auth/providers/github";
import { PrismaAdapter } from "@auth/prisma-adapter";
import { prisma } from "@/lib/prisma";

export const { handlers, auth, signIn, signOut } = NextAuth({
  adapter: PrismaAdapter(prisma),
  providers: [
    GitHub,
  ],
  session: { strategy: "database" },
});
`;

function freshProject() {
  const dir = mkdtempSync(join(tmpdir(), "create-auth-bench-"));
  mkdirSync(join(dir, "src"));
  writeFileSync(join(dir, "package.json"), '{ "name": "app", "private": true }\n');
  writeFileSync(join(dir, "src", "auth.ts"), config);
  return dir;
}

const baseline = time("node", ["-e", "0"], { runs });
const bin = join(root, "bin", "create-auth.js");
// --no-install: the figure is create-auth's own work, not the package manager's download.
const args = [bin, "add-provider", "social", "--api-version", "5.126", "--no-install"];
// Each run a new process. Node's compile cache (Node 22 and later; see
// src/lib/private-cache.ts) is what a user has from their second run on; the
// first run, with no cache yet, is shown for information.
const emptyCache = () => ({ CREATE_AUTH_COMPILE_CACHE: mkdtempSync(join(tmpdir(), "create-auth-bench-cache-")) });
const rows = [
  {
    name: "add-provider social --api-version 5.126 --no-install",
    ms: time("node", args, { runs, before: freshProject }),
    // Stated for Node 24.
    target: 6,
  },
  {
    name: "  the same, first run (empty code cache)",
    ms: time("node", args, { runs, before: freshProject, env: emptyCache }),
  },
];
const met = printTable(`add-provider, median of ${runs} cold runs (node ${process.version})`, baseline, rows);
process.exitCode = met ? 0 : 1;
