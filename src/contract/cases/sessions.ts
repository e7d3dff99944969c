import { adapterSessionSchema, sessionAndUserSchema } from "../../schemas/adapter-models.js";
import { defineCases } from "../spec/case.js";

export const sessionCases = defineCases([
  {
    id: "session.create.returns-session",
    title: "createSession returns the session it stored",
    section: "§2.9, §4.2",
    capability: "sessions",
    needs: ["createUser", "createSession"],
    async run(t) {
      const user = await t.createUser();
      await t.createSession(user.id);
    },
  },
  {
    id: "session.get.returns-session-and-user",
    title: "getSessionAndUser returns the session and its user in one call",
    section: "§4.2",
    capability: "sessions",
    needs: ["createUser", "createSession", "getSessionAndUser"],
    async run(t) {
      const user = await t.createUser();
      const session = await t.createSession(user.id);
      const found = t.model(
        sessionAndUserSchema,
        await t.call("getSessionAndUser", session.sessionToken),
        "getSessionAndUser result",
      );
      t.fields(
        found.session,
        { sessionToken: session.sessionToken, userId: user.id, expires: session.expires },
        "getSessionAndUser result.session",
      );
      t.fields(found.user, { id: user.id, email: user.email, name: user.name }, "getSessionAndUser result.user");
    },
  },
  {
    id: "session.get.unknown-token-is-null",
    title: "getSessionAndUser returns null for an unknown session token",
    section: "§4.2",
    capability: "sessions",
    needs: ["getSessionAndUser"],
    async run(t) {
      t.isNull(await t.call("getSessionAndUser", t.data.unknownId()), "getSessionAndUser(unknown token)");
    },
  },
  {
    id: "session.get.own-user-among-many",
    title: "with several users signed in, each session returns its own user",
    section: "§4.2",
    capability: "sessions",
    needs: ["createUser", "createSession", "getSessionAndUser"],
    async run(t) {
      const pairs = [];
      for (let i = 0; i < 3; i++) {
        const user = await t.createUser();
        pairs.push({ user, session: await t.createSession(user.id) });
      }
      for (const { user, session } of pairs.reverse()) {
        const found = t.model(
          sessionAndUserSchema,
          await t.call("getSessionAndUser", session.sessionToken),
          "getSessionAndUser result",
        );
        t.sameId(found.user.id, user.id, `getSessionAndUser(${session.sessionToken}).user.id`);
        t.equal(found.session.sessionToken, session.sessionToken, "getSessionAndUser result.session.sessionToken");
      }
    },
  },
  {
    id: "session.update.extends-expiry",
    title: "updateSession with a new expires persists it; the user is unchanged",
    section: "§3, §4.2",
    capability: "sessions",
    needs: ["createUser", "createSession", "updateSession", "getSessionAndUser"],
    async run(t) {
      const user = await t.createUser();
      const session = await t.createSession(user.id);
      const later = t.data.date(60);
      const updated = await t.call("updateSession", { sessionToken: session.sessionToken, expires: later });
      if (updated != null) {
        t.ignoredResult("updateSession", () =>
          t.fields(
            t.model(adapterSessionSchema, updated, "updateSession result"),
            { sessionToken: session.sessionToken, userId: user.id, expires: later },
            "updateSession result",
          ),
        );
      }
      const found = t.model(
        sessionAndUserSchema,
        await t.call("getSessionAndUser", session.sessionToken),
        "getSessionAndUser after updateSession",
      );
      t.fields(
        found.session,
        { expires: later, userId: user.id },
        "getSessionAndUser result.session after updateSession",
      );
      t.sameId(found.user.id, user.id, "getSessionAndUser result.user.id after updateSession");
    },
  },
  {
    id: "session.delete.removes-session",
    title: "deleteSession removes exactly that session",
    section: "§4.2",
    capability: "sessions",
    needs: ["createUser", "createSession", "deleteSession", "getSessionAndUser"],
    async run(t) {
      const user = await t.createUser();
      const doomed = await t.createSession(user.id);
      const kept = await t.createSession(user.id);
      await t.call("deleteSession", doomed.sessionToken);
      t.isNull(await t.call("getSessionAndUser", doomed.sessionToken), "getSessionAndUser after deleteSession");
      const other = t.model(
        sessionAndUserSchema,
        await t.call("getSessionAndUser", kept.sessionToken),
        "getSessionAndUser(another session of the same user)",
      );
      t.equal(other.session.sessionToken, kept.sessionToken, "the other session's token");
    },
  },
  {
    id: "session.delete.returns-deleted-session",
    title: "deleteSession returns the deleted session (preferred; a warning if not)",
    section: "§4.2",
    capability: "sessions",
    needs: ["createUser", "createSession", "deleteSession"],
    async run(t) {
      const user = await t.createUser();
      const session = await t.createSession(user.id);
      const deleted = await t.call("deleteSession", session.sessionToken);
      if (deleted == null) {
        t.warn(
          `deleteSession returned ${deleted === null ? "null" : "nothing"}; the spec prefers the deleted session (Auth.js passes it to the signOut event).`,
        );
        return;
      }
      t.ignoredResult("deleteSession", () =>
        t.fields(
          t.model(adapterSessionSchema, deleted, "deleteSession result"),
          { sessionToken: session.sessionToken, userId: user.id },
          "deleteSession result",
        ),
      );
    },
  },
  {
    id: "session.results-are-copies",
    title: "changing a returned session does not change the stored session",
    section: "§4.2",
    capability: "sessions",
    needs: ["createUser", "createSession", "getSessionAndUser"],
    async run(t) {
      const user = await t.createUser();
      const plain = t.data.session(user.id);
      t.model(adapterSessionSchema, await t.call("createSession", plain), "createSession result");
      t.ledger.session(plain.sessionToken);
      const plainWritten = { sessionToken: plain.sessionToken, expires: plain.expires };
      await t.readsBackAsWritten({ write: "createSession", read: "getSessionAndUser" }, plainWritten, async () => {
        const read = t.model(
          sessionAndUserSchema,
          await t.call("getSessionAndUser", plain.sessionToken),
          "getSessionAndUser result",
        );
        t.fields(read.session, plainWritten, "getSessionAndUser result.session");
      });
      const input = t.data.session(user.id);
      t.model(adapterSessionSchema, await t.callChanging(["result"], "createSession", input), "createSession result");
      t.ledger.session(input.sessionToken);
      await t.afterChange("A caller's change to createSession's result", async () => {
        const read = t.model(
          sessionAndUserSchema,
          await t.callChanging(["result"], "getSessionAndUser", input.sessionToken),
          "getSessionAndUser result",
        );
        t.fields(
          read.session,
          { sessionToken: input.sessionToken, expires: input.expires },
          "getSessionAndUser result.session",
        );
      });
      await t.afterChange("A caller's change to getSessionAndUser's result", async () => {
        const again = t.model(
          sessionAndUserSchema,
          await t.call("getSessionAndUser", input.sessionToken),
          "getSessionAndUser result",
        );
        t.fields(
          again.session,
          { sessionToken: input.sessionToken, expires: input.expires },
          "getSessionAndUser result.session",
        );
        t.fields(again.user, { id: user.id, email: user.email }, "getSessionAndUser result.user");
      });
    },
  },
]);
