// What the suite sees of an answer and of a throw: a copy of what the
// service would read (model instances as their fields), and a description
// found without running any of the thrown value's code.
import { describe, expect, it } from "vitest";
import classInstancesAdapter from "../../fixtures/adapters/class-instances.js";
import throwsProxies from "../../fixtures/adapters/throws-proxies.js";
import { answerCopy, changedByCaller, scribbleAfter } from "../../src/contract/access/answers.js";
import { toPort } from "../../src/contract/access/port.js";
import { allCases } from "../../src/contract/cases/index.js";
import { runContract } from "../../src/contract/run/runner.js";
import type { AnyAdapter } from "../../src/contract/spec/adapter.js";
import { describeThrownValue } from "../../src/contract/spec/thrown.js";
import {
  adapterAccountSchema,
  adapterAuthenticatorSchema,
  adapterSessionSchema,
  adapterUserSchema,
  verificationTokenSchema,
} from "../../src/schemas/adapter-models.js";
import { modelFields } from "../../src/schemas/model-fields.js";

/** A Sequelize-shaped instance: fields as prototype getters over dataValues, methods, a link back to its model. */
class UserModel {
  readonly model = { name: "User", instances: [] as unknown[] };
  constructor(readonly dataValues: Record<string, unknown>) {
    this.model.instances.push(this);
  }
  get id() {
    return this.dataValues.id;
  }
  get email() {
    return this.dataValues.email;
  }
  get emailVerified() {
    return this.dataValues.emailVerified;
  }
  save() {
    return this;
  }
}

describe("answers are copies of what the service reads", () => {
  it("a model instance reads as its fields (getters run), its machinery left out", () => {
    const verified = new Date("2024-01-02T03:04:05Z");
    const copy = answerCopy("getUser", new UserModel({ id: "u1", email: "a@example.test", emailVerified: verified }));
    expect(copy).toEqual({ id: "u1", email: "a@example.test", emailVerified: verified });
    expect((copy as { emailVerified: Date }).emailVerified).not.toBe(verified);
  });

  it("a field the adapter leaves out stays out; a getter that finds nothing reads as undefined", () => {
    expect(answerCopy("getUser", { id: "u1", email: "a@example.test" })).toEqual({ id: "u1", email: "a@example.test" });
    const lost = answerCopy("getUser", new UserModel({ id: "u1", emailVerified: null })) as Record<string, unknown>;
    expect(lost).toHaveProperty("email", undefined);
  });

  it("pairs and lists are read part by part; extra plain fields and cycles are kept safely", () => {
    const session = { sessionToken: "t", userId: "u1", expires: new Date(0), extra: { note: "kept" } };
    (session.extra as Record<string, unknown>).self = session;
    const pair = answerCopy("getSessionAndUser", { session, user: new UserModel({ id: "u1", email: "e" }) });
    expect(pair).toMatchObject({ session: { sessionToken: "t", extra: { note: "kept" } }, user: { id: "u1" } });
    expect(answerCopy("listAuthenticatorsByUserId", [{ credentialID: "c", counter: 0 }])).toEqual([
      { credentialID: "c", counter: 0 },
    ]);
  });

  it("a getter that throws while the result is read is the call's throw, described", () => {
    const result = {
      get id(): string {
        throw new Error("column not loaded");
      },
    };
    expect(() => answerCopy("getUser", result)).toThrow(/reading the result threw \(Error: column not loaded\)/);
  });

  it("a scribble after the copy changes the adapter's object, not the copy", () => {
    const stored = { id: "u1", email: "a@example.test", emailVerified: new Date(1000) };
    const copy = answerCopy("getUser", stored);
    scribbleAfter(["result"], stored, []);
    expect(copy).toEqual({ id: "u1", email: "a@example.test", emailVerified: new Date(1000) });
    expect(changedByCaller(stored)).toBe("id");
  });
});

describe("a thrown value is described without running its code", () => {
  it("a Proxy whose every trap throws, and a revoked one, are just throws", () => {
    const trapping = new Proxy(new Error("hidden"), {
      get() {
        throw new Error("this value cannot be inspected");
      },
      getPrototypeOf() {
        throw new Error("this value cannot be inspected");
      },
    });
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    expect(describeThrownValue(trapping)).toMatch(/^thrown Proxy/);
    expect(describeThrownValue(proxy)).toMatch(/^thrown Proxy/);
  });

  it("no getter, toString or toJSON runs; an Error's class name stands in for a name getter", () => {
    let ran = 0;
    class KnownRequestError extends Error {
      override get name() {
        ran++;
        return "KnownRequestError";
      }
    }
    const thrown = {
      code: "E_DB",
      get detail() {
        ran++;
        return "x";
      },
      toJSON() {
        ran++;
        return {};
      },
    };
    expect(describeThrownValue(new KnownRequestError("row not found"))).toBe("KnownRequestError: row not found");
    expect(describeThrownValue(thrown)).toBe('thrown object {"code":"E_DB"}');
    expect(describeThrownValue("plain")).toBe('thrown string "plain"');
    expect(ran).toBe(0);
  });
});

describe("adapters the service signs in with pass whole runs", () => {
  for (const [name, make] of [
    ["results are model instances with getters", classInstancesAdapter],
    ["the required throws throw trapping and revoked Proxies", throwsProxies],
  ] as const) {
    it(`${name}: every case passes`, async () => {
      const summary = await runContract({
        adapter: make() as AnyAdapter,
        cases: allCases,
        seed: 5,
        timeoutMs: 2000,
        concurrency: 1,
        require: ["users", "sessions", "email", "webauthn"],
      });
      expect(summary).toMatchObject({ ok: true, failed: 0, skipped: 0, warnings: 0 });
    });
  }

  it("a port hands out copies: the in-process run sees what the worker would send", async () => {
    const port = toPort(classInstancesAdapter() as AnyAdapter);
    const user = await port.call("createUser", [{ id: "x", email: "m@example.test", emailVerified: null }]);
    expect(Object.getPrototypeOf(user)).toBe(Object.prototype);
    expect(user).toMatchObject({ email: "m@example.test", emailVerified: null });
  });
});

describe("the fields an answer is copied through", () => {
  // Plain lists (schemas/model-fields.ts), so the worker copies answers without loading zod: they must be
  // the zod models' fields, plus the stored columns §2.10 adds.
  it("are every field of the zod models, with an account's session_state and the rows' id", () => {
    const keys = (schema: { shape: object }) => Object.keys(schema.shape);
    expect(modelFields).toEqual({
      user: keys(adapterUserSchema),
      account: [...keys(adapterAccountSchema), "session_state", "id"],
      session: [...keys(adapterSessionSchema), "id"],
      verificationToken: keys(verificationTokenSchema),
      authenticator: keys(adapterAuthenticatorSchema),
    });
  });
});
