import { adapterUserSchema } from "../../schemas/adapter-models.js";
import { defineCases } from "../spec/case.js";

const section = "§2.9, §4.2";

export const userCases = defineCases([
  {
    id: "user.create.returns-user",
    title: "createUser returns the user it stored, as an AdapterUser",
    section,
    capability: "users",
    needs: ["createUser"],
    async run(t) {
      const user = await t.createUser();
      t.isNull(user.emailVerified, "createUser result.emailVerified (written as null)");
    },
  },
  {
    id: "user.get.by-id",
    title: "getUser finds a created user by its id, every field equal",
    section,
    capability: "users",
    needs: ["createUser", "getUser"],
    async run(t) {
      const created = await t.createUser();
      const found = t.model(adapterUserSchema, await t.call("getUser", created.id), "getUser result");
      t.fields(
        found,
        { id: created.id, email: created.email, name: created.name, image: created.image, emailVerified: null },
        "getUser result",
      );
    },
  },
  {
    id: "user.get.unknown-id-is-null",
    title: "getUser returns null for an unknown id",
    section: "§4.2",
    capability: "users",
    needs: ["getUser"],
    async run(t) {
      t.isNull(await t.call("getUser", t.data.unknownId()), "getUser(unknown id)");
    },
  },
  {
    id: "user.email-verified.date-round-trips",
    title: "emailVerified written as a Date comes back as an equal Date",
    section: "§2.9",
    capability: "users",
    needs: ["createUser", "getUser"],
    async run(t) {
      const verified = t.data.date(-2);
      const created = await t.createUser({ emailVerified: verified });
      t.sameDate(created.emailVerified, verified, "createUser result.emailVerified");
      const found = t.model(adapterUserSchema, await t.call("getUser", created.id), "getUser result");
      t.sameDate(found.emailVerified, verified, "getUser result.emailVerified");
    },
  },
  {
    id: "user.null-name-and-image-round-trip",
    title: "a user with null name and image comes back with null name and image",
    section: "§2.9",
    capability: "users",
    needs: ["createUser", "getUser"],
    async run(t) {
      const created = await t.createUser({ name: null, image: null });
      const found = t.model(adapterUserSchema, await t.call("getUser", created.id), "getUser result");
      t.fields(found, { name: null, image: null }, "getUser result");
    },
  },
  {
    id: "user.get-by-email.finds-user",
    title: "getUserByEmail finds exactly the user with that email",
    section: "§4.2",
    capability: "users",
    needs: ["createUser", "getUserByEmail"],
    async run(t) {
      const verified = t.data.date(-5);
      const first = await t.createUser({ emailVerified: verified });
      const second = await t.createUser();
      for (const [user, emailVerified] of [
        [first, verified],
        [second, null],
      ] as const) {
        const found = t.model(adapterUserSchema, await t.call("getUserByEmail", user.email), "getUserByEmail result");
        t.fields(
          found,
          { id: user.id, email: user.email, name: user.name, emailVerified },
          `getUserByEmail(${user.email})`,
        );
      }
    },
  },
  {
    id: "user.get-by-email.unknown-is-null",
    title: "getUserByEmail returns null for an unknown email",
    section: "§4.2",
    capability: "users",
    needs: ["getUserByEmail"],
    async run(t) {
      t.isNull(await t.call("getUserByEmail", t.data.email()), "getUserByEmail(unknown email)");
    },
  },
  {
    id: "user.update.persists",
    title: "updateUser returns the updated user and getUser reads the change back",
    section: "§4.2",
    capability: "users",
    needs: ["createUser", "updateUser", "getUser"],
    async run(t) {
      const created = await t.createUser();
      const change = { name: "Renamed User", image: "https://images.example.test/new.png", email: t.data.email() };
      const updated = t.model(
        adapterUserSchema,
        await t.call("updateUser", { id: created.id, ...change }),
        "updateUser result",
      );
      t.fields(updated, { id: created.id, ...change }, "updateUser result");
      const found = t.model(adapterUserSchema, await t.call("getUser", created.id), "getUser after updateUser");
      t.fields(found, change, "getUser after updateUser");
    },
  },
  {
    id: "user.update.partial-keeps-other-fields",
    title: "a partial updateUser leaves the fields it does not name as they were",
    section: "§4.2",
    capability: "users",
    needs: ["createUser", "updateUser", "getUser"],
    async run(t) {
      const verified = t.data.date(-1);
      const created = await t.createUser({ emailVerified: verified });
      const updated = t.model(
        adapterUserSchema,
        await t.call("updateUser", { id: created.id, name: "Only The Name" }),
        "updateUser result",
      );
      const unchanged = { email: created.email, image: created.image, emailVerified: verified };
      t.fields(updated, { name: "Only The Name", ...unchanged }, "updateUser result");
      const found = t.model(adapterUserSchema, await t.call("getUser", created.id), "getUser after partial updateUser");
      t.fields(found, { name: "Only The Name", ...unchanged }, "getUser after partial updateUser");
    },
  },
  {
    id: "user.update.sets-email-verified",
    title: "updateUser can set emailVerified, as the first email sign-in does",
    section: "§3",
    capability: "users",
    needs: ["createUser", "updateUser", "getUser"],
    async run(t) {
      const created = await t.createUser();
      const verified = t.data.date(0);
      await t.call("updateUser", { id: created.id, emailVerified: verified });
      const found = t.model(adapterUserSchema, await t.call("getUser", created.id), "getUser after updateUser");
      t.sameDate(found.emailVerified, verified, "getUser result.emailVerified");
    },
  },
  {
    id: "user.results-are-copies",
    title: "changing a returned user does not change the stored user",
    section: "§4.2",
    capability: "users",
    needs: ["createUser", "getUser"],
    async run(t) {
      const plain = t.data.user({ emailVerified: t.data.date(-3) });
      const plainId = t.model(adapterUserSchema, await t.call("createUser", plain), "createUser result").id;
      t.ledger.user(plainId);
      const plainWritten = {
        email: plain.email,
        name: plain.name,
        image: plain.image,
        emailVerified: plain.emailVerified,
      };
      await t.readsBackAsWritten({ write: "createUser", read: "getUser" }, plainWritten, async () => {
        const read = t.model(adapterUserSchema, await t.call("getUser", plainId), "getUser result");
        t.fields(read, plainWritten, "getUser result");
      });
      const input = t.data.user({ emailVerified: t.data.date(-3) });
      const created = t.model(
        adapterUserSchema,
        await t.callChanging(["result"], "createUser", input),
        "createUser result",
      );
      t.ledger.user(created.id);
      const written = { email: input.email, name: input.name, image: input.image, emailVerified: input.emailVerified };
      await t.afterChange("A caller's change to createUser's result", async () => {
        const read = t.model(
          adapterUserSchema,
          await t.callChanging(["result"], "getUser", created.id),
          "getUser result",
        );
        t.fields(read, written, "getUser result");
      });
      await t.afterChange("A caller's change to getUser's result", async () => {
        const again = t.model(adapterUserSchema, await t.call("getUser", created.id), "getUser result");
        t.fields(again, written, "getUser result");
      });
    },
  },
  {
    id: "user.delete.removes-user",
    title: "deleteUser removes the user: getUser and getUserByEmail return null",
    section: "§4.2",
    capability: "users",
    needs: ["createUser", "deleteUser", "getUser", "getUserByEmail"],
    async run(t) {
      const user = await t.createUser();
      const other = await t.createUser();
      const deleted = await t.call("deleteUser", user.id);
      if (deleted != null)
        t.sameId(t.model(adapterUserSchema, deleted, "deleteUser result").id, user.id, "deleteUser result.id");
      t.isNull(await t.call("getUser", user.id), "getUser after deleteUser");
      t.isNull(await t.call("getUserByEmail", user.email), "getUserByEmail after deleteUser");
      const kept = t.model(
        adapterUserSchema,
        await t.call("getUser", other.id),
        "getUser(another user) after deleteUser",
      );
      t.sameId(kept.id, other.id, "the other user");
    },
  },
  {
    id: "user.delete.removes-sessions-and-accounts",
    title: "after deleteUser the user's sessions and accounts cannot be found",
    section: "§2.10, §4.2",
    capability: "users",
    needs: ["createUser", "deleteUser", "linkAccount", "getUserByAccount", "createSession", "getSessionAndUser"],
    async run(t) {
      const user = await t.createUser();
      const account = await t.linkAccount(user.id);
      const session = await t.createSession(user.id);
      await t.call("deleteUser", user.id);
      t.isNull(await t.call("getSessionAndUser", session.sessionToken), "getSessionAndUser(deleted user's session)");
      const key = { provider: account.provider, providerAccountId: account.providerAccountId };
      t.isNull(await t.call("getUserByAccount", key), "getUserByAccount(deleted user's account)");
      if (t.has("getAccount")) {
        t.isNull(
          await t.call("getAccount", account.providerAccountId, account.provider),
          "getAccount(deleted user's account)",
        );
      }
      // getSessionAndUser and getUserByAccount usually join the user, so they cannot see
      // orphans. Methods that touch the child rows alone can: none may find anything.
      // A throw here says "not found" too; the service path where deleteSession must
      // not throw for a gone session has its own case (flow.email-sign-in.stale-session-cookie).
      if (t.has("updateSession")) {
        const updated = await t.callOffPath(
          "updateSession",
          { when: "for a deleted user's session" },
          { sessionToken: session.sessionToken, expires: t.data.date(9) },
        );
        if (!updated.threw) t.isNullish(updated.value, "updateSession(deleted user's session)");
      }
      if (t.has("deleteSession")) {
        const deleted = await t.callOffPath(
          "deleteSession",
          {
            when: "for a deleted user's session",
            consequence: "flow.email-sign-in.stale-session-cookie shows where the service needs null instead",
          },
          session.sessionToken,
        );
        if (!deleted.threw)
          t.ignoredResult("deleteSession", () => t.isNullish(deleted.value, "deleteSession(deleted user's session)"));
      }
      if (t.has("unlinkAccount")) {
        const unlinked = await t.callOffPath("unlinkAccount", { when: "for a deleted user's account" }, key);
        if (!unlinked.threw) t.isNullish(unlinked.value, "unlinkAccount(deleted user's account)");
      }
    },
  },
]);
