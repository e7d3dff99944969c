/**
 * Passkeys with the values @auth/core really stores, on every run: credential
 * IDs are the raw ID's bytes in standard base64 (`toBase64`: `+`, `/` and `=`
 * padding, not base64url), from the 16 bytes of the shortest authenticators
 * to the longest a 255-character column holds; public keys are COSE keys in
 * base64, 77 bytes for a P-256 key and 272 for an RSA-2048 one (Windows
 * Hello); the counter is what the authenticator reports: 0 for a new
 * passkey, 0 at every sign-in for a synced one (iCloud Keychain, Google
 * Password Manager), a growing number for a security key. A credential ID
 * is one credential whoever registers it.
 */
import { adapterAccountSchema, adapterAuthenticatorSchema } from "../../schemas/adapter-models.js";
import type { CaseContext } from "../access/context.js";
import { defineCases } from "../spec/case.js";

const needsPasskey = ["createUser", "linkAccount", "createAuthenticator", "getAuthenticator"] as const;

/** The largest counter the documented schemas' INTEGER columns hold. */
const largestCounter = 2 ** 31 - 1;

/** A user with a passkey account whose providerAccountId is the credential ID, as @auth/core registers it. */
async function passkeyOwner(t: CaseContext, credentialID: string) {
  const user = await t.createUser();
  const account = await t.link(
    t.data.bareAccount(user.id, { type: "webauthn", provider: t.data.provider(), providerAccountId: credentialID }),
  );
  return { user, account };
}

async function readBack(t: CaseContext, credentialID: string, written: Record<string, unknown>, what: string) {
  const found = t.model(
    adapterAuthenticatorSchema,
    await t.call("getAuthenticator", credentialID),
    `getAuthenticator(${what})`,
  );
  t.fields(found, written, `getAuthenticator(${what})`);
}

export const passkeyValueCases = defineCases([
  {
    id: "authenticator.values.credential-id-encodings",
    title: "credential IDs in standard base64 (+, /, = padding), 16 to 189 bytes, are found as written",
    section: "§2.9, §4.2",
    capability: "webauthn",
    needs: [...needsPasskey, "getAccount", "listAuthenticatorsByUserId"],
    async run(t) {
      // 16 bytes end in "==", 32 in "=", 189 bytes are the longest whose base64 fits in 255 characters.
      for (const bytes of [16, 32, 64, 189]) {
        const credentialID = t.data.credentialID(bytes);
        const { user, account } = await passkeyOwner(t, credentialID);
        const written = await t.createAuthenticator(user.id, credentialID, { credentialID });
        await readBack(t, credentialID, { ...written, userId: user.id }, `a ${bytes}-byte credential ID`);
        const linked = t.model(
          adapterAccountSchema,
          await t.call("getAccount", credentialID, account.provider),
          `getAccount(a ${bytes}-byte credential ID)`,
        );
        t.fields(
          linked,
          { userId: user.id, providerAccountId: credentialID },
          `getAccount(a ${bytes}-byte credential ID)`,
        );
        const listed = await t.call("listAuthenticatorsByUserId", user.id);
        t.check(
          Array.isArray(listed) && listed.length === 1 && listed[0].credentialID === credentialID,
          `listAuthenticatorsByUserId should list the passkey with the ${bytes}-byte credential ID as written`,
          { expected: credentialID, received: JSON.stringify(listed) },
        );
      }
    },
  },
  {
    id: "authenticator.values.public-key-sizes",
    title: "P-256 and RSA-2048 public keys (104 and 364 base64 characters) come back whole",
    section: "§2.9, §4.2",
    capability: "webauthn",
    needs: [...needsPasskey],
    async run(t) {
      for (const [name, bytes] of [
        ["P-256", 77],
        ["RSA-2048", 272],
      ] as const) {
        const credentialID = t.data.credentialID(32);
        const { user } = await passkeyOwner(t, credentialID);
        const written = await t.createAuthenticator(user.id, credentialID, {
          credentialID,
          credentialPublicKey: t.data.publicKey(bytes),
        });
        await readBack(
          t,
          credentialID,
          { credentialPublicKey: written.credentialPublicKey },
          `a passkey with an ${name} key`,
        );
      }
    },
  },
  {
    id: "authenticator.values.counters",
    title:
      "counters as authenticators report them: 0 when new, 0 again at each sign-in of a synced passkey, up to 2³¹−1",
    section: "§2.9, §4.2",
    capability: "webauthn",
    needs: [...needsPasskey, "updateAuthenticatorCounter"],
    async run(t) {
      const credentialID = t.data.credentialID(16);
      const { user } = await passkeyOwner(t, credentialID);
      await t.createAuthenticator(user.id, credentialID, {
        credentialID,
        counter: 0,
        credentialDeviceType: "multiDevice",
      });
      // A synced passkey signs in with counter 0 every time: the update changes nothing and must still succeed.
      for (const [counter, when] of [
        [0, "a synced passkey signs in (counter 0, unchanged)"],
        [0, "it signs in again"],
        [1, "a security key signs in"],
        [largestCounter, "a counter at the largest an INTEGER column holds"],
      ] as const) {
        const updated = t.model(
          adapterAuthenticatorSchema,
          await t.callOnPath(
            "updateAuthenticatorCounter",
            {
              when: `when ${when}`,
              consequence: "the service calls it after every passkey sign-in, and the sign-in fails",
            },
            credentialID,
            counter,
          ),
          `updateAuthenticatorCounter(${counter}) when ${when}`,
        );
        t.equal(updated.counter, counter, `updateAuthenticatorCounter result.counter when ${when}`);
        await readBack(t, credentialID, { counter }, `after ${when}`);
      }
    },
  },
  {
    id: "authenticator.create.another-users-credential-id-throws",
    title: "createAuthenticator throws for a credential ID another user already registered, and the first stays",
    section: "§7.2",
    capability: "webauthn",
    needs: [...needsPasskey],
    async run(t) {
      const credentialID = t.data.credentialID(32);
      const first = await passkeyOwner(t, credentialID);
      const stored = await t.createAuthenticator(first.user.id, credentialID, { credentialID });
      const other = await passkeyOwner(t, t.data.credentialID(32));
      await t.callExpectingThrow(
        "createAuthenticator",
        "a credential ID is one credential, whoever registers it (createAuthenticator throws on failure); accepting it lets a sign-in with it reach either user",
        t.data.authenticator(other.user.id, other.account.providerAccountId, { credentialID }),
      );
      await readBack(
        t,
        credentialID,
        { userId: first.user.id, credentialPublicKey: stored.credentialPublicKey },
        "the credential after another user tried to register it",
      );
    },
  },
]);
