/**
 * The published security advisories for the Auth.js packages create-auth
 * installs, kept offline so doctor and init need no network. One row per
 * advisory and package line: the range it affects (comparators that must all
 * hold: ">=A <B"), the first version of that line with the fix, the
 * advisory's id, its severity as GitHub's advisory database gives it, and
 * what it lets an attacker do, in one line.
 *
 * How to update it (README, "Known advisories"): read the advisory on
 * https://github.com/advisories/<id> (or https://osv.dev/vulnerability/<id>),
 * add one row per affected package line with the range and the fixed
 * version it names, and run `npx vitest run test/catalog/advisories.test.ts`
 * (it parses every range and checks each fixed version lies outside it).
 * Raise the floors in dependencies.ts to the fixed versions in the same change.
 */

export type AdvisorySeverity = "critical" | "high" | "moderate" | "low";

export interface AdvisoryRow {
  id: string;
  package: string;
  /** Comparators, all of which hold for an affected version. */
  affected: string;
  /** The first version after the range with the fix (same line). */
  fixed: string;
  severity: AdvisorySeverity;
  /** What an attacker can do, one line, for doctor's finding. */
  impact: string;
}

const homoglyphAt =
  "a look-alike of '@' in an email address passes Auth.js's check, so a sign-in link can be mailed to another inbox";
const failOpen =
  "after a configuration error (a missing AUTH_SECRET, a provider without endpoints) auth() returns an error object, so a check that only tests whether it is set lets every visitor in";
const getTokenThrows =
  "getToken() throws on a malformed 'Authorization: Bearer' header, so one request can crash the handler that calls it";
const checksNotBound =
  "the state, nonce and PKCE cookies are not tied to the provider that set them, so with several OAuth providers and account linking an attacker can link their account to a victim's";

export const advisoryRows: readonly AdvisoryRow[] = [
  // Fixed in next-auth 4.24.15 and 5.0.0-beta.32 and @auth/core 0.41.3 (published 2026-07-23).
  {
    id: "GHSA-7rqj-j65f-68wh",
    package: "next-auth",
    affected: ">=4.0.0 <4.24.15",
    fixed: "4.24.15",
    severity: "critical",
    impact: homoglyphAt,
  },
  {
    id: "GHSA-7rqj-j65f-68wh",
    package: "next-auth",
    affected: ">=5.0.0-beta.0 <5.0.0-beta.32",
    fixed: "5.0.0-beta.32",
    severity: "critical",
    impact: homoglyphAt,
  },
  {
    id: "GHSA-7rqj-j65f-68wh",
    package: "@auth/core",
    affected: ">=0.1.0 <0.41.3",
    fixed: "0.41.3",
    severity: "critical",
    impact: homoglyphAt,
  },
  {
    id: "GHSA-8fpg-xm3f-6cx3",
    package: "next-auth",
    affected: ">=5.0.0-beta.0 <5.0.0-beta.32",
    fixed: "5.0.0-beta.32",
    severity: "critical",
    impact: failOpen,
  },
  {
    id: "GHSA-xmf8-cvqr-rfgj",
    package: "next-auth",
    affected: ">=4.0.6 <4.24.15",
    fixed: "4.24.15",
    severity: "high",
    impact: getTokenThrows,
  },
  {
    id: "GHSA-xmf8-cvqr-rfgj",
    package: "next-auth",
    affected: ">=5.0.0-beta.0 <5.0.0-beta.32",
    fixed: "5.0.0-beta.32",
    severity: "high",
    impact: getTokenThrows,
  },
  {
    id: "GHSA-xmf8-cvqr-rfgj",
    package: "@auth/core",
    affected: ">=0.1.0 <0.41.3",
    fixed: "0.41.3",
    severity: "high",
    impact: getTokenThrows,
  },
  {
    id: "GHSA-x445-f3h2-j279",
    package: "next-auth",
    affected: "<4.24.15",
    fixed: "4.24.15",
    severity: "moderate",
    impact: checksNotBound,
  },
  {
    id: "GHSA-x445-f3h2-j279",
    package: "next-auth",
    affected: ">=5.0.0-beta.1 <5.0.0-beta.32",
    fixed: "5.0.0-beta.32",
    severity: "moderate",
    impact: checksNotBound,
  },
  {
    id: "GHSA-x445-f3h2-j279",
    package: "@auth/core",
    affected: "<0.41.3",
    fixed: "0.41.3",
    severity: "moderate",
    impact: checksNotBound,
  },
];
