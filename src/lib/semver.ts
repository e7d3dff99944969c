/**
 * The part of npm's version rules create-auth needs, written small: parse
 * and order versions (prereleases included), test a version against an
 * advisory's range, find the lowest version a package.json spec admits, and
 * raise a spec to a version keeping its operator. Specs it cannot read (a
 * tag, a URL, `workspace:`, a range with `||`) answer undefined, and the
 * caller says so instead of guessing.
 */

interface Version {
  major: number;
  minor: number;
  patch: number;
  /** The prerelease identifiers: ["beta", 32] for 5.0.0-beta.32; empty for a release. */
  pre: (string | number)[];
}

const versionPattern = /^v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?$/;

export function parseVersion(text: string): Version | undefined {
  const match = versionPattern.exec(text.trim());
  if (!match) return undefined;
  const pre = match[4] ? match[4].split(".").map((id) => (/^\d+$/.test(id) ? Number(id) : id)) : [];
  return { major: Number(match[1]), minor: Number(match[2]), patch: Number(match[3]), pre };
}

const format = (v: Version) => `${v.major}.${v.minor}.${v.patch}${v.pre.length ? `-${v.pre.join(".")}` : ""}`;

/** Semver precedence: numbers first, then a release above its prereleases, identifiers compared in turn. */
export function compareVersions(a: string | Version, b: string | Version): number {
  const x = typeof a === "string" ? parseVersion(a) : a;
  const y = typeof b === "string" ? parseVersion(b) : b;
  if (!x || !y) throw new Error(`not a version: ${!x ? String(a) : String(b)}`);
  const core = x.major - y.major || x.minor - y.minor || x.patch - y.patch;
  if (core) return Math.sign(core);
  if (!x.pre.length || !y.pre.length) return Math.sign(y.pre.length - x.pre.length);
  for (let i = 0; i < Math.max(x.pre.length, y.pre.length); i++) {
    const p = x.pre[i];
    const q = y.pre[i];
    if (p === undefined) return -1;
    if (q === undefined) return 1;
    if (p === q) continue;
    if (typeof p === "number" && typeof q === "number") return Math.sign(p - q);
    if (typeof p === "number") return -1;
    if (typeof q === "number") return 1;
    return p < q ? -1 : 1;
  }
  return 0;
}

interface Comparator {
  op: "<" | "<=" | ">" | ">=" | "=";
  version: Version;
}

/**
 * An advisory's range: comparators joined by spaces (all must hold), e.g.
 * ">=5.0.0-beta.0 <5.0.0-beta.32". Prereleases are ordered, not excluded
 * (unlike npm's install rule): an advisory names the betas it covers.
 * Throws on anything else, so a mistyped table fails its test.
 */
export function parseRange(range: string): Comparator[] {
  const parts = range.trim().split(/\s+/);
  if (parts.length === 0 || parts[0] === "") throw new Error(`empty range: "${range}"`);
  return parts.map((part) => {
    const match = /^(<=|>=|<|>|=)?(.+)$/.exec(part)!;
    const version = parseVersion(match[2]!);
    if (!version) throw new Error(`not a version in range "${range}": ${match[2]}`);
    return { op: (match[1] ?? "=") as Comparator["op"], version };
  });
}

export function inRange(version: string, range: string): boolean {
  const v = parseVersion(version);
  if (!v) return false;
  return parseRange(range).every(({ op, version: bound }) => {
    const c = compareVersions(v, bound);
    return op === "<" ? c < 0 : op === "<=" ? c <= 0 : op === ">" ? c > 0 : op === ">=" ? c >= 0 : c === 0;
  });
}

/** `npm:name@spec` aliases read as their spec. */
const unalias = (spec: string) => spec.trim().replace(/^npm:(?:@[^/@]+\/)?[^@]+@/, "");

/** "4", "4.24", "4.x", "4.24.*": the numbers given, undefined for the wildcards. */
function partial(text: string): [number, number | undefined, number | undefined] | undefined {
  const match = /^v?(\d+)(?:\.(\d+|[xX*]))?(?:\.(\d+|[xX*]))?$/.exec(text);
  if (!match) return undefined;
  const n = (s: string | undefined) => (s === undefined || /^[xX*]$/.test(s) ? undefined : Number(s));
  return [Number(match[1]), n(match[2]), n(match[3])];
}

/**
 * The lowest version a package.json spec admits: "^4.24.5", "~4.24.5",
 * "4.24.5", "=4.24.5", ">=4.24.5", "4.x", "^5.0.0-beta.25". Undefined for
 * what it cannot tell: "latest", "*", a URL, "workspace:*", "a || b", "<5".
 */
export function specFloor(spec: string): string | undefined {
  const text = unalias(spec);
  const match = /^(\^|~|>=|=)?\s*(\S+)$/.exec(text);
  if (!match) return undefined;
  const exact = parseVersion(match[2]!);
  if (exact) return format(exact);
  const numbers = partial(match[2]!);
  if (!numbers) return undefined;
  return `${numbers[0]}.${numbers[1] ?? 0}.${numbers[2] ?? 0}`;
}

/**
 * The spec raised to `to`, its operator kept: "^4.24.5" → "^4.24.15",
 * "4.24.11" → "4.24.15", "~0.41.0" → "~0.41.3"; a partial one ("4.x",
 * "^4") becomes "^to". Undefined for specs specFloor cannot read.
 */
export function raiseSpec(spec: string, to: string): string | undefined {
  const text = spec.trim();
  const alias = /^(npm:(?:@[^/@]+\/)?[^@]+@)(.*)$/.exec(text);
  if (alias) {
    const raised = raiseSpec(alias[2]!, to);
    return raised && `${alias[1]}${raised}`;
  }
  const match = /^(\^|~|>=|=)?\s*(\S+)$/.exec(text);
  if (!match || specFloor(text) === undefined) return undefined;
  return parseVersion(match[2]!) ? `${match[1] ?? ""}${to}` : `^${to}`;
}
