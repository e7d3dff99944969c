// The prompt flow in a real pseudo-terminal (util-linux `script`), keys typed as a person would.
import { cpSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { fixture, root, tempDir } from "../helpers.js";

const down = "\u001b[B";
const enter = "\r";
const ctrlC = "\u0003";

/** Runs add-provider in a pty and types `keys` (each after a pause, so the prompt is drawn). */
async function typed(args: string[], keys: string[]) {
  const dir = tempDir("create-auth-tty-");
  cpSync(fixture("projects", "next-app"), dir, { recursive: true });
  // A fresh pty is 0 columns wide; give it a real size so prompts are drawn as text.
  const command = `stty cols 160 rows 40; ${["node", join(root, "bin", "create-auth.js"), "add-provider", ...args].map((a) => `'${a}'`).join(" ")}`;
  const child = execa("script", ["-qfec", command, "/dev/null"], { cwd: dir, env: { CI: "", NO_COLOR: "1", TERM: "xterm" }, reject: false, timeout: 30_000 });
  for (const key of keys) {
    await new Promise((r) => setTimeout(r, 700));
    child.stdin!.write(key);
  }
  const result = await child;
  // Prompts redraw with cursor moves; compare the text without escape sequences.
  const screen = String(result.stdout).replace(/\u001b\[[0-9;?]*[A-Za-z]/g, "");
  return { dir, result, screen, read: (path: string) => readFileSync(join(dir, path), "utf8") };
}

describe("add-provider in a terminal", () => {
  it("asks for the kind when none is given", async () => {
    const { result, screen, read } = await typed([], [down, down, down, down, down, enter]);
    expect(screen).toMatch(/Which kind of provider\?/);
    expect(result.exitCode).toBe(0);
    expect(read("src/auth.ts")).toContain("vk,");
    expect(read("src/providers/vk.ts")).toContain("v=5.126");
  });

  it("asks for the options a kind needs and that no flag gave", async () => {
    const { result, screen, read } = await typed(["oidc"], ["corp", enter, "https://login.corp.example", enter]);
    expect(screen).toMatch(/provider id, part of the callback URL .*\(--id\)/);
    expect(screen).toMatch(/issuer URL .*\(--issuer\)/);
    expect(result.exitCode).toBe(0);
    expect(read("src/providers/corp.ts")).toContain("https://login.corp.example");
  });

  it("Ctrl-C cancels and writes nothing", async () => {
    const { result, screen, dir, read } = await typed([], [ctrlC]);
    expect(result.exitCode).toBe(130);
    expect(screen).toMatch(/Cancelled; nothing was written/);
    expect(existsSync(join(dir, "src/providers"))).toBe(false);
    expect(read("src/auth.ts")).toBe(readFileSync(fixture("projects", "next-app", "src", "auth.ts"), "utf8"));
  });
});
