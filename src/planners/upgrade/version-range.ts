/**
 * npm's version ranges, as far as a peer check needs them: does a version
 * (from the lockfile) fall in a range, can two ranges (package.json's and a
 * peer's) both hold, and the lowest version a range takes above a given one.
 * A range is read into intervals: `^1.2.3 || >=3 <4` is [1.2.3, 2.0.0) and
 * [3.0.0, 4.0.0). A prerelease sorts just below its release, which is close
 * enough here: create-auth never chooses one and peer ranges rarely name one.
 * What is not a semver range (a tag, a URL, `workspace:`, `npm:` aliases)
 * reads as undefined, and the caller leaves that package alone.
 */

/** major, minor, patch, then 0 for a prerelease and 1 for a release. */
type Version = readonly [number, number, number, number];
interface Interval {
  low: Version;
  /** Exclusive; none when the range has no upper end. */
  high?: Version;
}

const zero: Version = [0, 0, 0, 0];

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 4; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return 0;
}

/** "1.2.3", "v1.2", "1.x", "*": the numbers given (x and missing parts are undefined), and whether it is a prerelease. */
function partial(text: string): { parts: (number | undefined)[]; pre: boolean } | undefined {
  const match = /^v?(\*|x|X|\d+)(?:\.(\*|x|X|\d+))?(?:\.(\*|x|X|\d+))?(-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/.exec(
    text,
  );
  if (!match) return undefined;
  const parts = [match[1], match[2], match[3]].map((p) =>
    p === undefined || /^[*xX]$/.test(p) ? undefined : Number(p),
  );
  // Nothing given after an x: "1.x.3" reads as 1.x.
  const first = parts.indexOf(undefined);
  return { parts: first < 0 ? parts : [...parts.slice(0, first), undefined, undefined].slice(0, 3), pre: !!match[4] };
}

const version = (parts: (number | undefined)[], pre = false): Version => [
  parts[0] ?? 0,
  parts[1] ?? 0,
  parts[2] ?? 0,
  pre ? 0 : 1,
];

/** The first version above every version the partial covers: 1.2 → 1.3.0, 1 → 2.0.0. */
function after(parts: (number | undefined)[]): Version | undefined {
  if (parts[0] === undefined) return undefined;
  if (parts[1] === undefined) return [parts[0] + 1, 0, 0, 0];
  if (parts[2] === undefined) return [parts[0], parts[1] + 1, 0, 0];
  return [parts[0], parts[1], parts[2] + 1, 0];
}

/** One comparator (`^1.2.3`, `>=2`, `~0.28`, `1.x`) as an interval. */
function comparator(text: string): Interval | undefined {
  const match = /^(\^|~>?|>=|<=|>|<|=)?\s*(.+)$/.exec(text);
  const given = match && partial(match[2]!);
  if (!match || !given) return undefined;
  const { parts, pre } = given;
  const op = match[1] ?? "";
  const low = version(parts, pre);
  switch (op) {
    case ">=":
      return { low };
    case ">": {
      const next = parts[2] === undefined ? after(parts) : ([parts[0]!, parts[1]!, parts[2], 2] as const);
      return next ? { low: next } : { low: zero, high: zero };
    }
    case "<":
      return { low: zero, high: parts[0] === undefined ? zero : version(parts, true) };
    case "<=": {
      const high = parts[2] === undefined ? after(parts) : ([parts[0]!, parts[1]!, parts[2], 2] as const);
      return high ? { low: zero, high } : { low: zero };
    }
    case "^": {
      const [major, minor, patch] = parts;
      if (major === undefined) return { low: zero };
      if (major > 0 || minor === undefined) return { low, high: [major + 1, 0, 0, 0] };
      if (minor > 0 || patch === undefined) return { low, high: [0, minor + 1, 0, 0] };
      return { low, high: [0, 0, patch + 1, 0] };
    }
    case "~":
    case "~>": {
      const [major, minor] = parts;
      if (major === undefined) return { low: zero };
      return { low, high: minor === undefined ? [major + 1, 0, 0, 0] : [major, minor + 1, 0, 0] };
    }
    default: {
      if (parts[2] !== undefined) return { low, high: [parts[0]!, parts[1]!, parts[2], 2] };
      const high = after(parts);
      return high ? { low, high } : { low: zero };
    }
  }
}

function overlap(a: Interval, b: Interval): Interval | undefined {
  const low = compare(a.low, b.low) >= 0 ? a.low : b.low;
  const high = !a.high ? b.high : !b.high ? a.high : compare(a.high, b.high) <= 0 ? a.high : b.high;
  return high && compare(low, high) >= 0 ? undefined : { low, ...(high ? { high } : {}) };
}

/** A range as the intervals it allows (empty when it allows none); undefined when it is not a semver range. */
function intervals(range: string): Interval[] | undefined {
  const out: Interval[] = [];
  for (const alternative of range.trim().split("||")) {
    const text = alternative.trim().replace(/(\^|~>?|>=|<=|>|<|=)\s+/g, "$1");
    const hyphen = /^(\S+)\s+-\s+(\S+)$/.exec(text);
    const comparators = hyphen ? [`>=${hyphen[1]}`, `<=${hyphen[2]}`] : text === "" ? ["*"] : text.split(/\s+/);
    let current: Interval | undefined = { low: zero };
    for (const c of comparators) {
      const next = comparator(c);
      if (!next) return undefined;
      current = current && overlap(current, next);
    }
    if (current) out.push(current);
  }
  return out;
}

const contains = (interval: Interval, v: Version) =>
  compare(v, interval.low) >= 0 && (!interval.high || compare(v, interval.high) < 0);

function exact(text: string): Version | undefined {
  const given = partial(text.trim().replace(/^=/, ""));
  return given && given.parts[2] !== undefined ? version(given.parts, given.pre) : undefined;
}

/** Whether `range` takes `candidate`; undefined when either cannot be read. */
export function satisfies(candidate: string, range: string): boolean | undefined {
  const v = exact(candidate);
  const allowed = intervals(range);
  if (!v || !allowed) return undefined;
  return allowed.some((interval) => contains(interval, v));
}

/** Whether some version is in both ranges (an exact version is a range of one); undefined when either cannot be read. */
export function intersects(a: string, b: string): boolean | undefined {
  const left = intervals(a);
  const right = intervals(b);
  if (!left || !right) return undefined;
  return left.some((l) => right.some((r) => overlap(l, r) !== undefined));
}

/**
 * The lowest version `range` allows above what `current` (a version or a
 * range) allows, as `^x.y.z`: what to raise a dependency to so that a peer
 * range holds. Undefined when the range allows nothing higher.
 */
export function raisedRange(current: string, range: string): string | undefined {
  const allowed = intervals(range);
  const now = intervals(current);
  if (!allowed || !now?.length) return undefined;
  const highest = now.reduce((top, i) => (compare(i.low, top) > 0 ? i.low : top), zero);
  const above = allowed
    .map((i) => i.low)
    .filter((low) => compare(low, highest) > 0)
    .sort(compare)[0];
  return above && `^${above.slice(0, 3).join(".")}`;
}
