import { verificationTokenSchema } from "../../schemas/adapter-models.js";
import { defineCases } from "../spec/case.js";
import { ContractFailure } from "../spec/failure.js";

export const verificationTokenCases = defineCases([
  {
    id: "verification-token.create.returns-token-or-nothing",
    title: "createVerificationToken returns the token or nothing",
    section: "§4.2",
    capability: "email",
    needs: ["createVerificationToken"],
    async run(t) {
      await t.createVerificationToken();
    },
  },
  {
    id: "verification-token.use.returns-token",
    title: "useVerificationToken returns the stored token, every field equal",
    section: "§2.9, §4.2",
    capability: "email",
    needs: ["createVerificationToken", "useVerificationToken"],
    async run(t) {
      const token = await t.createVerificationToken();
      const used = t.model(
        verificationTokenSchema,
        await t.call("useVerificationToken", { identifier: token.identifier, token: token.token }),
        "useVerificationToken result",
      );
      t.fields(used, token, "useVerificationToken result");
    },
  },
  {
    id: "verification-token.use.single-use",
    title: "a verification token can be used once (the service deletes it on use)",
    section: "§3, §4.2",
    capability: "email",
    needs: ["createVerificationToken", "useVerificationToken"],
    async run(t) {
      const token = await t.createVerificationToken();
      const key = { identifier: token.identifier, token: token.token };
      t.model(verificationTokenSchema, await t.call("useVerificationToken", key), "first useVerificationToken");
      t.isNull(await t.call("useVerificationToken", key), "second useVerificationToken");
    },
  },
  {
    id: "verification-token.use.simultaneous-single-use",
    title: "one sign-in link opened in two tabs at once signs in once: one use gets the token, the other null",
    section: "§3, §4.2",
    capability: "email",
    needs: ["createVerificationToken", "useVerificationToken"],
    async run(t) {
      const situation = {
        when: "for one of two simultaneous uses of one sign-in link",
        consequence: "that tab shows an error instead of an expired link",
      };
      const useTwiceAtOnce = (key: { identifier: string; token: string }) =>
        Promise.all([0, 1].map(() => t.callOffPath("useVerificationToken", situation, key)));
      // A first pair on an unknown link opens the store's connections, so the pairs below really run side by side;
      // several rounds, because a race shows only when both reads land before either delete.
      const unknown = t.data.verificationToken();
      await useTwiceAtOnce({ identifier: unknown.identifier, token: unknown.token });
      for (let round = 0; round < 5; round++) {
        const token = await t.createVerificationToken();
        // Started together, as two tabs do: a read-then-delete lets both read the token before either deletes it.
        const outcomes = await useTwiceAtOnce({ identifier: token.identifier, token: token.token });
        const winners = outcomes.filter((o) => !o.threw && o.value != null);
        if (winners.length === 2) {
          throw new ContractFailure(
            "useVerificationToken gave the token to both of two simultaneous uses: one sign-in link signed in twice (delete it in the same statement that reads it, or in a transaction)",
            { expected: "the token once, null once", received: "the token twice" },
          );
        }
        if (winners.length === 0) {
          throw new ContractFailure("neither of two simultaneous uses of a valid sign-in link got the token", {
            expected: "the token once",
            received: outcomes.every((o) => o.threw) ? "two errors" : "null",
          });
        }
        t.model(verificationTokenSchema, (winners[0] as { value: unknown }).value, "useVerificationToken result");
      }
    },
  },
  {
    id: "verification-token.use.unknown-is-null",
    title: "useVerificationToken returns null for an unknown token",
    section: "§3, §4.2",
    capability: "email",
    needs: ["useVerificationToken"],
    async run(t) {
      const unknown = t.data.verificationToken();
      t.isNull(
        await t.call("useVerificationToken", { identifier: unknown.identifier, token: unknown.token }),
        "useVerificationToken(unknown token)",
      );
    },
  },
  {
    id: "verification-token.use.needs-identifier-and-token",
    title: "a wrong identifier or a wrong token uses nothing, and the right pair still works",
    section: "§3, §5.4",
    capability: "email",
    needs: ["createVerificationToken", "useVerificationToken"],
    async run(t) {
      const token = await t.createVerificationToken();
      const other = t.data.verificationToken();
      t.isNull(
        await t.call("useVerificationToken", { identifier: other.identifier, token: token.token }),
        "useVerificationToken(wrong identifier, right token)",
      );
      t.isNull(
        await t.call("useVerificationToken", { identifier: token.identifier, token: other.token }),
        "useVerificationToken(right identifier, wrong token)",
      );
      const used = t.model(
        verificationTokenSchema,
        await t.call("useVerificationToken", { identifier: token.identifier, token: token.token }),
        "useVerificationToken(right pair) after wrong attempts",
      );
      t.equal(used.token, token.token, "useVerificationToken result.token");
    },
  },
  {
    id: "verification-token.use.other-tokens-of-identifier-survive",
    title: "using one of several tokens for the same email leaves the others usable",
    section: "§3",
    capability: "email",
    needs: ["createVerificationToken", "useVerificationToken"],
    async run(t) {
      const first = await t.createVerificationToken();
      const second = await t.createVerificationToken({ identifier: first.identifier });
      await t.call("useVerificationToken", { identifier: first.identifier, token: first.token });
      const used = t.model(
        verificationTokenSchema,
        await t.call("useVerificationToken", { identifier: second.identifier, token: second.token }),
        "useVerificationToken(second token)",
      );
      t.fields(used, second, "useVerificationToken(second token)");
    },
  },
  {
    id: "verification-token.results-are-copies",
    title: "changing the token passed to createVerificationToken does not change the stored one",
    section: "§4.2",
    capability: "email",
    needs: ["createVerificationToken", "useVerificationToken"],
    async run(t) {
      const plain = t.data.verificationToken();
      await t.call("createVerificationToken", plain);
      t.ledger.verificationToken({ identifier: plain.identifier, token: plain.token });
      await t.readsBackAsWritten(
        { write: "createVerificationToken", read: "useVerificationToken" },
        plain,
        async () => {
          const used = t.model(
            verificationTokenSchema,
            await t.call("useVerificationToken", { identifier: plain.identifier, token: plain.token }),
            "useVerificationToken result",
          );
          t.fields(used, plain, "useVerificationToken result");
        },
      );
      const input = t.data.verificationToken();
      const written = { ...input, expires: new Date(input.expires.getTime()) };
      await t.callChanging(["arguments"], "createVerificationToken", input);
      t.ledger.verificationToken({ identifier: input.identifier, token: input.token });
      await t.afterChange("A caller's change to the token it passed to createVerificationToken", async () => {
        const used = t.model(
          verificationTokenSchema,
          await t.call("useVerificationToken", { identifier: input.identifier, token: input.token }),
          "useVerificationToken result",
        );
        t.fields(used, written, "useVerificationToken result");
      });
    },
  },
]);
