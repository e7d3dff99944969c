// Exploration checks result types with a fast path written beside the zod
// models of §2.9 (compare.ts); zod alone words the problem. The fast path
// must never accept what the models refuse: random rows, each a valid one
// with fields replaced by values of any type, get the same verdict from both.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { typeProblem } from "../../src/contract/explore/compare.js";
import {
  adapterAccountSchema,
  adapterAuthenticatorSchema,
  adapterSessionSchema,
  adapterUserSchema,
  verificationTokenSchema,
} from "../../src/schemas/adapter-models.js";

const when = new Date("2026-01-02T03:04:05Z");
const valid = [
  [adapterUserSchema, { id: "u1", email: "a@example.test", emailVerified: null, name: "A", image: null }],
  [
    adapterAccountSchema,
    {
      userId: "u1",
      type: "oauth",
      provider: "github",
      providerAccountId: "1",
      access_token: "t",
      expires_at: 1,
      token_type: "bearer",
    },
  ],
  [adapterSessionSchema, { sessionToken: "s", userId: "u1", expires: when }],
  [verificationTokenSchema, { identifier: "a@example.test", token: "t", expires: when }],
  [
    adapterAuthenticatorSchema,
    {
      credentialID: "c",
      credentialPublicKey: "k",
      counter: 0,
      credentialDeviceType: "singleDevice",
      credentialBackedUp: false,
      providerAccountId: "c",
      userId: "u1",
      transports: "usb",
    },
  ],
] as const;

const anyValue = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.constant(Number.NaN),
  fc.string(),
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.date(),
  fc.constantFrom("oauth", "oidc", "email", "webauthn", "Bearer", "bearer"),
  fc.object(),
);

describe("exploration's fast type check agrees with the §2.9 models", () => {
  it.each(valid.map(([schema, row]) => [Object.keys(row).join(","), schema, row] as const))(
    "%s",
    (_fields, schema, row) => {
      expect(typeProblem(schema, row)).toBeUndefined();
      const keys = [...Object.keys(row), "extra"];
      fc.assert(
        fc.property(fc.dictionary(fc.constantFrom(...keys), anyValue, { maxKeys: 3 }), (changes) => {
          const changed = { ...row, ...changes };
          expect(typeProblem(schema, changed) === undefined).toBe(schema.safeParse(changed).success);
        }),
        { numRuns: 500, seed: 7 },
      );
    },
  );
});
