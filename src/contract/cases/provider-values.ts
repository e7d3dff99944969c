/**
 * Accounts, users and sign-in links with the values @auth/core really
 * stores, on every run rather than when a seed draws them:
 *
 * - providerAccountId is whatever the provider's profile() returns as `id`:
 *   numeric ids as text (GitHub's, Twitter's and Google's `sub`, past 2⁵³),
 *   Apple's dotted `sub` with leading zeros, Auth0's `provider|id`,
 *   Microsoft's base64url `sub` in mixed case, the email address for the
 *   email provider, the credential ID in standard base64 for passkeys, a
 *   uuid when a profile has none;
 * - emails are lowercased (and NFKC-normalised for email sign-in), so any
 *   script, plus tags, apostrophes, `%` and `_` are stored as given, up to
 *   254 characters; a sign-in link's identifier is that address.
 *
 * Each value is its own key: two that a store could confuse (`7` and `007`,
 * two 21-digit ids one apart, `a_b` and `axb`) belong to different users.
 */
import { adapterAccountSchema, adapterUserSchema, verificationTokenSchema } from "../../schemas/adapter-models.js";
import type { CaseContext } from "../access/context.js";
import { defineCases } from "../spec/case.js";

/** providerAccountIds as @auth/core's providers produce them; neighbours in the list go to different users. */
function providerAccountIds(t: CaseContext, email: string): Array<[shape: string, id: string]> {
  const tag = t.data.tag();
  return [
    ["a one-digit id", "0"],
    ["a numeric id", "7"],
    ["the same number with leading zeros", "007"],
    ["a 21-digit id (past 2^53)", "109876543210987654321"],
    ["the 21-digit id one more", "109876543210987654322"],
    ["Apple's dotted sub", `001234.${tag}0a1b2c3d4e5f60718293a4b5c6d7e8.0123`],
    ["Auth0's provider|id", `google-oauth2|1${tag.replace(/\D/g, "7")}`],
    ["Microsoft's base64url sub", `AAAAAAAAAAAAAAAAAAAAAIkzqFVrSaSaFHy782bb${tag.slice(0, 3).toUpperCase()}`],
    ["an email address (the email provider)", email],
    ["a credential ID (the passkey provider)", t.data.credentialID(32)],
    ["a uuid", t.data.unknownId()],
    ["255 characters", `${"x".repeat(247)}${tag}`],
  ];
}

/** Addresses as @auth/core stores them (lowercase), each with this run's tag so runs never share one. */
function emailShapes(t: CaseContext) {
  const tag = t.data.tag();
  const domain = `${tag}.example.test`;
  return {
    plusTag: `jane.doe+auth@${domain}`,
    apostrophe: `o'connor@${domain}`,
    underscore: `ann_lee@${domain}`,
    // What "ann_lee" also matches as a LIKE pattern: another user's address.
    underscoreNeighbour: `annxlee@${domain}`,
    percent: `100%sure@${domain}`,
    unicode: `δοκιμή.müller@${tag}.παράδειγμα.test`,
    // 64 characters before the @ and 254 in all, the most mail allows.
    longest: `${"l".repeat(56)}${tag}@${"d".repeat(63)}.${"e".repeat(63)}.${"f".repeat(48)}.example.test`,
  };
}

/** An address no user or link has that a store reading the lookup as a pattern (LIKE, a glob) or a form would match. */
function misreadings(shapes: ReturnType<typeof emailShapes>): Array<[stored: string, lookup: string]> {
  return [
    [shapes.plusTag, shapes.plusTag.replace("+", " ")],
    [shapes.apostrophe, shapes.apostrophe.replace("'", "_")],
    [shapes.underscoreNeighbour, shapes.underscore.replace("ann_lee", "a_nxlee")],
    [shapes.underscore, shapes.underscore.replace("_lee", "%")],
    [shapes.percent, shapes.percent.replace("sure", "%e")],
    [shapes.unicode, shapes.unicode.replace("δοκιμή", "%")],
  ];
}

export const providerValueCases = defineCases([
  {
    id: "account.values.provider-account-ids",
    title: "providerAccountIds of every shape providers produce lead to their own user, none to another's",
    section: "§2.9, §4.2",
    capability: "users",
    needs: ["createUser", "linkAccount", "getUserByAccount"],
    async run(t) {
      const owners = [await t.createUser(), await t.createUser(), await t.createUser()];
      const provider = t.data.provider();
      const accounts = providerAccountIds(t, owners[0]!.email).map(([shape, providerAccountId], i) => ({
        shape,
        providerAccountId,
        owner: owners[i % owners.length]!,
      }));
      for (const { providerAccountId, owner } of accounts)
        await t.linkAccount(owner.id, { provider, providerAccountId, type: "oidc" });
      const found = await t.together(accounts, async ({ providerAccountId }) => ({
        user: await t.call("getUserByAccount", { provider, providerAccountId }),
        account: t.has("getAccount") ? await t.call("getAccount", providerAccountId, provider) : undefined,
      }));
      for (const [i, { shape, providerAccountId, owner }] of accounts.entries()) {
        const user = t.model(adapterUserSchema, found[i]!.user, `getUserByAccount(${shape})`);
        t.sameId(user.id, owner.id, `the user getUserByAccount finds for ${shape}`);
        if (!t.has("getAccount")) continue;
        const account = t.model(adapterAccountSchema, found[i]!.account, `getAccount(${shape})`);
        t.fields(account, { providerAccountId, userId: owner.id }, `getAccount(${shape})`);
      }
    },
  },
  {
    id: "user.values.email-shapes",
    title: "addresses with + tags, apostrophes, % and _, any script and 254 characters are found exactly",
    section: "§2.9, §4.2",
    capability: "users",
    needs: ["createUser", "getUserByEmail"],
    async run(t) {
      const shapes = emailShapes(t);
      const users = new Map<string, Record<string, unknown>>();
      for (const [shape, email] of Object.entries(shapes)) users.set(shape, await t.createUser({ email }));
      const exact = Object.entries(shapes);
      // Wildcards and a form's + in the address looked up are characters, not patterns.
      const near = misreadings(shapes);
      const found = await t.together([...exact.map(([, e]) => e), ...near.map(([, lookup]) => lookup)], (email) =>
        t.call("getUserByEmail", email),
      );
      for (const [i, [shape, email]] of exact.entries()) {
        const user = t.model(adapterUserSchema, found[i], `getUserByEmail(${shape})`);
        t.fields(user, { id: users.get(shape)!.id, email }, `getUserByEmail(${shape})`);
      }
      for (const [i, [stored, lookup]] of near.entries())
        t.isNull(found[exact.length + i], `getUserByEmail(${lookup}), near ${stored} but no user's address`);
    },
  },
  {
    id: "verification-token.values.identifiers",
    title: "sign-in links for addresses with + tags, apostrophes, % and _ are used by their exact address only",
    section: "§3, §5.4",
    capability: "email",
    needs: ["createVerificationToken", "useVerificationToken"],
    async run(t) {
      for (const [identifier, lookup] of misreadings(emailShapes(t))) {
        const token = await t.createVerificationToken({ identifier });
        t.isNull(
          await t.call("useVerificationToken", { identifier: lookup, token: token.token }),
          `useVerificationToken(${lookup}, the token of ${identifier})`,
        );
        const used = t.model(
          verificationTokenSchema,
          await t.call("useVerificationToken", { identifier, token: token.token }),
          `useVerificationToken(${identifier})`,
        );
        t.fields(used, token, `useVerificationToken(${identifier})`);
      }
    },
  },
  {
    id: "user.update.email-change-moves-lookup",
    title: "after an email change the user is found by the new address, not the old, and the old one is free",
    section: "§4.2",
    capability: "users",
    needs: ["createUser", "updateUser", "getUserByEmail"],
    async run(t) {
      const user = await t.createUser();
      const old = user.email as string;
      const changed = t.data.email();
      await t.call("updateUser", { id: user.id, email: changed });
      const found = t.model(adapterUserSchema, await t.call("getUserByEmail", changed), "getUserByEmail(new address)");
      t.sameId(found.id, user.id, "the user found by the new address");
      t.isNull(await t.call("getUserByEmail", old), "getUserByEmail(old address) after the change");
      // Someone else signs up with the address given up: the store's unique index must have moved too.
      const newcomer = await t.createUser({ email: old });
      const owner = t.model(adapterUserSchema, await t.call("getUserByEmail", old), "getUserByEmail(old address)");
      t.sameId(owner.id, newcomer.id, "the user found by the old address once someone else has it");
    },
  },
]);
