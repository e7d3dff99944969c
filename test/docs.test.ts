/**
 * The manual against the program: README.md is what a newcomer reads first and
 * docs/ holds a page per command and per topic. Every command, argument and
 * flag that `--help` shows (commander's view of the commands' options tables)
 * is on the command's page, every id doctor can report is in docs/, and every
 * relative link and #anchor of README.md, CONTRIBUTING.md and docs/ leads
 * somewhere. The checks are functions of the text, so the last tests show each
 * one failing on a planted fault.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import type { CommandOptions } from "../src/lib/command-options.js";
import { inProcess, root } from "./helpers.js";

const docs = join(root, "docs");
const read = (path: string) => readFileSync(join(root, path), "utf8");
const docPages = () =>
  readdirSync(docs)
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`);

/** Commander's `help [command]`: the program's own, not one of src/cli.ts's commands. */
const commanderHelp = "help";

interface Help {
  /** The positional arguments as the usage line shows them: "[folder]", "<module>". */
  args: string[];
  /** Every flag, short and long: "-y", "--yes", "--no-install". */
  flags: string[];
  /** The subcommands' names (the program's help only). */
  commands: string[];
}

/** Reads commander's help: the usage line, then the entries of its Options and Commands sections. */
function parseHelp(text: string): Help {
  const usage = /^Usage: \S+(?: \S+)* \[options\](.*)$/m.exec(text)?.[1] ?? "";
  const section = (title: string) => {
    const start = text.indexOf(`\n${title}:\n`);
    if (start < 0) return [];
    const body = text.slice(start + title.length + 3).split(/\n(?=\S)/)[0]!;
    // An entry starts two spaces in; its description's further lines are indented deeper.
    return body.split("\n").filter((line) => /^ {2}\S/.test(line));
  };
  return {
    args: usage.split(" ").filter((word) => /^[[<].+[\]>]$/.test(word) && word !== "[command]"),
    flags: section("Options").flatMap((line) => flagsOf(line)),
    commands: section("Commands").map((line) => line.trim().split(/\s+/)[0]!),
  };
}

/** "  -y, --yes   take the defaults" -> ["-y", "--yes"]. */
function flagsOf(entry: string): string[] {
  const [, short, long] = /^ {2}(?:(-\w), )?(--[\w-]+)/.exec(entry) ?? [];
  return [short, long].filter((flag): flag is string => flag !== undefined);
}

const helpOf = async (...args: string[]) => {
  const result = await inProcess([...args, "--help"]);
  expect(result.exitCode, `${args.join(" ")} --help`).toBe(0);
  return parseHelp(result.stdout);
};

/** A flag or word as a whole token: `--explore` is not mentioned by `--explore-depth`. */
const mentions = (text: string, word: string) =>
  new RegExp(`(?<![\\w-])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w-])`).test(text);

/** What of `words` the page never mentions. */
const unmentioned = (page: string, words: readonly string[]) => words.filter((word) => !mentions(page, word));

/** The options tables a command's modules export (src/commands/<name>.ts and <name>-options.ts). */
async function optionTables(command: string): Promise<CommandOptions<Record<string, never>>[]> {
  const modules = [command, `${command}-options`]
    .map((name) => join(root, "src/commands", `${name}.ts`))
    .filter((path) => existsSync(path));
  const loaded = await Promise.all(modules.map((path) => import(path)));
  return loaded
    .flatMap((module: Record<string, unknown>) => Object.values(module))
    .filter((value): value is CommandOptions<Record<string, never>> => {
      const table = value as Partial<CommandOptions<Record<string, never>>> | null;
      return typeof table?.configure === "function" && typeof table.rows === "object";
    });
}

/** The text outside fenced code blocks, and each line's code spans emptied (a link's text may be code). */
function prose(markdown: string): string {
  let fenced = false;
  return markdown
    .split("\n")
    .map((line) => {
      if (/^\s*(```|~~~)/.test(line)) {
        fenced = !fenced;
        return "";
      }
      return fenced ? "" : line.replace(/`+[^`]*`+/g, "code");
    })
    .join("\n");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped (not - or _), spaces as hyphens. */
function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/`/g, "")
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, "")
    .replace(/ /g, "-");
}

/** Every anchor a page has: its headings' slugs, a repeated one numbered as GitHub numbers it. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of markdown.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? undefined : /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

/**
 * The relative links of `file` (a path from the repository's root) that lead nowhere: a file
 * that is not there or lies outside the repository, or an #anchor no heading of the target has.
 */
function brokenLinks(file: string, markdown: string, readTarget: (path: string) => string | undefined) {
  const broken: string[] = [];
  for (const [, target] of prose(markdown).matchAll(/\]\(<?([^)\s>]+)>?(?:\s+"[^"]*")?\)/g)) {
    if (/^[a-z][a-z+.-]*:/i.test(target!)) continue; // https:, mailto:
    const [path, anchor] = target!.split("#") as [string, string | undefined];
    const resolved = path === "" ? file : relative(root, resolve(root, dirname(file), decodeURI(path)));
    if (resolved.startsWith("..")) {
      broken.push(`${file}: ${target} (outside the repository)`);
      continue;
    }
    const text = readTarget(resolved);
    if (text === undefined) broken.push(`${file}: ${target} (no such file)`);
    else if (anchor !== undefined && !anchorsOf(text).has(anchor)) broken.push(`${file}: ${target} (no such heading)`);
  }
  return broken;
}

/** A repository file's text; "" for a folder (a link may point at one); undefined when absent. */
const readRepositoryFile = (path: string) => {
  const full = join(root, path);
  if (!existsSync(full)) return undefined;
  return statSync(full).isDirectory() ? "" : readFileSync(full, "utf8");
};

describe("the manual", () => {
  it("has a page for every command, with every argument and flag its --help shows", async () => {
    const program = await helpOf();
    const commands = program.commands.filter((name) => name !== commanderHelp);
    expect(commands).toContain("init");
    const index = read("docs/README.md");
    for (const command of commands) {
      const page = `docs/${command}.md`;
      expect(existsSync(join(root, page)), page).toBe(true);
      const text = read(page);
      expect(text.split("\n")[0], `${page}'s title`).toContain(`create-auth ${command}`);
      expect(index, `docs/README.md links ${page}`).toContain(`](${command}.md)`);

      const help = await helpOf(command);
      // The help's flags are the options tables' rows, as commander registered them: none was lost reading it.
      const tables = await optionTables(command);
      expect(tables.length, `${command}'s options table`).toBeGreaterThan(0);
      const rows = tables.flatMap((table) => Object.values(table.rows) as { flag?: string; negation?: string }[]);
      const tableFlags = rows.flatMap((row) =>
        [row.flag, row.negation].flatMap((flag) => (flag ? flagsOf(`  ${flag}`) : [])),
      );
      expect(tableFlags.length, `${command}'s flags`).toBeGreaterThan(0);
      expect(help.flags, `${command} --help`).toEqual(expect.arrayContaining(tableFlags));

      expect(unmentioned(text, help.flags), `flags of create-auth ${command} missing from ${page}`).toEqual([]);
      const args = help.args.filter((arg) => !text.includes(arg) && !text.includes(`<${arg.slice(1, -1)}>`));
      expect(args, `arguments of create-auth ${command} missing from ${page}`).toEqual([]);
    }
  });

  it("names the program's own options and commander's help command in docs/README.md", async () => {
    const program = await helpOf();
    const index = read("docs/README.md");
    expect(program.flags).toEqual(expect.arrayContaining(["--version", "--debug", "--help"]));
    expect(unmentioned(index, program.flags)).toEqual([]);
    if (program.commands.includes(commanderHelp)) expect(index).toContain(`create-auth ${commanderHelp}`);
  });

  it("documents every id doctor can report", async () => {
    const { allChecks } = await import("../src/doctor/checks/index.js");
    const ids = (await allChecks()).map((check) => check.id);
    expect(ids.length).toBeGreaterThan(40);
    const text = docPages().map(read).join("\n");
    expect(ids.filter((id) => !text.includes(`\`${id}\``))).toEqual([]);
  });

  it("lists every page of docs/ in its index", () => {
    const index = read("docs/README.md");
    const unlisted = docPages()
      .map((page) => page.slice("docs/".length))
      .filter((name) => name !== "README.md" && !index.includes(`](${name})`));
    expect(unlisted).toEqual([]);
  });

  it("has no relative link or anchor that leads nowhere", () => {
    const files = ["README.md", "CONTRIBUTING.md", ...docPages()];
    const broken = files.flatMap((file) => brokenLinks(file, read(file), readRepositoryFile));
    expect(broken).toEqual([]);
  });

  it("cites the contract's sections (§) only on the verify-adapter pages", () => {
    const files = ["README.md", ...docPages().filter((page) => !page.startsWith("docs/verify-adapter"))];
    expect(files.filter((file) => read(file).includes("§"))).toEqual([]);
  });
});

describe("the manual's checks fail on a planted fault", () => {
  const pages: Record<string, string> = {
    "docs/a.md": "# `create-auth a`\n\n## The `--fix` flag\n\n## Flags\n\n## Flags\n\nSee [b](b.md#vk---flow-oauth).\n",
    "docs/b.md": "# B\n\n```sh\n# not a heading\n```\n\n## VK: `--flow oauth`\n",
  };
  const readPlanted = (path: string) => pages[path];

  it("a flag the page does not mention, or mentions only inside a longer one", () => {
    const page = "Use `--explore-depth <n>` and `-y, --yes`.";
    expect(unmentioned(page, ["--explore", "--explore-depth", "-y", "--yes", "--no-yes"])).toEqual([
      "--explore",
      "--no-yes",
    ]);
  });

  it("a link to a missing file or heading, or out of the repository", () => {
    expect(anchorsOf(pages["docs/a.md"]!)).toEqual(new Set(["create-auth-a", "the---fix-flag", "flags", "flags-1"]));
    expect(anchorsOf(pages["docs/b.md"]!)).toEqual(new Set(["b", "vk---flow-oauth"]));
    expect(brokenLinks("docs/a.md", pages["docs/a.md"]!, readPlanted)).toEqual([]);
    const planted = "[c](c.md) [anchor](b.md#vk-flow-oauth) [self](#flags-2) [out](../../x.md) `[code](nowhere.md)`";
    expect(brokenLinks("docs/a.md", `${pages["docs/a.md"]}${planted}\n`, readPlanted)).toEqual([
      "docs/a.md: c.md (no such file)",
      "docs/a.md: b.md#vk-flow-oauth (no such heading)",
      "docs/a.md: #flags-2 (no such heading)",
      "docs/a.md: ../../x.md (outside the repository)",
    ]);
  });
});
