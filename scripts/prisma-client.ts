/**
 * Generates the Prisma client of fixtures/published/prisma/schema.prisma into
 * .cache/prisma-client, once per schema change. `prisma generate` needs no
 * engine binary for the `prisma-client` generator, but the CLI still checks
 * for a schema engine and would download one; this machine reaches only the
 * npm registry, so it is pointed at a stand-in it never runs.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { execa } from "execa";

const root = fileURLToPath(new URL("..", import.meta.url));
const schema = join(root, "fixtures/published/prisma/schema.prisma");
const output = join(root, ".cache/prisma-client");
const stamp = join(output, ".schema-hash");

export async function generatePrismaClient(): Promise<void> {
  const hash = createHash("sha256").update(readFileSync(schema)).digest("hex");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === hash) return;
  await execa(join(root, "node_modules/.bin/prisma"), ["generate", "--schema", schema], {
    cwd: root,
    env: { PRISMA_SCHEMA_ENGINE_BINARY: process.execPath, PRISMA_HIDE_UPDATE_MESSAGE: "1", CHECKPOINT_DISABLE: "1" },
  });
  writeFileSync(stamp, hash);
}

if (process.argv[1] && import.meta.url === `file://${process.argv[1]}`) await generatePrismaClient();
