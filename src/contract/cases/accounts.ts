import { adapterAccountSchema, adapterUserSchema } from "../../schemas/adapter-models.js";
import { defineCases } from "../spec/case.js";

const tokenFields = [
  "access_token",
  "refresh_token",
  "id_token",
  "scope",
  "expires_at",
  "token_type",
  "session_state",
] as const;

export const accountCases = defineCases([
  {
    id: "account.link.get-user-by-account",
    title: "getUserByAccount finds the user a linked account belongs to",
    section: "§4.2",
    capability: "users",
    needs: ["createUser", "linkAccount", "getUserByAccount"],
    async run(t) {
      const verified = t.data.date(-4);
      const user = await t.createUser({ emailVerified: verified });
      const account = await t.linkAccount(user.id);
      const key = { provider: account.provider, providerAccountId: account.providerAccountId };
      const found = t.model(adapterUserSchema, await t.call("getUserByAccount", key), "getUserByAccount result");
      t.fields(
        found,
        { id: user.id, email: user.email, name: user.name, emailVerified: verified },
        "getUserByAccount result",
      );
    },
  },
  {
    id: "account.link.several-per-user",
    title: "a user may have several accounts; each one leads back to the user",
    section: "§1.4",
    capability: "users",
    needs: ["createUser", "linkAccount", "getUserByAccount"],
    async run(t) {
      const user = await t.createUser();
      const accounts = [await t.linkAccount(user.id), await t.linkAccount(user.id, { type: "oidc" })];
      for (const account of accounts) {
        const key = { provider: account.provider, providerAccountId: account.providerAccountId };
        const found = t.model(
          adapterUserSchema,
          await t.call("getUserByAccount", key),
          `getUserByAccount(${account.provider})`,
        );
        t.sameId(found.id, user.id, `getUserByAccount(${account.provider}).id`);
      }
    },
  },
  {
    id: "account.link.email-account-without-tokens",
    title: "an email account (no token fields, providerAccountId = the email) links and leads back to its user",
    section: "§2.9, §4.2",
    capability: "users",
    needs: ["createUser", "linkAccount", "getUserByAccount"],
    async run(t) {
      const user = await t.createUser();
      // link() checks a returned account against §2.9: absent token fields must stay absent, not become NaN.
      const account = await t.link(t.data.bareAccount(user.id, { providerAccountId: user.email }));
      const found = t.model(
        adapterUserSchema,
        await t.call("getUserByAccount", { provider: account.provider, providerAccountId: user.email }),
        "getUserByAccount(email account)",
      );
      t.sameId(found.id, user.id, "getUserByAccount(email account).id");
    },
  },
  {
    id: "account.get-user-by-account.unknown-is-null",
    title: "getUserByAccount returns null for an unknown account",
    section: "§4.2",
    capability: "users",
    needs: ["getUserByAccount"],
    async run(t) {
      const key = { provider: t.data.provider(), providerAccountId: t.data.unknownId() };
      t.isNull(await t.call("getUserByAccount", key), "getUserByAccount(unknown account)");
    },
  },
  {
    id: "account.get-user-by-account.provider-is-part-of-key",
    title: "the same providerAccountId under another provider is another account (getUserByAccount)",
    section: "§2.9",
    capability: "users",
    needs: ["createUser", "linkAccount", "getUserByAccount"],
    async run(t) {
      const first = await t.createUserWithAccount();
      const providerAccountId = first.account.providerAccountId;
      const otherProvider = t.data.provider();
      t.isNull(
        await t.call("getUserByAccount", { provider: otherProvider, providerAccountId }),
        "getUserByAccount(same id, other provider)",
      );
      const second = await t.createUser();
      await t.linkAccount(second.id, { provider: otherProvider, providerAccountId });
      for (const [provider, owner] of [
        [first.account.provider, first.user],
        [otherProvider, second],
      ] as const) {
        const found = t.model(
          adapterUserSchema,
          await t.call("getUserByAccount", { provider, providerAccountId }),
          "getUserByAccount result",
        );
        t.sameId(found.id, owner.id, `getUserByAccount(${provider}).id`);
      }
    },
  },
  {
    id: "account.get.finds-account",
    title: "getAccount finds a linked account and every token field round-trips",
    section: "§2.9, §2.10, §4.2",
    capability: "users",
    needs: ["createUser", "linkAccount", "getAccount"],
    async run(t) {
      const { user, account } = await t.createUserWithAccount();
      const found = t.model(
        adapterAccountSchema,
        await t.call("getAccount", account.providerAccountId, account.provider),
        "getAccount result",
      );
      t.fields(
        found,
        {
          userId: user.id,
          type: account.type,
          provider: account.provider,
          providerAccountId: account.providerAccountId,
        },
        "getAccount result",
      );
      for (const field of tokenFields) t.equal(found[field], account[field], `getAccount result.${field}`);
    },
  },
  {
    id: "account.get.unknown-is-null",
    title: "getAccount returns null for an unknown account",
    section: "§7.3",
    capability: "users",
    needs: ["getAccount"],
    async run(t) {
      t.isNull(await t.call("getAccount", t.data.unknownId(), t.data.provider()), "getAccount(unknown account)");
    },
  },
  {
    id: "account.get.provider-is-part-of-key",
    title: "the same providerAccountId under another provider is another account (getAccount)",
    section: "§2.9, §7.3",
    capability: "users",
    needs: ["createUser", "linkAccount", "getAccount"],
    async run(t) {
      const { account } = await t.createUserWithAccount();
      const other = t.data.provider();
      t.isNull(await t.call("getAccount", account.providerAccountId, other), "getAccount(same id, other provider)");
      const second = await t.createUser();
      await t.linkAccount(second.id, {
        provider: other,
        providerAccountId: account.providerAccountId,
        access_token: "second-token",
      });
      const found = t.model(
        adapterAccountSchema,
        await t.call("getAccount", account.providerAccountId, other),
        "getAccount result",
      );
      t.fields(
        found,
        { userId: second.id, provider: other, access_token: "second-token" },
        "getAccount(other provider)",
      );
    },
  },
  {
    id: "account.unlink.removes-account",
    title: "unlinkAccount removes the account and keeps the user",
    section: "§4.2",
    capability: "users",
    needs: ["createUser", "linkAccount", "unlinkAccount", "getUserByAccount", "getUser"],
    async run(t) {
      const { user, account } = await t.createUserWithAccount();
      const key = { provider: account.provider, providerAccountId: account.providerAccountId };
      const removed = await t.call("unlinkAccount", key);
      if (removed != null) t.model(adapterAccountSchema, removed, "unlinkAccount result");
      t.isNull(await t.call("getUserByAccount", key), "getUserByAccount after unlinkAccount");
      if (t.has("getAccount"))
        t.isNull(await t.call("getAccount", key.providerAccountId, key.provider), "getAccount after unlinkAccount");
      const kept = t.model(adapterUserSchema, await t.call("getUser", user.id), "getUser after unlinkAccount");
      t.sameId(kept.id, user.id, "the user after unlinkAccount");
    },
  },
  {
    id: "account.unlink.provider-is-part-of-key",
    title: "unlinkAccount leaves the same providerAccountId under another provider alone",
    section: "§2.9, §4.2",
    capability: "users",
    needs: ["createUser", "linkAccount", "unlinkAccount", "getUserByAccount"],
    async run(t) {
      const first = await t.createUserWithAccount();
      const providerAccountId = first.account.providerAccountId;
      const second = await t.createUser();
      const otherProvider = t.data.provider();
      await t.linkAccount(second.id, { provider: otherProvider, providerAccountId });
      await t.call("unlinkAccount", { provider: first.account.provider, providerAccountId });
      const kept = t.model(
        adapterUserSchema,
        await t.call("getUserByAccount", { provider: otherProvider, providerAccountId }),
        "getUserByAccount(other provider) after unlinkAccount",
      );
      t.sameId(kept.id, second.id, "owner of the account under the other provider");
    },
  },
  {
    id: "account.results-are-copies",
    title: "changing a returned account does not change the stored account",
    section: "§4.2",
    capability: "users",
    needs: ["createUser", "linkAccount", "getAccount"],
    async run(t) {
      const { account } = await t.createUserWithAccount();
      const compared = ["providerAccountId", ...tokenFields];
      await t.readsBackAsWritten({ write: "linkAccount", read: "getAccount" }, account, async () => {
        const read = t.model(
          adapterAccountSchema,
          await t.call("getAccount", account.providerAccountId, account.provider),
          "getAccount result",
        );
        for (const field of compared) t.equal(read[field], account[field], `getAccount result.${field}`);
      });
      t.model(
        adapterAccountSchema,
        await t.callChanging(["result"], "getAccount", account.providerAccountId, account.provider),
        "getAccount result",
      );
      await t.afterChange("A caller's change to getAccount's result", async () => {
        const again = t.model(
          adapterAccountSchema,
          await t.call("getAccount", account.providerAccountId, account.provider),
          "getAccount result",
        );
        for (const field of compared) t.equal(again[field], account[field], `getAccount result.${field}`);
      });
    },
  },
]);
