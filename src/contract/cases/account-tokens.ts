/**
 * The operations access-token rotation adds to an adapter (§4.2 lets an
 * adapter be extended; §2.10 lets an account carry a lease field):
 * updateAccount, listAccountsByUserId and leaseAccount. An opt-in group
 * (`--require tokens`, or --only 'account.tokens.*'): the service itself never
 * calls them, so they never change the verdict on its 19 operations.
 */
import { adapterAccountSchema } from "../../schemas/adapter-models.js";
import { defineCases, optInCases } from "../spec/case.js";
import { ContractFailure } from "../spec/failure.js";

const keyOf = (account: Record<string, unknown>) => ({
  provider: account.provider,
  providerAccountId: account.providerAccountId,
});

const LEASE_MS = 15_000;

export const accountTokenCases = optInCases(
  defineCases([
    {
      id: "account.tokens.update-writes-fields",
      title: "updateAccount writes the token fields it is given and keeps the others; a null refresh_token drops it",
      section: "§4.2, §2.9",
      capability: "users",
      needs: ["createUser", "linkAccount", "getAccount", "updateAccount"],
      async run(t) {
        const user = await t.createUser();
        const account = await t.linkAccount(user.id, { scope: "openid offline_access" });
        const next = t.data.account(user.id);
        const fresh = {
          access_token: next.access_token,
          refresh_token: next.refresh_token,
          id_token: next.id_token,
          expires_at: next.expires_at + 60,
        };
        const result = await t.call("updateAccount", { ...keyOf(account), ...fresh });
        const updated = t.model(adapterAccountSchema, result, "updateAccount result");
        t.fields(updated, { ...fresh, scope: "openid offline_access" }, "updateAccount result");
        const read = t.model(
          adapterAccountSchema,
          await t.call("getAccount", account.providerAccountId, account.provider),
          "getAccount after updateAccount",
        );
        t.fields(read, { ...fresh, userId: user.id, scope: "openid offline_access" }, "getAccount after updateAccount");

        // Token rotation drops a refresh token the provider refused for good this way, so no read sends it again.
        await t.call("updateAccount", { ...keyOf(account), refresh_token: null });
        const dropped = t.model(
          adapterAccountSchema,
          await t.call("getAccount", account.providerAccountId, account.provider),
          "getAccount after updateAccount with refresh_token: null",
        );
        if (dropped.refresh_token != null)
          throw new ContractFailure(
            "updateAccount with refresh_token: null kept the refresh token: token rotation would send a refused one again",
            { expected: "refresh_token null or absent", received: JSON.stringify(dropped.refresh_token) },
          );
        const { refresh_token: _dropped, ...kept } = fresh;
        t.fields(dropped, kept, "getAccount after updateAccount with refresh_token: null");
      },
    },
    {
      id: "account.tokens.update-unknown-is-null",
      title: "updateAccount of an account that does not exist answers null and creates nothing",
      section: "§4.2",
      capability: "users",
      needs: ["updateAccount", "getAccount"],
      async run(t) {
        const key = keyOf(t.data.account("no-such-user"));
        const result = await t.call("updateAccount", { ...key, access_token: "x" });
        if (result != null)
          throw new ContractFailure("updateAccount of an unknown account answered something", {
            expected: "null",
            received: JSON.stringify(result),
          });
        if ((await t.call("getAccount", key.providerAccountId, key.provider)) != null)
          throw new ContractFailure("updateAccount of an unknown account created it", {
            expected: "getAccount: null",
            received: "an account",
          });
      },
    },
    {
      id: "account.tokens.list-by-user",
      title: "listAccountsByUserId lists the user's accounts, only theirs; [] for an unknown user",
      section: "§1.4, §4.2",
      capability: "users",
      needs: ["createUser", "linkAccount", "listAccountsByUserId"],
      async run(t) {
        const user = await t.createUser();
        const other = await t.createUser();
        const mine = [await t.linkAccount(user.id), await t.linkAccount(user.id, { type: "oidc" })];
        await t.linkAccount(other.id);
        const listed = await t.call("listAccountsByUserId", user.id);
        if (!Array.isArray(listed))
          throw new ContractFailure("listAccountsByUserId did not answer an array", {
            expected: "an array of accounts",
            received: typeof listed,
          });
        const ids = listed.map((a) => t.model(adapterAccountSchema, a, "listAccountsByUserId item").providerAccountId);
        const expected = mine.map((a) => a.providerAccountId);
        if (ids.length !== expected.length || !expected.every((id) => ids.includes(id)))
          throw new ContractFailure("listAccountsByUserId did not list exactly the user's accounts", {
            expected: JSON.stringify(expected),
            received: JSON.stringify(ids),
          });
        const none = await t.call("listAccountsByUserId", `no-user-${t.data.account("x").providerAccountId}`);
        if (!Array.isArray(none) || none.length !== 0)
          throw new ContractFailure("listAccountsByUserId of an unknown user is not []", {
            expected: "[]",
            received: JSON.stringify(none),
          });
      },
    },
    {
      id: "account.tokens.lease-once",
      title:
        "leaseAccount: of two simultaneous takers one gets the lease; updateAccount ends it; a rotated refresh token gets none",
      section: "§2.10",
      capability: "users",
      needs: ["createUser", "linkAccount", "leaseAccount", "updateAccount"],
      async run(t) {
        const user = await t.createUser();
        const account = await t.linkAccount(user.id);
        const refresh_token = account.refresh_token;
        const key = keyOf(account);
        const taken = await Promise.all([
          t.call("leaseAccount", { ...key, refresh_token }, LEASE_MS),
          t.call("leaseAccount", { ...key, refresh_token }, LEASE_MS),
        ]);
        if (taken.filter((v) => v === true).length !== 1)
          throw new ContractFailure(
            "two simultaneous leaseAccount calls did not give the lease to exactly one: two processes would present the same refresh token",
            { expected: "[true, false] in some order", received: JSON.stringify(taken) },
          );
        if ((await t.call("leaseAccount", { ...key, refresh_token }, LEASE_MS)) !== false)
          throw new ContractFailure("leaseAccount took a lease that another holds", {
            expected: "false",
            received: "true",
          });
        const rotated = t.data.account(user.id).refresh_token;
        await t.call("updateAccount", { ...key, refresh_token: rotated });
        if ((await t.call("leaseAccount", { ...key, refresh_token }, LEASE_MS)) !== false)
          throw new ContractFailure("leaseAccount took a lease for a refresh token the account no longer holds", {
            expected: "false",
            received: "true",
          });
        if ((await t.call("leaseAccount", { ...key, refresh_token: rotated }, LEASE_MS)) !== true)
          throw new ContractFailure("leaseAccount refused the lease after updateAccount ended the last one", {
            expected: "true",
            received: "false",
          });
      },
    },
  ]),
);
