/**
 * Scenarios that replay the calls the service makes (§3, §5), in its order,
 * with the values it passes. Each checks the state the next step relies on.
 */
import {
  adapterAccountSchema,
  adapterAuthenticatorSchema,
  adapterUserSchema,
  sessionAndUserSchema,
  verificationTokenSchema,
} from "../../schemas/adapter-models.js";
import { defineCases } from "../spec/case.js";

export const flowCases = defineCases([
  {
    id: "flow.oauth-first-sign-in",
    title: "OAuth first sign-in: unknown account, new user, link, database session",
    section: "§3, §5.1, §5.5",
    capability: "flows",
    needs: ["getUserByAccount", "createUser", "linkAccount", "createSession", "getSessionAndUser"],
    async run(t) {
      const key = { provider: t.data.provider(), providerAccountId: t.data.unknownId() };
      t.isNull(await t.call("getUserByAccount", key), "getUserByAccount before the first sign-in");
      const user = await t.createUser({ emailVerified: null });
      t.isNull(user.emailVerified, "createUser result.emailVerified for an OAuth sign-in");
      await t.linkAccount(user.id, key);
      const session = await t.createSession(user.id);
      const byAccount = t.model(
        adapterUserSchema,
        await t.call("getUserByAccount", key),
        "getUserByAccount after linking",
      );
      t.sameId(byAccount.id, user.id, "getUserByAccount after linking");
      const current = t.model(
        sessionAndUserSchema,
        await t.call("getSessionAndUser", session.sessionToken),
        "getSessionAndUser after sign-in",
      );
      t.sameId(current.user.id, user.id, "the signed-in user");
    },
  },
  {
    id: "flow.email-sign-in.new-user",
    title: "email sign-in of a new address: token used once, user created verified, session stored",
    section: "§3, §5.4",
    capability: "flows",
    needs: [
      "createVerificationToken",
      "useVerificationToken",
      "getUserByEmail",
      "createUser",
      "createSession",
      "getSessionAndUser",
    ],
    async run(t) {
      const pending = await t.createVerificationToken();
      const key = { identifier: pending.identifier, token: pending.token };
      const used = t.model(
        verificationTokenSchema,
        await t.call("useVerificationToken", key),
        "useVerificationToken on the link click",
      );
      t.fields(used, pending, "useVerificationToken result");
      t.isNull(await t.call("getUserByEmail", pending.identifier), "getUserByEmail(new address)");
      const now = t.data.date(0);
      const user = await t.createUser({ email: pending.identifier, emailVerified: now });
      t.sameDate(user.emailVerified, now, "createUser result.emailVerified");
      const session = await t.createSession(user.id);
      const current = t.model(
        sessionAndUserSchema,
        await t.call("getSessionAndUser", session.sessionToken),
        "getSessionAndUser after email sign-in",
      );
      t.fields(current.user, { id: user.id, email: pending.identifier, emailVerified: now }, "the signed-in user");
      t.isNull(await t.call("useVerificationToken", key), "useVerificationToken on a second click");
    },
  },
  {
    id: "flow.email-sign-in.existing-user",
    title: "email sign-in of a known address: user found, emailVerified set once, token gone",
    section: "§3, §5.4",
    capability: "flows",
    needs: ["createVerificationToken", "useVerificationToken", "getUserByEmail", "createUser", "updateUser", "getUser"],
    async run(t) {
      const user = await t.createUser({ emailVerified: null });
      const pending = await t.createVerificationToken({ identifier: user.email });
      const key = { identifier: pending.identifier, token: pending.token };
      t.model(
        verificationTokenSchema,
        await t.call("useVerificationToken", key),
        "useVerificationToken on the link click",
      );
      const found = t.model(
        adapterUserSchema,
        await t.call("getUserByEmail", user.email),
        "getUserByEmail(known address)",
      );
      t.sameId(found.id, user.id, "getUserByEmail result.id");
      t.isNull(found.emailVerified, "emailVerified before the first email sign-in");
      const now = t.data.date(0);
      await t.call("updateUser", { id: user.id, emailVerified: now });
      const after = t.model(adapterUserSchema, await t.call("getUser", user.id), "getUser after email sign-in");
      t.fields(after, { email: user.email, name: user.name, emailVerified: now }, "the user after email sign-in");
      t.isNull(await t.call("useVerificationToken", key), "the token after sign-in");
    },
  },
  {
    id: "flow.database-session-lifecycle",
    title: "database session: read, then extended while valid",
    section: "§3, §5.5",
    capability: "flows",
    needs: ["createUser", "createSession", "getSessionAndUser", "updateSession"],
    async run(t) {
      const user = await t.createUser();
      const active = await t.createSession(user.id, { expires: t.data.date(1) });
      t.model(
        sessionAndUserSchema,
        await t.call("getSessionAndUser", active.sessionToken),
        "getSessionAndUser(valid session)",
      );
      const extended = t.data.date(31);
      await t.call("updateSession", { sessionToken: active.sessionToken, expires: extended });
      const after = t.model(
        sessionAndUserSchema,
        await t.call("getSessionAndUser", active.sessionToken),
        "getSessionAndUser after extension",
      );
      t.sameDate(after.session.expires, extended, "expires after extension");
    },
  },
  {
    id: "flow.webauthn-registration-and-sign-in",
    title: "WebAuthn: register a passkey, then sign in with it",
    section: "§2.9, §5.1",
    capability: "flows",
    needs: [
      "createUser",
      "linkAccount",
      "createAuthenticator",
      "getAccount",
      "getAuthenticator",
      "updateAuthenticatorCounter",
      "listAuthenticatorsByUserId",
      "getUser",
    ],
    async run(t) {
      // Registration: the user, a webauthn account and its authenticator.
      const user = await t.createUser();
      const account = await t.link(
        t.data.bareAccount(user.id, { type: "webauthn", provider: "webauthn", providerAccountId: t.data.unknownId() }),
      );
      const authenticator = await t.createAuthenticator(user.id, account.providerAccountId, { counter: 0 });
      // Sign-in: find the credential, its account and user, then bump the counter.
      const credential = t.model(
        adapterAuthenticatorSchema,
        await t.call("getAuthenticator", authenticator.credentialID),
        "getAuthenticator at sign-in",
      );
      const linked = t.model(
        adapterAccountSchema,
        await t.call("getAccount", credential.providerAccountId, "webauthn"),
        "getAccount at sign-in",
      );
      t.fields(linked, { type: "webauthn", userId: user.id }, "the passkey's account");
      const owner = t.model(adapterUserSchema, await t.call("getUser", linked.userId), "getUser at sign-in");
      t.sameId(owner.id, user.id, "the passkey's user");
      const bumped = t.model(
        adapterAuthenticatorSchema,
        await t.call("updateAuthenticatorCounter", credential.credentialID, credential.counter + 1),
        "updateAuthenticatorCounter at sign-in",
      );
      t.equal(bumped.counter, 1, "counter after sign-in");
      const list = await t.call("listAuthenticatorsByUserId", user.id);
      t.check(
        Array.isArray(list) && list.length === 1 && list[0].credentialID === authenticator.credentialID,
        "listAuthenticatorsByUserId should list the one passkey",
        {
          received: JSON.stringify(list),
        },
      );
      t.equal(list[0].counter, 1, "listed counter after sign-in");
    },
  },
]);
