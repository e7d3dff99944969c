/**
 * Scenarios that replay what the service does when records it expects are
 * gone: a cookie naming a session that was removed, an expired session, a
 * second sign-out. These are the paths where a "not found" that throws
 * instead of returning nothing becomes an error a person sees (§3, §5.5).
 */
import { adapterUserSchema, sessionAndUserSchema } from "../../schemas/adapter-models.js";
import { defineCases } from "../spec/case.js";

export const servicePathCases = defineCases([
  {
    id: "flow.email-sign-in.stale-session-cookie",
    title: "email sign-in while the browser still sends a cookie for a removed session",
    section: "§3, §5.4, §5.5",
    capability: "flows",
    needs: [
      "createUser",
      "createSession",
      "deleteSession",
      "getSessionAndUser",
      "createVerificationToken",
      "useVerificationToken",
      "getUserByEmail",
      "updateUser",
    ],
    async run(t) {
      const user = await t.createUser();
      const stale = await t.createSession(user.id);
      await t.call("deleteSession", stale.sessionToken);
      const pending = await t.createVerificationToken({ identifier: user.email });
      await t.call("useVerificationToken", { identifier: pending.identifier, token: pending.token });
      // The callback first reads the session the cookie names: it is gone.
      t.isNull(
        await t.call("getSessionAndUser", stale.sessionToken),
        "getSessionAndUser(the cookie's removed session)",
      );
      const found = t.model(adapterUserSchema, await t.call("getUserByEmail", user.email), "getUserByEmail");
      t.sameId(found.id, user.id, "getUserByEmail result.id");
      // Signed in as nobody, so the service deletes the cookie's session, outside any try.
      await t.callOnPath(
        "deleteSession",
        {
          when: "for a session that no longer exists",
          consequence:
            "the service calls it exactly so when someone signs in by email with a stale session cookie, and that sign-in fails; return null instead",
        },
        stale.sessionToken,
      );
      await t.call("updateUser", { id: user.id, emailVerified: t.data.date(0) });
      const session = await t.createSession(user.id);
      const current = t.model(
        sessionAndUserSchema,
        await t.call("getSessionAndUser", session.sessionToken),
        "getSessionAndUser after the sign-in",
      );
      t.sameId(current.user.id, user.id, "the signed-in user");
    },
  },
  {
    id: "flow.session.expired-access",
    title: "a request with an expired session: the service removes it, the user's other sessions stay",
    section: "§3, §5.5",
    capability: "flows",
    needs: ["createUser", "createSession", "getSessionAndUser", "deleteSession"],
    async run(t) {
      const user = await t.createUser();
      const valid = await t.createSession(user.id, { expires: t.data.date(1) });
      const expired = await t.createSession(user.id, { expires: t.data.date(-1) });
      // The service compares `expires` itself; an adapter may also hide expired sessions.
      const stale = await t.call("getSessionAndUser", expired.sessionToken);
      if (stale != null) {
        const read = t.model(sessionAndUserSchema, stale, "getSessionAndUser(expired session)");
        t.sameDate(read.session.expires, expired.expires, "the expired session's expires");
        await t.callOnPath(
          "deleteSession",
          {
            when: "for an expired session",
            consequence: "the service removes expired sessions when their cookie comes back, and that request fails",
          },
          expired.sessionToken,
        );
      }
      t.isNull(
        await t.call("getSessionAndUser", expired.sessionToken),
        "getSessionAndUser(expired session) afterwards",
      );
      const other = t.model(
        sessionAndUserSchema,
        await t.call("getSessionAndUser", valid.sessionToken),
        "the user's valid session",
      );
      t.sameId(other.user.id, user.id, "the valid session's user");
    },
  },
  {
    id: "flow.sign-out.session-already-gone",
    title: "signing out of a session that was already removed (a second tab) works",
    section: "§3, §5.5",
    capability: "flows",
    needs: ["createUser", "createSession", "deleteSession", "getSessionAndUser"],
    async run(t) {
      const user = await t.createUser();
      const session = await t.createSession(user.id);
      await t.call("deleteSession", session.sessionToken);
      // The service catches errors at sign-out: a throw logs an error, the cookie is still cleared.
      const again = await t.callOffPath(
        "deleteSession",
        {
          when: "for a session that was already removed",
          consequence: "sign-out still completes, but the service logs a SignOutError each time",
        },
        session.sessionToken,
      );
      if (!again.threw)
        t.ignoredResult("deleteSession", () => t.isNullish(again.value, "deleteSession(already removed session)"));
      t.isNull(await t.call("getSessionAndUser", session.sessionToken), "getSessionAndUser after sign-out");
    },
  },
]);
