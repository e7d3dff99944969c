// The prompt flow in a real pseudo-terminal (util-linux `script`), keys typed as a person would.
import { cpSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { fixture, inTerminal, keys, type Step, tempDir } from "../helpers.js";

const { down, enter, ctrlC } = keys;

/** Runs add-provider in a pty on a copy of the sample project. */
async function typed(args: string[], input: Step[]) {
  const dir = tempDir("create-auth-tty-");
  cpSync(fixture("projects", "next-app"), dir, { recursive: true });
  return { dir, ...(await inTerminal(["add-provider", "--no-install", ...args], input, dir)) };
}

describe("add-provider in a terminal", () => {
  it("asks for the kind when none is given", async () => {
    const { result, screen, read } = await typed(
      [],
      [
        ["Which kind of provider?", down, down, down, down, down, enter],
        ["(--flow)", enter],
      ],
    );
    expect(screen).toMatch(/Which kind of provider\?/);
    expect(result.exitCode).toBe(0);
    expect(read("src/auth.ts")).toContain("vk,");
    expect(read("src/providers/vk.ts")).toContain("v=5.126");
  });

  it("offers VK's two flows with one line on which to choose", async () => {
    const { result, screen, read } = await typed(
      ["social"],
      [
        ["(--flow)", down, enter],
        ["(--refresh-tokens)", enter],
      ],
    );
    expect(screen).toMatch(/how VK signs users in \(--flow\)/);
    expect(screen).toMatch(/oauth.*apps created on vk\.com before VK ID/);
    expect(screen).toMatch(/vkid.*VK ID console/);
    // VK ID refreshes its tokens (the classic flow cannot): the question is asked for it.
    expect(screen).toMatch(/\(--refresh-tokens\)/);
    expect(result.exitCode).toBe(0);
    expect(read("src/providers/vk.ts")).toContain('"https://id.vk.ru/authorize"');
  });

  it("asks for the options a kind needs and that no flag gave", async () => {
    const { result, screen, read } = await typed(
      ["oidc"],
      [
        ["(--id)", ..."corp", enter],
        ["(--issuer)", ..."https://login.corp.example", enter],
        // An OpenID provider may do both: "no" preselected.
        ["(--refresh-tokens)", enter],
        ["(--federated-logout)", enter],
      ],
    );
    expect(screen).toMatch(/provider id, part of the callback URL .*\(--id\)/);
    expect(screen).toMatch(/Sign out at the provider too \(--federated-logout\)/);
    expect(screen).toMatch(/issuer URL .*\(--issuer\)/);
    expect(result.exitCode).toBe(0);
    expect(read("src/providers/corp.ts")).toContain("https://login.corp.example");
  });

  it("Ctrl-C cancels and writes nothing", async () => {
    const { result, screen, dir, read } = await typed([], [["Which kind of provider?", ctrlC]]);
    expect(result.exitCode).toBe(130);
    expect(screen).toMatch(/Cancelled; nothing was written/);
    expect(existsSync(join(dir, "src/providers"))).toBe(false);
    expect(read("src/auth.ts")).toBe(readFileSync(fixture("projects", "next-app", "src", "auth.ts"), "utf8"));
  });
});
