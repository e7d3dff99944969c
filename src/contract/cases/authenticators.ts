import { adapterAuthenticatorSchema } from "../../schemas/adapter-models.js";
import { defineCases } from "../spec/case.js";

const needsUser = ["createUser", "linkAccount", "createAuthenticator"] as const;

export const authenticatorCases = defineCases([
  {
    id: "authenticator.create.returns-authenticator",
    title: "createAuthenticator returns the authenticator it stored",
    section: "§2.9, §4.2",
    capability: "webauthn",
    needs: [...needsUser],
    async run(t) {
      const { user, account } = await t.createUserWithAccount({ type: "webauthn" });
      await t.createAuthenticator(user.id, account.providerAccountId);
    },
  },
  {
    id: "authenticator.get.round-trips-every-field",
    title:
      "getAuthenticator returns every field as written (both credentialBackedUp values, with and without transports)",
    section: "§2.9, §4.2",
    capability: "webauthn",
    needs: [...needsUser, "getAuthenticator"],
    async run(t) {
      const { user, account } = await t.createUserWithAccount({ type: "webauthn" });
      const variants = [
        { credentialBackedUp: true, transports: "usb,nfc", counter: 0 },
        { credentialBackedUp: false, transports: null, credentialDeviceType: "singleDevice", counter: 41 },
      ];
      for (const overrides of variants) {
        const written = await t.createAuthenticator(user.id, account.providerAccountId, overrides);
        const found = t.model(
          adapterAuthenticatorSchema,
          await t.call("getAuthenticator", written.credentialID),
          "getAuthenticator result",
        );
        const {
          credentialID,
          credentialPublicKey,
          counter,
          credentialDeviceType,
          credentialBackedUp,
          providerAccountId,
          transports,
        } = written;
        t.fields(
          found,
          {
            credentialID,
            credentialPublicKey,
            counter,
            credentialDeviceType,
            credentialBackedUp,
            providerAccountId,
            transports,
            userId: user.id,
          },
          "getAuthenticator result",
        );
      }
    },
  },
  {
    id: "authenticator.get.unknown-is-null",
    title: "getAuthenticator returns null for an unknown credential",
    section: "§7.3",
    capability: "webauthn",
    needs: ["getAuthenticator"],
    async run(t) {
      t.isNull(await t.call("getAuthenticator", t.data.unknownId()), "getAuthenticator(unknown credentialID)");
    },
  },
  {
    id: "authenticator.create.duplicate-credential-id-throws",
    title: "createAuthenticator throws for a credentialID that is already stored",
    section: "§7.2",
    capability: "webauthn",
    needs: [...needsUser],
    async run(t) {
      const { user, account } = await t.createUserWithAccount({ type: "webauthn" });
      const first = await t.createAuthenticator(user.id, account.providerAccountId);
      const duplicate = t.data.authenticator(user.id, account.providerAccountId, { credentialID: first.credentialID });
      await t.callExpectingThrow(
        "createAuthenticator",
        "a duplicate credentialID must fail (createAuthenticator throws on failure)",
        duplicate,
      );
    },
  },
  {
    id: "authenticator.list.returns-own-authenticators",
    title: "listAuthenticatorsByUserId returns exactly the user's own authenticators",
    section: "§4.2",
    capability: "webauthn",
    needs: [...needsUser, "listAuthenticatorsByUserId"],
    async run(t) {
      const owner = await t.createUserWithAccount({ type: "webauthn" });
      const neighbour = await t.createUserWithAccount({ type: "webauthn" });
      const own = [
        await t.createAuthenticator(owner.user.id, owner.account.providerAccountId),
        await t.createAuthenticator(owner.user.id, owner.account.providerAccountId),
      ];
      const theirs = await t.createAuthenticator(neighbour.user.id, neighbour.account.providerAccountId);
      const list = await t.call("listAuthenticatorsByUserId", owner.user.id);
      t.check(Array.isArray(list), "listAuthenticatorsByUserId should return an array", { received: String(list) });
      for (const [i, item] of (list as unknown[]).entries()) {
        t.model(adapterAuthenticatorSchema, item, `listAuthenticatorsByUserId result[${i}]`);
      }
      const ids: string[] = list.map((a: { credentialID: string }) => a.credentialID);
      // Named by whose they are, in the order returned: two lists of random credential ids say nothing.
      const whose = (id: string) =>
        id === own[0]!.credentialID
          ? "the user's first"
          : id === own[1]!.credentialID
            ? "the user's second"
            : id === theirs.credentialID
              ? "the other user's"
              : "one this case did not create";
      const exact = ids.length === own.length && own.every((a) => ids.includes(a.credentialID));
      t.check(
        exact,
        `listAuthenticatorsByUserId(the user's id) should list exactly the user's two authenticators; it listed ${ids.length === 0 ? "none" : ids.map(whose).join(", ")}`,
        {
          expected: own.map((a) => a.credentialID).join(", "),
          received: ids.join(", ") || "(none)",
        },
      );
    },
  },
  {
    id: "authenticator.list.unknown-user-is-empty",
    title: "listAuthenticatorsByUserId returns [] for an unknown user",
    section: "§4.2, §7.3",
    capability: "webauthn",
    needs: ["listAuthenticatorsByUserId"],
    async run(t) {
      const list = await t.call("listAuthenticatorsByUserId", t.data.unknownId());
      t.check(Array.isArray(list) && list.length === 0, "listAuthenticatorsByUserId(unknown user) should be []", {
        expected: "[]",
        received: JSON.stringify(list) ?? String(list),
      });
    },
  },
  {
    id: "authenticator.update-counter.persists",
    title: "updateAuthenticatorCounter returns and stores the new counter, other fields kept",
    section: "§4.2",
    capability: "webauthn",
    needs: [...needsUser, "updateAuthenticatorCounter", "getAuthenticator"],
    async run(t) {
      const { user, account } = await t.createUserWithAccount({ type: "webauthn" });
      const created = await t.createAuthenticator(user.id, account.providerAccountId, { counter: 3 });
      const updated = t.model(
        adapterAuthenticatorSchema,
        await t.call("updateAuthenticatorCounter", created.credentialID, 4),
        "updateAuthenticatorCounter result",
      );
      t.equal(updated.counter, 4, "updateAuthenticatorCounter result.counter");
      const found = t.model(
        adapterAuthenticatorSchema,
        await t.call("getAuthenticator", created.credentialID),
        "getAuthenticator after updateAuthenticatorCounter",
      );
      const { credentialPublicKey, credentialDeviceType, credentialBackedUp, providerAccountId, transports } = created;
      t.fields(
        found,
        {
          counter: 4,
          credentialPublicKey,
          credentialDeviceType,
          credentialBackedUp,
          providerAccountId,
          transports,
          userId: user.id,
        },
        "getAuthenticator after updateAuthenticatorCounter",
      );
    },
  },
  {
    id: "authenticator.update-counter.unknown-throws",
    title: "updateAuthenticatorCounter throws for an unknown credential",
    section: "§7.2",
    capability: "webauthn",
    needs: ["updateAuthenticatorCounter"],
    async run(t) {
      await t.callExpectingThrow(
        "updateAuthenticatorCounter",
        "an unknown credentialID must fail (updateAuthenticatorCounter throws on failure)",
        t.data.unknownId(),
        1,
      );
    },
  },
  {
    id: "authenticator.results-are-copies",
    title: "changing a returned authenticator does not change the stored one",
    section: "§4.2",
    capability: "webauthn",
    needs: [...needsUser, "getAuthenticator"],
    async run(t) {
      const { user, account } = await t.createUserWithAccount({ type: "webauthn" });
      const plain = t.data.authenticator(user.id, account.providerAccountId, { counter: 7 });
      t.ledger.authenticator(plain.credentialID);
      t.model(adapterAuthenticatorSchema, await t.call("createAuthenticator", plain), "createAuthenticator result");
      const plainWritten = {
        counter: plain.counter,
        credentialPublicKey: plain.credentialPublicKey,
        providerAccountId: plain.providerAccountId,
      };
      await t.readsBackAsWritten({ write: "createAuthenticator", read: "getAuthenticator" }, plainWritten, async () => {
        const read = t.model(
          adapterAuthenticatorSchema,
          await t.call("getAuthenticator", plain.credentialID),
          "getAuthenticator result",
        );
        t.fields(read, plainWritten, "getAuthenticator result");
      });
      const input = t.data.authenticator(user.id, account.providerAccountId, { counter: 7 });
      t.ledger.authenticator(input.credentialID);
      t.model(
        adapterAuthenticatorSchema,
        await t.callChanging(["result"], "createAuthenticator", input),
        "createAuthenticator result",
      );
      const { counter, credentialPublicKey, providerAccountId } = input;
      await t.afterChange("A caller's change to createAuthenticator's result", async () => {
        const read = t.model(
          adapterAuthenticatorSchema,
          await t.callChanging(["result"], "getAuthenticator", input.credentialID),
          "getAuthenticator result",
        );
        t.fields(read, { counter, credentialPublicKey, providerAccountId }, "getAuthenticator result");
      });
      await t.afterChange("A caller's change to getAuthenticator's result", async () => {
        const again = t.model(
          adapterAuthenticatorSchema,
          await t.call("getAuthenticator", input.credentialID),
          "getAuthenticator result",
        );
        t.fields(again, { counter, credentialPublicKey, providerAccountId }, "getAuthenticator result");
      });
    },
  },
]);
