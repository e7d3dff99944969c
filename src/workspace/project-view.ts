/**
 * A project as detection reads it: package.json, which files and folders
 * exist, tsconfig's "@/" alias. Read lazily and once, so every kind's
 * detect() can ask freely without reading a file twice; nothing here runs
 * the project's code or writes.
 */
import { statSync } from "node:fs";
import { join } from "node:path";
import { readIfExists } from "./plan.js";
import { type ProjectTsconfig, readTsconfig } from "./tsconfig.js";

export interface PackageJson {
  name?: string;
  type?: string;
  main?: string;
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  scripts?: Record<string, string>;
  [field: string]: unknown;
}

/** The first number of a range such as "^15.2.0", "16.4.6" or "~14"; undefined for tags and URLs. */
export const majorOf = (range: string | undefined): number | undefined => {
  const match = range && /^[\^~>=v\s]*(\d+)/.exec(range);
  return match ? Number(match[1]) : undefined;
};

export class ProjectView {
  private pkg: PackageJson | undefined;
  private readonly stats = new Map<string, "file" | "dir" | undefined>();
  private readonly texts = new Map<string, string | null>();
  private compilerSettings: ProjectTsconfig | undefined;

  constructor(readonly root: string) {}

  /** package.json as an object; {} when there is none or it is no JSON object (its merge reports that itself). */
  get packageJson(): PackageJson {
    if (!this.pkg) {
      let value: unknown;
      try {
        value = JSON.parse(this.read("package.json") ?? "{}");
      } catch {
        value = {};
      }
      this.pkg = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as PackageJson) : {};
    }
    return this.pkg;
  }

  /** Dependencies and devDependencies together (a dependency wins where both name a package). */
  get dependencies(): Record<string, string> {
    const { dependencies, devDependencies } = this.packageJson;
    return { ...devDependencies, ...dependencies };
  }

  /** The range package.json gives `name`, in either dependency list. */
  range(name: string): string | undefined {
    const value = this.dependencies[name];
    return typeof value === "string" ? value : undefined;
  }

  has(name: string): boolean {
    return this.range(name) !== undefined;
  }

  /** The major version of `name`: the installed one, else package.json's range. */
  major(name: string): number | undefined {
    let installed: string | undefined;
    try {
      installed = (JSON.parse(this.read(`node_modules/${name}/package.json`) ?? "{}") as { version?: string }).version;
    } catch {
      installed = undefined;
    }
    return majorOf(installed) ?? majorOf(this.range(name));
  }

  private kind(path: string): "file" | "dir" | undefined {
    if (!this.stats.has(path)) {
      const stat = statSync(join(this.root, path), { throwIfNoEntry: false });
      this.stats.set(path, stat?.isFile() ? "file" : stat?.isDirectory() ? "dir" : undefined);
    }
    return this.stats.get(path);
  }

  isFile(path: string): boolean {
    return this.kind(path) === "file";
  }

  isDir(path: string): boolean {
    return this.kind(path) === "dir";
  }

  /** The first of `paths` that is a file. */
  firstFile(paths: readonly string[]): string | undefined {
    return paths.find((p) => this.isFile(p));
  }

  /** `base` in the first of `extensions` it exists in: configFile("next.config") -> "next.config.mjs". */
  configFile(
    base: string,
    extensions: readonly string[] = ["ts", "mts", "cts", "js", "mjs", "cjs"],
  ): string | undefined {
    return this.firstFile(extensions.map((e) => `${base}.${e}`));
  }

  /** A file's text, or null when it is not there. */
  read(path: string): string | null {
    if (!this.texts.has(path)) {
      let text: string | null = null;
      try {
        text = readIfExists(join(this.root, path));
      } catch {
        text = null; // a folder or an unreadable file where a file was looked for
      }
      this.texts.set(path, text);
    }
    return this.texts.get(path)!;
  }

  /** tsconfig.json (else jsconfig.json) with what it extends. */
  get tsconfig(): ProjectTsconfig {
    this.compilerSettings ??= readTsconfig(this.root);
    return this.compilerSettings;
  }

  get srcDir(): boolean {
    return this.isDir("src");
  }

  /** The "@/*" path of tsconfig.json: ["./src/*"] -> "src/", ["./*"] -> "". Read as text: tsconfig allows comments. */
  get alias(): string | undefined {
    const match = /"@\/\*"\s*:\s*\[\s*"(?:\.\/)?([^"*]*)\*"/.exec(this.read("tsconfig.json") ?? "");
    return match ? match[1]! : undefined;
  }
}
