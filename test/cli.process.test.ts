// The launcher and the bundle as a process (bin/create-auth.js, dist/cli/): what --help loads.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { root, tempDir } from "./helpers.js";

describe("create-auth", () => {
  it("prints its help, loading no command's module and none of the heavy packages", async () => {
    const log = join(tempDir(), "loads.log");
    const help = await execa(
      process.execPath,
      ["--import", join(root, "test/support/log-loads.mjs"), join(root, "bin/create-auth.js"), "--help"],
      {
        env: { LOAD_LOG: log, NO_COLOR: "1" },
        reject: false,
      },
    );
    expect(help.exitCode).toBe(0);
    expect(help.stdout).toMatch(/Commands:\n\s+init\s[\s\S]*\n\s+add-provider\s[\s\S]*\n\s+verify-adapter\s/);
    const loaded = readFileSync(log, "utf8").trim().split("\n");
    // The log is real: the launcher and the CLI bundle are in it.
    expect(loaded.some((url) => url.endsWith("/dist/cli/create-auth.js"))).toBe(true);
    const commandOrHeavy = loaded.filter((url) =>
      /\/dist\/cli\/(init|add-provider|migrate|verify-adapter|verify-worker)-|node_modules\/(@babel|typescript|tsx|handlebars|zod|@clack|execa)\//.test(
        url,
      ),
    );
    expect(commandOrHeavy).toEqual([]);
  });
});
