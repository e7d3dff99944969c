/**
 * The lives records have in a running service, beyond one sign-in: a person
 * deletes their account and comes back, signs up with a provider that gives
 * no email, changes their email and someone else takes the old one, moves a
 * provider account to another user, registers a passkey again, signs in and
 * out on many devices while others do too. A store whose unique rules still
 * count a removed row, or count a missing email as a value, fails only here.
 */
import { z } from "zod";
import { adapterAuthenticatorSchema, adapterUserSchema, sessionAndUserSchema } from "../../schemas/adapter-models.js";
import type { CaseContext } from "../access/context.js";
import { defineCases } from "../spec/case.js";
import { ContractFailure, describeValue } from "../spec/failure.js";

type Row = Record<string, any>;

/** A user created without an email: @auth/core passes `email: undefined`; a store may give back null or "" (§2.10's default). */
const userWithoutEmailSchema = adapterUserSchema.extend({ email: z.string().nullish() });

function hasNoEmail(user: Row, what: string): void {
  if (user.email != null && user.email !== "")
    throw new ContractFailure(`${what}.email should be empty: the user was created without one`, {
      expected: "null, undefined or an empty string",
      received: describeValue(user.email),
    });
}

/** The user a session token signs in, as every page of the signed-in person reads it. */
async function signedIn(t: CaseContext, sessionToken: string, userId: unknown, what: string): Promise<void> {
  const found = t.model(sessionAndUserSchema, await t.call("getSessionAndUser", sessionToken), what);
  t.sameId(found.user.id, userId, `${what}.user.id`);
}

export const lifecycleCases = defineCases([
  {
    id: "lifecycle.deleted-user.signs-up-again-with-same-email",
    title: "a person who deleted their account signs up again with the same email",
    section: "§2.10, §4.2",
    capability: "users",
    needs: ["createUser", "deleteUser", "getUser", "getUserByEmail"],
    async run(t) {
      const first = await t.createUser();
      await t.call("deleteUser", first.id);
      t.isNull(await t.call("getUserByEmail", first.email), "getUserByEmail after deleteUser");
      const input = t.data.user({ email: first.email });
      const again = t.model(
        adapterUserSchema,
        await t.callOnPath(
          "createUser",
          {
            when: "for the email of a deleted user",
            consequence: "a person who deleted their account cannot sign up again with the same email",
          },
          input,
        ),
        "createUser result",
      );
      t.ledger.user(again.id);
      t.check(String(again.id) !== String(first.id), "createUser gave the new user the deleted user's id", {
        expected: "a new id",
        received: describeValue(again.id),
      });
      const found = t.model(adapterUserSchema, await t.call("getUserByEmail", first.email), "getUserByEmail");
      t.sameId(found.id, again.id, "getUserByEmail(the email signed up again)");
      t.isNull(await t.call("getUser", first.id), "getUser(the deleted user)");
    },
  },
  {
    id: "lifecycle.deleted-user.signs-up-again-with-same-provider-account",
    title: "a person who deleted their account signs in again with the same provider account: a new user, linked",
    section: "§2.10, §4.2, §5.3",
    capability: "users",
    needs: ["createUser", "deleteUser", "linkAccount", "getUserByAccount"],
    async run(t) {
      const first = await t.createUser();
      const account = await t.linkAccount(first.id);
      const key = { provider: account.provider, providerAccountId: account.providerAccountId };
      await t.call("deleteUser", first.id);
      t.isNull(await t.call("getUserByAccount", key), "getUserByAccount after deleteUser");
      // The OAuth callback: no user for the key, so a new user and the same provider account linked to it.
      const again = await t.createUser();
      await t.callOnPath(
        "linkAccount",
        {
          when: "for the provider account of a deleted user",
          consequence: "a person who deleted their account cannot sign in again with the same provider",
        },
        { ...account, userId: again.id },
      );
      t.ledger.account(key);
      const found = t.model(adapterUserSchema, await t.call("getUserByAccount", key), "getUserByAccount");
      t.sameId(found.id, again.id, "getUserByAccount(the provider account linked again)");
      if (t.has("getAccount")) {
        const row = await t.call("getAccount", key.providerAccountId, key.provider);
        t.check(row != null, "getAccount found nothing for the provider account linked again", {
          expected: "the account",
          received: describeValue(row),
        });
        t.sameId(row.userId, again.id, "getAccount(the provider account linked again).userId");
      }
    },
  },
  {
    id: "lifecycle.users-without-email.several-at-once",
    title: "several people whose provider gives no email sign up: each is a user of their own",
    section: "§2.10, §4.2, §5.3",
    capability: "users",
    needs: ["createUser", "getUser", "linkAccount", "getUserByAccount"],
    async run(t) {
      // Someone with an email first: refusing users without one is tolerated only from a store that takes users.
      await t.createUser();
      const people: Array<{ user: Row; key: { provider: string; providerAccountId: string } }> = [];
      for (let i = 0; i < 3; i++) {
        // As @auth/core's OAuth callback does when the profile has no email.
        const input = { ...t.data.user(), email: undefined, emailVerified: null };
        let created: unknown;
        if (i === 0) {
          const first = await t.callOffPath(
            "createUser",
            {
              when: "for a user without an email",
              consequence:
                "the adapter interface types email as a string, but @auth/core creates such users when a provider gives no email, and those people cannot sign up",
            },
            input,
          );
          if (first.threw) return;
          created = first.value;
        } else {
          created = await t.callOnPath(
            "createUser",
            {
              when: `for user ${i + 1} without an email, after the first was stored`,
              consequence: "only one person whose provider gives no email can sign up",
            },
            input,
          );
        }
        const user = t.model(userWithoutEmailSchema, created, "createUser result");
        t.ledger.user(user.id);
        hasNoEmail(user, "createUser result");
        const key = { provider: t.data.provider(), providerAccountId: t.data.unknownId() };
        await t.linkAccount(user.id, key);
        people.push({ user, key });
      }
      const ids = new Set(people.map((p) => String(p.user.id)));
      t.check(ids.size === people.length, "createUser gave two users without an email the same id", {
        expected: `${people.length} ids`,
        received: describeValue([...ids]),
      });
      for (const [i, { user, key }] of people.entries()) {
        const byId = t.model(userWithoutEmailSchema, await t.call("getUser", user.id), `getUser(user ${i + 1})`);
        t.fields(byId, { id: user.id, name: user.name }, `getUser(user ${i + 1})`);
        hasNoEmail(byId, `getUser(user ${i + 1})`);
        const byAccount = t.model(
          userWithoutEmailSchema,
          await t.call("getUserByAccount", key),
          `getUserByAccount(user ${i + 1}'s account)`,
        );
        t.sameId(byAccount.id, user.id, `getUserByAccount(user ${i + 1}'s account)`);
      }
    },
  },
  {
    id: "lifecycle.changed-email.old-address-signs-up-anew",
    title: "an email is changed, a newcomer signs up with the old one, then the first account is deleted",
    section: "§4.2",
    capability: "users",
    needs: ["createUser", "updateUser", "deleteUser", "getUserByEmail"],
    async run(t) {
      const first = await t.createUser();
      const old = first.email as string;
      const changed = t.data.email();
      await t.call("updateUser", { id: first.id, email: changed });
      const newcomer = await t.createUser({ email: old });
      const owners = async (when: string) => {
        const byOld = t.model(
          adapterUserSchema,
          await t.call("getUserByEmail", old),
          `getUserByEmail(old address) ${when}`,
        );
        t.sameId(byOld.id, newcomer.id, `the user found by the old address ${when}`);
      };
      await owners("once the newcomer has it");
      const byNew = t.model(adapterUserSchema, await t.call("getUserByEmail", changed), "getUserByEmail(new address)");
      t.sameId(byNew.id, first.id, "the user found by the new address");
      // The first person leaves: the newcomer keeps their address, or their next email sign-in makes a second user.
      await t.call("deleteUser", first.id);
      await owners("after the first account, which had it before, was deleted");
      t.isNull(await t.call("getUserByEmail", changed), "getUserByEmail(new address) after deleteUser");
    },
  },
  {
    id: "lifecycle.unlinked-account.linked-to-another-user",
    title: "a provider account is unlinked from one user and linked to another",
    section: "§4.2",
    capability: "users",
    needs: ["createUser", "linkAccount", "unlinkAccount", "getUserByAccount"],
    async run(t) {
      const before = await t.createUser();
      const after = await t.createUser();
      const account = await t.linkAccount(before.id);
      const kept = await t.linkAccount(before.id);
      const key = { provider: account.provider, providerAccountId: account.providerAccountId };
      await t.call("unlinkAccount", key);
      t.isNull(await t.call("getUserByAccount", key), "getUserByAccount after unlinkAccount");
      await t.callOnPath(
        "linkAccount",
        {
          when: "for a provider account that was unlinked from another user",
          consequence: "a provider account once unlinked can never be linked to anyone again",
        },
        { ...account, userId: after.id },
      );
      const found = t.model(adapterUserSchema, await t.call("getUserByAccount", key), "getUserByAccount");
      t.sameId(found.id, after.id, "getUserByAccount(the account moved to another user)");
      const stays = t.model(
        adapterUserSchema,
        await t.call("getUserByAccount", { provider: kept.provider, providerAccountId: kept.providerAccountId }),
        "getUserByAccount(the first user's other account)",
      );
      t.sameId(stays.id, before.id, "getUserByAccount(the first user's other account)");
    },
  },
  {
    id: "lifecycle.passkey.removed-and-registered-again",
    title: "a passkey removed with its user is registered again by the person signing up anew",
    section: "§2.9, §2.10, §4.2, §7.2",
    capability: "webauthn",
    needs: ["createUser", "deleteUser", "linkAccount", "createAuthenticator", "getAuthenticator"],
    async run(t) {
      // @auth/core links a passkey's account with the credential ID as its providerAccountId.
      const credentialID = t.data.credentialID(32);
      const provider = t.data.provider();
      const first = await t.createUser();
      await t.link(t.data.bareAccount(first.id, { type: "webauthn", provider, providerAccountId: credentialID }));
      await t.createAuthenticator(first.id, credentialID, { credentialID });
      await t.call("deleteUser", first.id);
      t.isNull(await t.call("getAuthenticator", credentialID), "getAuthenticator after its user was deleted");
      const again = await t.createUser();
      await t.link(t.data.bareAccount(again.id, { type: "webauthn", provider, providerAccountId: credentialID }));
      const input = t.data.authenticator(again.id, credentialID, { credentialID });
      const created = t.model(
        adapterAuthenticatorSchema,
        await t.callOnPath(
          "createAuthenticator",
          {
            when: "for the credential ID of a passkey removed with its user",
            consequence: "a passkey once removed can never be registered again",
          },
          input,
        ),
        "createAuthenticator result",
      );
      t.ledger.authenticator(credentialID);
      t.sameId(created.userId, again.id, "createAuthenticator result.userId");
      const found = t.model(
        adapterAuthenticatorSchema,
        await t.call("getAuthenticator", credentialID),
        "getAuthenticator",
      );
      t.fields(found, { userId: again.id, counter: input.counter }, "getAuthenticator(the passkey registered again)");
      if (t.has("listAuthenticatorsByUserId")) {
        const list = await t.call("listAuthenticatorsByUserId", again.id);
        t.check(
          Array.isArray(list) && list.length === 1,
          "listAuthenticatorsByUserId(the new user) is not its one passkey",
          {
            expected: "1 authenticator",
            received: describeValue(list),
          },
        );
      }
    },
  },
  {
    id: "lifecycle.sessions.many-devices-while-others-sign-in",
    title:
      "one person signs in on four devices and out of them one by one while others sign in: only the session named goes",
    section: "§3, §4.2, §5.5",
    capability: "sessions",
    needs: ["createUser", "createSession", "getSessionAndUser", "deleteSession"],
    async run(t) {
      const person = await t.createUser();
      const others = [await t.createUser(), await t.createUser()];
      const devices: Row[] = [];
      const theirs: Row[] = [];
      // Each later sign-in expires later, as the service's maxAge from the time of sign-in makes it.
      for (let i = 0; i < 4; i++) {
        devices.push(await t.createSession(person.id, { expires: t.data.date(30 + i / 24) }));
        if (i < others.length) theirs.push(await t.createSession(others[i]!.id, { expires: t.data.date(30 + i / 48) }));
      }
      const live = new Set(devices);
      const check = async (when: string) => {
        for (const [i, s] of devices.entries()) {
          if (live.has(s)) await signedIn(t, s.sessionToken, person.id, `getSessionAndUser(device ${i + 1}) ${when}`);
          else
            t.isNull(await t.call("getSessionAndUser", s.sessionToken), `getSessionAndUser(device ${i + 1}) ${when}`);
        }
        for (const [i, s] of theirs.entries())
          await signedIn(t, s.sessionToken, others[i]!.id, `getSessionAndUser(another person's session) ${when}`);
      };
      // Signs out on the newest device, then one in the middle, then the oldest.
      for (const i of [3, 1, 0]) {
        const session = devices[i]!;
        await t.call("deleteSession", session.sessionToken);
        live.delete(session);
        await check(`after signing out on device ${i + 1}`);
      }
    },
  },
]);
