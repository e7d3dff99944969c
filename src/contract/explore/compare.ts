/**
 * Adapter results against the model, with the tolerances of the failure
 * policy (spec/tolerance.ts, shared with the cases). A type the spec states
 * (§2.9) or a value that is not the one written is a divergence.
 */
import { z } from "zod";
import {
  adapterAccountSchema,
  adapterAuthenticatorSchema,
  adapterSessionSchema,
  adapterUserSchema,
  verificationTokenSchema,
} from "../../schemas/adapter-models.js";
import { changedByCaller } from "../access/answers.js";
import { describeValue } from "../spec/failure.js";
import { firstMismatch, sameId } from "../spec/tolerance.js";
import type { AccountRecord, AuthenticatorRecord, Model, SessionRecord, TokenRecord, UserRecord } from "./model.js";
import { Divergence, type Probe } from "./probe.js";
import type { TraceCall } from "./trace.js";

type Row = Record<string, any>;

export { sameId } from "../spec/tolerance.js";

const isId = (v: unknown) => (typeof v === "string" && v.length > 0) || Number.isInteger(v);
const isDate = (v: unknown) => v instanceof Date && !Number.isNaN(v.getTime());
const isOptional = (v: unknown, type: string) => v == null || typeof v === type;

/**
 * The common case without zod: a result whose fields all have their §2.9
 * types. Exploration checks tens of thousands of results a second; zod runs
 * only to word the problem when this says no.
 */
const quick = new Map<z.ZodTypeAny, (r: Row) => boolean>([
  [
    adapterUserSchema,
    (r) =>
      isId(r.id) &&
      typeof r.email === "string" &&
      (r.emailVerified === null || isDate(r.emailVerified)) &&
      isOptional(r.name, "string") &&
      isOptional(r.image, "string"),
  ],
  [
    adapterAccountSchema,
    (r) =>
      isId(r.userId) &&
      (r.type === "oauth" || r.type === "oidc" || r.type === "email" || r.type === "webauthn") &&
      typeof r.provider === "string" &&
      typeof r.providerAccountId === "string" &&
      isOptional(r.access_token, "string") &&
      isOptional(r.refresh_token, "string") &&
      isOptional(r.id_token, "string") &&
      isOptional(r.scope, "string") &&
      (r.expires_in == null || (typeof r.expires_in === "number" && !Number.isNaN(r.expires_in))) &&
      (r.expires_at == null || (typeof r.expires_at === "number" && !Number.isNaN(r.expires_at))) &&
      (r.token_type == null || (typeof r.token_type === "string" && r.token_type === r.token_type.toLowerCase())),
  ],
  [adapterSessionSchema, (r) => typeof r.sessionToken === "string" && isId(r.userId) && isDate(r.expires)],
  [
    verificationTokenSchema,
    (r) => typeof r.identifier === "string" && typeof r.token === "string" && isDate(r.expires),
  ],
  [
    adapterAuthenticatorSchema,
    (r) =>
      typeof r.credentialID === "string" &&
      typeof r.credentialPublicKey === "string" &&
      typeof r.counter === "number" &&
      !Number.isNaN(r.counter) &&
      typeof r.credentialDeviceType === "string" &&
      typeof r.credentialBackedUp === "boolean" &&
      typeof r.providerAccountId === "string" &&
      isId(r.userId) &&
      isOptional(r.transports, "string"),
  ],
]);

/**
 * A user created without an email (@auth/core does so when a provider gives
 * none) may come back with null, nothing or "" (§2.10's default) for it.
 */
export const userWithoutEmailSchema = adapterUserSchema.extend({ email: z.string().nullish() });
quick.set(
  userWithoutEmailSchema,
  (r) => (r.email == null || typeof r.email === "string") && quick.get(adapterUserSchema)!({ ...r, email: "" }),
);

const noEmail = (value: unknown) => value == null || value === "";

/** The user model a user's results must match: without an email, the email may be empty. */
export function userSchemaFor(u: { email: string | null }): z.ZodTypeAny {
  return u.email === null ? userWithoutEmailSchema : adapterUserSchema;
}

/** The first field of a user's result that is not what the model holds (an empty email for a user without one). */
export function userProblem(row: Row, expected: Row): string | undefined {
  if (expected.email === null || expected.email === undefined) {
    const { email: _, ...rest } = expected;
    return noEmail(row.email) ? fieldProblem(row, rest) : `email is ${describeValue(row.email)}, expected none`;
  }
  return fieldProblem(row, expected);
}

/** A §2.9 type problem in `value`, as one line, or undefined. */
export function typeProblem(schema: z.ZodTypeAny, value: unknown): string | undefined {
  if (value !== null && typeof value === "object" && quick.get(schema)?.(value as Row)) return undefined;
  const parsed = schema.safeParse(value);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0]!;
  const path = issue.path.length > 0 ? `${issue.path.join(".")}: ` : "";
  return `${path}${issue.message}`;
}

/** The first field of `expected` that `actual` does not hold, or undefined. */
export function fieldProblem(actual: Row, expected: Row): string | undefined {
  const mismatch = firstMismatch(actual, expected);
  if (!mismatch) return undefined;
  const problem = `${mismatch.key} is ${describeValue(mismatch.actual)}, expected ${describeValue(mismatch.expected)}`;
  return `${problem}${whereStringsDiffer(mismatch.actual, mismatch.expected)}`;
}

/**
 * Where two long strings part, when their shortened forms read alike (a column that cut a value shows only
 * past the 77 characters a value is shortened to): their lengths and the first character that differs.
 */
function whereStringsDiffer(actual: unknown, expected: unknown): string {
  if (typeof actual !== "string" || typeof expected !== "string") return "";
  if (describeValue(actual) !== describeValue(expected)) return "";
  const a = [...actual];
  const e = [...expected];
  let at = 0;
  while (at < a.length && at < e.length && a[at] === e[at]) at++;
  const from =
    a.length === e.length || at < Math.min(a.length, e.length) ? `; they differ from character ${at + 1}` : "";
  return ` (${a.length} characters, expected ${e.length}${from || `; the first ${at} agree`})`;
}

function typed(p: Probe, call: TraceCall, schema: z.ZodTypeAny, value: unknown, what: string): Row {
  const changed = changedByCaller(value);
  if (changed)
    throw new Divergence(
      `${what} holds a change a caller made to an earlier result (${changed}): the adapter hands out its stored objects instead of copies`,
      undefined,
      describeValue(value),
      call,
      true,
    );
  const problem = typeProblem(schema, value);
  if (problem) p.fail(`${what} has the wrong type: ${problem}`, call, undefined, value);
  return value as Row;
}

export function userFields(u: UserRecord): Row {
  return { id: u.id, email: u.email, emailVerified: u.emailVerified, name: u.name, image: u.image };
}

/** A user as it is now in the model; `among` names who else it could wrongly be. */
export function expectUser(p: Probe, call: TraceCall, actual: unknown, user: UserRecord, model: Model): void {
  const what = `${call.method} result`;
  if (actual == null)
    p.fail(
      `${call.method} found no user, but ${user.label} exists (a record not found after it was written)`,
      call,
      user.label,
      actual,
    );
  const row = typed(p, call, userSchemaFor(user), actual, what);
  if (!sameId(row.id, user.id)) {
    const other = model.users.find((u) => sameId(row.id, u.id));
    p.fail(
      other
        ? `${call.method} returned ${other.label} instead of ${user.label} (the wrong user would be signed in)`
        : `${call.method} returned a user with an id no user has, instead of ${user.label}`,
      call,
      `${user.label} (id ${describeValue(user.id)})`,
      // The whole user, not its id alone: an id means nothing to a reader whose run made other ones.
      row,
    );
  }
  const problem = userProblem(row, userFields(user));
  if (problem) p.fail(`${what} for ${user.label}: ${problem} (not what was last written)`, call, undefined, row);
}

/** A getter's "not found": exactly null (§4.2 outputs, §7.3). */
export function expectNull(p: Probe, call: TraceCall, actual: unknown, why: string): void {
  if (actual === null) return;
  if (actual === undefined)
    p.fail(`${call.method} returned undefined ${why}; it must return null`, call, "null", actual);
  p.fail(`${call.method} found a record ${why}`, call, "null", actual);
}

export function accountFields(a: AccountRecord): Row {
  return { userId: a.user.id, ...a.fields };
}

export function expectAccount(p: Probe, call: TraceCall, actual: unknown, account: AccountRecord): void {
  if (actual == null)
    p.fail(
      `${call.method} found no account, but ${account.label} is linked (a record not found after it was written)`,
      call,
      account.label,
      actual,
    );
  const row = typed(p, call, adapterAccountSchema, actual, `${call.method} result`);
  const problem = fieldProblem(row, accountFields(account));
  if (problem) p.fail(`${call.method} result for ${account.label}: ${problem}`, call, undefined, row);
}

function expectSession(p: Probe, call: TraceCall, row: Row, session: SessionRecord, what: string): void {
  const problem = fieldProblem(row, {
    sessionToken: session.sessionToken,
    userId: session.user.id,
    expires: session.expires,
  });
  if (problem) p.fail(`${what} for ${session.label}: ${problem}`, call, undefined, row);
}

export function expectSessionAndUser(
  p: Probe,
  call: TraceCall,
  actual: unknown,
  session: SessionRecord,
  model: Model,
): void {
  if (actual == null)
    p.fail(
      `getSessionAndUser found nothing for ${session.label}, a live session (the user would be signed out)`,
      call,
      `${session.label} and ${session.user.label}`,
      actual,
    );
  const row = actual as Row;
  typed(p, call, adapterSessionSchema, row.session, "getSessionAndUser result.session");
  typed(p, call, userSchemaFor(session.user), row.user, "getSessionAndUser result.user");
  if (!sameId(row.user.id, session.user.id)) {
    const other = model.users.find((u) => sameId(row.user.id, u.id));
    p.fail(
      `getSessionAndUser returned ${other?.label ?? "another user"} for ${session.label} of ${session.user.label} (the wrong user would be signed in)`,
      call,
      session.user.label,
      row.user,
    );
  }
  expectSession(p, call, row.session, session, "getSessionAndUser result.session");
  const problem = userProblem(row.user, userFields(session.user));
  if (problem)
    p.fail(
      `getSessionAndUser result.user for ${session.user.label}: ${problem} (not the user as it is now)`,
      call,
      undefined,
      row.user,
    );
}

export function expectToken(p: Probe, call: TraceCall, actual: unknown, token: TokenRecord): void {
  if (actual == null)
    p.fail(
      `useVerificationToken found nothing for ${token.label}, a pending token (a valid sign-in link would be refused)`,
      call,
      token.label,
      actual,
    );
  const row = typed(p, call, verificationTokenSchema, actual, "useVerificationToken result");
  const problem = fieldProblem(row, { identifier: token.identifier, token: token.token, expires: token.expires });
  if (problem) p.fail(`useVerificationToken result for ${token.label}: ${problem}`, call, undefined, row);
}

export function authenticatorFields(a: AuthenticatorRecord): Row {
  return { ...a.fields, userId: a.user.id };
}

export function expectAuthenticator(p: Probe, call: TraceCall, actual: unknown, auth: AuthenticatorRecord): void {
  if (actual == null)
    p.fail(
      `${call.method} found nothing for ${auth.label} (a record not found after it was written)`,
      call,
      auth.label,
      actual,
    );
  const row = typed(p, call, adapterAuthenticatorSchema, actual, `${call.method} result`);
  if (auth.counterChoices) {
    // Two counter updates raced: either value may have won; the model follows the store.
    if (!auth.counterChoices.includes(row.counter))
      p.fail(
        `${call.method}: counter of ${auth.label} is neither of the two raced values`,
        call,
        auth.counterChoices.join(" or "),
        row.counter,
      );
    auth.fields.counter = row.counter;
    auth.counterChoices = undefined;
  }
  const problem = fieldProblem(row, authenticatorFields(auth));
  if (problem) p.fail(`${call.method} result for ${auth.label}: ${problem}`, call, undefined, row);
}
