/**
 * A next-auth v4 project, read as it is: doctor checks it as v4 runs, and
 * names what moving to v5 would change in this project (what `create-auth
 * upgrade` rewrites), so the move can be planned from one line.
 */
import type { ProjectFacts } from "../../doctor-model/facts.js";
import { type CheckGroup, defineCheck, type Finding } from "../../doctor-model/finding.js";

const onV4 = defineCheck(
  "next-auth.v4",
  "info",
  "The project runs next-auth v4; the finding lists what next-auth v5 would need changed in it (create-auth upgrade makes those changes).",
);

/** What v5 needs of this project, in the order a reader meets it. */
function v5Needs(facts: ProjectFacts): string[] {
  const needs = ["authOptions handed to NextAuth(config), which exports handlers, auth, signIn and signOut"];
  if (/(?:^|\/)pages\/api\/auth\/\[\.\.\.nextauth\]\.[cm]?[jt]sx?$/.test(facts.config.file))
    needs.push(`the route moved from ${facts.config.file} to app/api/auth/[...nextauth]/route.ts`);
  const oldAdapters = facts.config.packages.filter((name) => /^@next-auth\/[a-z0-9-]+-adapter$/.test(name));
  for (const name of oldAdapters) needs.push(`${name} replaced by ${name.replace("@next-auth/", "@auth/")}`);
  const v4Names = Object.keys(facts.env)
    .filter((name) => /^NEXTAUTH_(?:URL|SECRET)$/.test(name) && facts.env[name]!.value !== "")
    .sort();
  if (v4Names.length)
    needs.push(
      `${v4Names.join(" and ")} renamed to ${v4Names.map((n) => n.replace("NEXTAUTH_", "AUTH_")).join(" and ")}`,
    );
  const trusts = ["AUTH_URL", "AUTH_TRUST_HOST", "VERCEL", "CF_PAGES"].some((name) => facts.env[name]?.value);
  if (facts.env.NEXTAUTH_URL?.value && !trusts)
    needs.push("AUTH_TRUST_HOST=true or AUTH_URL under your own server (v5 never trusts the host from NEXTAUTH_URL)");
  return needs;
}

function upgradeFindings(facts: ProjectFacts): Finding[] {
  if (facts.nextAuthMajor !== 4) return [];
  return [
    onV4.report(
      `next-auth v4: for v5 this project needs ${v5Needs(facts).join("; ")}.`,
      "Run create-auth upgrade --dry-run to see every change, then create-auth upgrade. https://authjs.dev/getting-started/migrating-to-v5",
      facts.config.file,
    ),
  ];
}

export const upgradeChecks: CheckGroup = { checks: [onV4], run: upgradeFindings };
