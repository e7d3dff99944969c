/**
 * Carries a change between two renderings of a generated file onto the
 * file as it is on disk: each changed region, with a line of context on
 * either side, must be found exactly once there, whole lines, and is
 * replaced; otherwise nothing is changed. This is how a later command adds
 * to a file an earlier one generated (federated sign-out into init's session
 * module) without rewriting what the user changed elsewhere in it.
 */

export interface CarriedChange {
  /** The file with the change, or undefined when a region was not found once as it was generated. */
  text: string | undefined;
  /** The lines the change adds, for a message when it could not be carried. */
  added: string[];
}

/** Where `needle` occurs in `haystack` as whole lines. */
function wholeLineMatches(haystack: string, needle: string): number[] {
  const found: number[] = [];
  for (let at = haystack.indexOf(needle); at !== -1; at = haystack.indexOf(needle, at + 1)) {
    const startsLine = at === 0 || haystack[at - 1] === "\n";
    const next = haystack[at + needle.length];
    if (startsLine && (next === undefined || next === "\n" || next === "\r")) found.push(at);
  }
  return found;
}

export async function carryChange(before: string, after: string, target: string): Promise<CarriedChange> {
  const { structuredPatch } = await import("diff");
  const crlf = target.includes("\r\n");
  const lines = (list: string[]) => list.map((l) => l.slice(1)).join(crlf ? "\r\n" : "\n");
  const patch = structuredPatch("before", "after", before, after, "", "", { context: 1 });
  const added = patch.hunks.flatMap((h) => h.lines.filter((l) => l.startsWith("+")).map((l) => l.slice(1)));
  let text = target;
  // Last region first: the earlier ones keep their positions.
  for (const hunk of [...patch.hunks].reverse()) {
    const body = hunk.lines.filter((l) => !l.startsWith("\\"));
    const from = lines(body.filter((l) => !l.startsWith("+")));
    const to = lines(body.filter((l) => !l.startsWith("-")));
    const at = wholeLineMatches(text, from);
    if (at.length !== 1) return { text: undefined, added };
    text = text.slice(0, at[0]) + to + text.slice(at[0]! + from.length);
  }
  return { text, added };
}
