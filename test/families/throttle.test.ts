/**
 * The generated throttle.ts and client-address.ts, as an app imports them
 * (rendered, transpiled, imported natively), counting in the generated
 * in-memory adapter: the limit arithmetic (which counter refuses, what a
 * refusal leaves uncounted, what a success clears or takes back, windows
 * that expire with the clock), and which client a request is counted for
 * (the route's address, never a header a client sends; forwarded headers
 * only behind AUTH_TRUST_PROXY; an IPv6 /64 as one client).
 */
import { symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Auth } from "@auth/core";
import type { Adapter } from "@auth/core/adapters";
import type { Provider } from "@auth/core/providers";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { generateSnippet, parseResolved, resolveProviderName } from "../../src/families/index.js";
import { renderTemplate } from "../../src/render/templates.js";
import { writeModule } from "../e2e/provider-module.js";
import { root, tempDir } from "../helpers.js";

interface Limit {
  max: number;
  windowMs: number;
}
interface Limits {
  perClient?: Limit;
  perAccountAndClient?: Limit;
  perAccount?: Limit;
}
interface Store {
  incrementAttempts(key: string, windowMs: number): Promise<number>;
  decrementAttempts(key: string): Promise<void>;
  clearAttempts(key: string): Promise<void>;
}
interface Throttle {
  useAttemptStore(store: Store): void;
  throttled<T>(
    attempt: { kind: string; account: string; request: Request | undefined; limits: Limits },
    check: () => Promise<T | null>,
  ): Promise<T | null>;
  allowed(attempt: { kind: string; account: string; request: Request | undefined; limits: Limits }): Promise<boolean>;
  countersOf(attempt: {
    kind: string;
    account: string;
    request: Request | undefined;
    limits: Limits;
  }): Promise<{ key: string; limit: Limit }[]>;
  passwordLimits: Required<Limits>;
  emailLimits: Limits;
}
interface ClientAddress {
  withClientAddress(request: Request, address: string | undefined): Request;
  passClientAddress(
    req: { headers: Record<string, string | string[] | undefined>; socket: { remoteAddress?: string } },
    res: unknown,
    next: () => void,
  ): void;
  clientOf(request: Request | undefined): string | undefined;
  lastForwardedFor(headers: Headers): string | undefined;
  normalizeAddress(address: string): string | undefined;
}

let throttle: Throttle;
let addresses: ClientAddress;
let createAdapter: () => Store;
let resend: Provider;

beforeAll(async () => {
  const dir = tempDir("create-auth-throttle-");
  symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n');
  writeModule(dir, "auth/throttle.ts", await renderTemplate("config/throttle.ts.hbs", { ext: ".js" }));
  writeModule(dir, "auth/client-address.ts", await renderTemplate("frameworks/web/client-address.ts.hbs", {}));
  writeModule(dir, "auth/adapter.ts", await renderTemplate("adapters/memory.ts.hbs", { ext: ".js" }));
  const load = <T>(path: string) => import(pathToFileURL(join(dir, path)).href) as Promise<T>;
  throttle = await load<Throttle>("auth/throttle.js");
  addresses = await load<ClientAddress>("auth/client-address.js");
  ({ createAdapter } = await load<{ createAdapter: () => Store }>("auth/adapter.js"));
  // An email service of Auth.js's own, as add-provider resend writes it beside the throttle.
  const resendSnippet = await generateSnippet(parseResolved(resolveProviderName("resend"), {}), {
    importExtension: ".js",
    throttleModule: "../auth/throttle",
  });
  for (const file of resendSnippet.files) writeModule(dir, file.path, file.contents);
  ({ resend } = await load<{ resend: Provider }>("providers/resend.js"));
});

afterEach(() => {
  vi.useRealTimers();
});

/** A fresh store for each test, so no count carries over. */
function freshStore(): Store {
  const store = createAdapter();
  throttle.useAttemptStore(store);
  return store;
}

const from = (address: string | undefined, headers: Record<string, string> = {}) =>
  addresses.withClientAddress(new Request("http://localhost/api/auth/callback/credentials", { headers }), address);

const limits = {
  perClient: { max: 6, windowMs: 60_000 },
  perAccountAndClient: { max: 3, windowMs: 60_000 },
  perAccount: { max: 4, windowMs: 120_000 },
};

/** Attempts for `account` from `client`, each failing (or succeeding); which of them reached the check. */
async function attempts(account: string, client: string | undefined, count: number, succeed = false) {
  const checked: number[] = [];
  for (let i = 0; i < count; i++) {
    const result = await throttle.throttled({ kind: "password", account, request: from(client), limits }, async () => {
      checked.push(i);
      return succeed ? { id: account } : null;
    });
    expect(result).toEqual(succeed && checked.at(-1) === i ? { id: account } : null);
  }
  return checked;
}

describe("the limit arithmetic", () => {
  it("checks an account from a client up to its limit, then refuses without checking", async () => {
    freshStore();
    expect(await attempts("ada@example.com", "203.0.113.1", 5)).toEqual([0, 1, 2]);
  });

  it("counts the account case-blind and trimmed: ADA@example.com is ada@example.com", async () => {
    freshStore();
    expect(await attempts("ada@example.com", "203.0.113.1", 2)).toEqual([0, 1]);
    expect(await attempts(" ADA@Example.com ", "203.0.113.1", 2)).toEqual([0]);
  });

  it("another client has its own allowance for the account, until the account's own limit", async () => {
    freshStore();
    expect(await attempts("ada@example.com", "203.0.113.1", 3)).toHaveLength(3);
    // The account has had 3 of its 4 from anywhere: one more gets through, from any client.
    expect(await attempts("ada@example.com", "203.0.113.2", 3)).toEqual([0]);
    expect(await attempts("ada@example.com", "203.0.113.3", 1)).toEqual([]);
  });

  it("refuses a client over its own limit whatever the account, and leaves those accounts' counts alone", async () => {
    freshStore();
    for (let i = 0; i < 3; i++) expect(await attempts(`user${i}@example.com`, "203.0.113.9", 2)).toHaveLength(2);
    // The client has had its 6.
    expect(await attempts("user9@example.com", "203.0.113.9", 1)).toEqual([]);
    // The refused attempt was not counted against user9's account: elsewhere it has its whole allowance.
    expect(await attempts("user9@example.com", "198.51.100.7", 3)).toHaveLength(3);
  });

  it("a success clears the account's counts and gives its own count back to the client", async () => {
    const store = freshStore();
    const attempt = { kind: "password", account: "ada@example.com", request: from("203.0.113.1"), limits };
    const [client, accountClient, account] = await throttle.countersOf(attempt);
    expect(await attempts("ada@example.com", "203.0.113.1", 2)).toHaveLength(2);
    expect(await attempts("ada@example.com", "203.0.113.1", 1, true)).toHaveLength(1);
    // Each counter's next count tells what it held: the client's 2 failures stay, the account's are gone.
    expect(await store.incrementAttempts(client!.key, 60_000)).toBe(3);
    expect(await store.incrementAttempts(accountClient!.key, 60_000)).toBe(1);
    expect(await store.incrementAttempts(account!.key, 60_000)).toBe(1);
  });

  it("a check that throws stays counted", async () => {
    freshStore();
    const attempt = { kind: "password", account: "ada@example.com", request: from("203.0.113.1"), limits };
    for (let i = 0; i < 3; i++)
      await expect(
        throttle.throttled(attempt, async () => {
          throw new Error("database down");
        }),
      ).rejects.toThrow("database down");
    let ran = false;
    expect(
      await throttle.throttled(attempt, async () => {
        ran = true;
        return { id: "1" };
      }),
    ).toBeNull();
    expect(ran).toBe(false);
  });

  it("a window ends with the clock: refused until then, checked after", async () => {
    vi.useFakeTimers({ toFake: ["Date"], shouldAdvanceTime: true });
    freshStore();
    expect(await attempts("ada@example.com", "203.0.113.1", 4)).toHaveLength(3);
    vi.setSystemTime(Date.now() + 59_000);
    expect(await attempts("ada@example.com", "203.0.113.1", 1)).toEqual([]);
    vi.setSystemTime(Date.now() + 2_000);
    // The account-and-client window (60 s) has ended; the account's own (120 s) holds 3 of 4.
    expect(await attempts("ada@example.com", "203.0.113.1", 3)).toEqual([0]);
  });

  it("without a client address only the account's counter is kept, with a warning once", async () => {
    freshStore();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const attempt = { kind: "password", account: "ada@example.com", request: from(undefined), limits };
    expect((await throttle.countersOf(attempt)).map((c) => c.key.split(":")[1])).toEqual(["account"]);
    expect(await attempts("ada@example.com", undefined, 6)).toHaveLength(4);
    expect(warn.mock.calls.filter(([m]) => String(m).includes("without the client's address"))).toHaveLength(1);
  });

  it("kinds never share a count, and a counter's key holds neither the address nor the account", async () => {
    freshStore();
    expect(await attempts("ada@example.com", "203.0.113.1", 3)).toHaveLength(3);
    const totp = await throttle.throttled(
      { kind: "totp", account: "ada@example.com", request: from("203.0.113.1"), limits },
      async () => "checked",
    );
    expect(totp).toBe("checked");
    const keys = (
      await throttle.countersOf({ kind: "password", account: "ada@example.com", request: from("203.0.113.1"), limits })
    ).map((c) => c.key);
    expect(keys).toEqual([
      expect.stringMatching(/^password:client:[0-9a-f]{64}$/),
      expect.stringMatching(/^password:account\+client:[0-9a-f]{64}$/),
      expect.stringMatching(/^password:account:[0-9a-f]{64}$/),
    ]);
  });

  it("emails count per address and per client, and nothing clears them", async () => {
    freshStore();
    const { emailLimits } = throttle;
    const email = (address: string, client: string) =>
      throttle.allowed({ kind: "email", account: address, request: from(client), limits: emailLimits });
    const sent: boolean[] = [];
    for (let i = 0; i < emailLimits.perAccount!.max + 2; i++)
      sent.push(await email("ada@example.com", `203.0.113.${i}`));
    expect(sent.filter(Boolean)).toHaveLength(emailLimits.perAccount!.max);
    const many: boolean[] = [];
    for (let i = 0; i < emailLimits.perClient!.max + 2; i++)
      many.push(await email(`u${i}@example.com`, "198.51.100.1"));
    expect(many.filter(Boolean)).toHaveLength(emailLimits.perClient!.max);
  });

  it("the generated limits keep their order: a client may try more than an account from it, an account from anywhere more still", () => {
    const { perAccountAndClient, perClient, perAccount } = throttle.passwordLimits;
    expect(perAccountAndClient.max).toBeLessThan(perClient.max);
    expect(perClient.max).toBeLessThan(perAccount.max);
    // NIST SP 800-63B: no more than 100 failed attempts on one account.
    expect(perAccount.max).toBeLessThanOrEqual(100);
  });
});

describe("an email service of Auth.js's own (add-provider resend)", () => {
  it("sends its sign-in emails through the service up to the limit, and answers every request alike", async () => {
    freshStore();
    vi.stubEnv("AUTH_RESEND_KEY", "re_test");
    vi.stubEnv("AUTH_RESEND_FROM", "no-reply@example.com");
    const mailed: string[] = [];
    vi.stubGlobal("fetch", async (input: string | URL | Request, init?: RequestInit) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url !== "https://api.resend.com/emails") throw new Error(`no network in this test: ${url}`);
      mailed.push((JSON.parse(String(init?.body)) as { to: string }).to);
      return Response.json({ id: "sent" });
    });
    const config = {
      providers: [resend],
      adapter: createAdapter() as unknown as Adapter,
      secret: "a-secret-for-this-test-only-32-characters",
      basePath: "/auth",
      trustHost: true,
      logger: { error: () => {}, warn: () => {}, debug: () => {} },
    };
    const client = "203.0.113.20";
    const answers: { status: number; location: string | null }[] = [];
    for (let i = 0; i < throttle.emailLimits.perAccount!.max + 3; i++) {
      const csrfResponse = await Auth(
        addresses.withClientAddress(new Request("http://localhost/auth/csrf"), client),
        config,
      );
      const cookie = csrfResponse.headers
        .getSetCookie()
        .map((c) => c.split(";")[0])
        .join("; ");
      const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string };
      const request = new Request("http://localhost/auth/signin/resend", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", cookie },
        body: new URLSearchParams({ email: "ada@example.com", csrfToken }),
      });
      const response = await Auth(addresses.withClientAddress(request, client), config);
      answers.push({ status: response.status, location: response.headers.get("location") });
    }
    expect(mailed).toEqual(Array(throttle.emailLimits.perAccount!.max).fill("ada@example.com"));
    expect(new Set(answers.map((a) => `${a.status} ${a.location}`))).toEqual(
      new Set(["302 http://localhost/auth/verify-request?provider=resend&type=email"]),
    );
  });
});

describe("the client a request is counted for", () => {
  it("is the address the route passed; the header a client sends itself is never believed", () => {
    expect(addresses.clientOf(from("203.0.113.5"))).toBe("203.0.113.5");
    const forged = new Request("http://localhost/", { headers: { "x-auth-client-address": "203.0.113.66" } });
    expect(addresses.clientOf(forged)).toBeUndefined();
    // Shaped like the route's ("<mark> <address>"), with a mark of the client's guessing.
    for (const mark of ["x", crypto.randomUUID(), ""]) {
      const guessed = new Request("http://localhost/", {
        headers: { "x-auth-client-address": `${mark} 203.0.113.66` },
      });
      expect(addresses.clientOf(guessed)).toBeUndefined();
    }
    // A forged header beside the route's: the route's wins, the client's is dropped.
    expect(addresses.clientOf(from("203.0.113.5", { "x-auth-client-address": "x 203.0.113.66" }))).toBe("203.0.113.5");
    // Copied as Auth.js copies a request's headers into what authorize() gets, it still reads.
    const plain: Record<string, string> = {};
    from("203.0.113.5").headers.forEach((value, name) => {
      plain[name] = value;
    });
    const copied = new Request("http://localhost/", { headers: plain });
    expect(addresses.clientOf(copied)).toBe("203.0.113.5");
  });

  it("passClientAddress does the same for Node's request headers", () => {
    const req = {
      headers: { "x-auth-client-address": "forged" } as Record<string, string | string[] | undefined>,
      socket: { remoteAddress: "::ffff:203.0.113.7" },
    };
    let called = false;
    addresses.passClientAddress(req, {}, () => {
      called = true;
    });
    expect(called).toBe(true);
    const request = new Request("http://localhost/", { headers: req.headers as Record<string, string> });
    expect(addresses.clientOf(request)).toBe("203.0.113.7");
  });

  it("reads X-Forwarded-For and Forwarded only behind AUTH_TRUST_PROXY, counting proxies from the right", () => {
    const forwarded = { "x-forwarded-for": "10.9.9.9, 203.0.113.8, 192.0.2.1" };
    expect(addresses.clientOf(from("192.0.2.200", forwarded))).toBe("192.0.2.200");
    vi.stubEnv("AUTH_TRUST_PROXY", "1");
    expect(addresses.clientOf(from("192.0.2.200", forwarded))).toBe("192.0.2.1");
    vi.stubEnv("AUTH_TRUST_PROXY", "true");
    expect(addresses.clientOf(from(undefined, forwarded))).toBe("192.0.2.1");
    vi.stubEnv("AUTH_TRUST_PROXY", "2");
    expect(addresses.clientOf(from("192.0.2.200", forwarded))).toBe("203.0.113.8");
    // Fewer entries than proxies: the request did not come through them all, so the connection counts.
    vi.stubEnv("AUTH_TRUST_PROXY", "4");
    expect(addresses.clientOf(from("192.0.2.200", forwarded))).toBe("192.0.2.200");
    vi.stubEnv("AUTH_TRUST_PROXY", "1");
    const rfc7239 = { forwarded: 'for=192.0.2.43, for="[2001:db8:cafe::17]:4711";proto=https' };
    expect(addresses.clientOf(from("192.0.2.200", rfc7239))).toBe("2001:db8:cafe:0::/64");
    vi.stubEnv("AUTH_TRUST_PROXY", "false");
    expect(addresses.clientOf(from("192.0.2.200", forwarded))).toBe("192.0.2.200");
  });

  it("a nonsense AUTH_TRUST_PROXY trusts nothing, and says so", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    vi.stubEnv("AUTH_TRUST_PROXY", "yes please");
    expect(addresses.clientOf(from("192.0.2.200", { "x-forwarded-for": "203.0.113.8" }))).toBe("192.0.2.200");
    expect(String(warn.mock.calls[0]?.[0])).toContain("AUTH_TRUST_PROXY");
  });

  it("lastForwardedFor reads what next start appends", () => {
    expect(addresses.lastForwardedFor(new Headers({ "x-forwarded-for": "10.0.0.1, 203.0.113.4" }))).toBe("203.0.113.4");
    expect(addresses.lastForwardedFor(new Headers())).toBeUndefined();
  });

  it.each([
    ["203.0.113.5", "203.0.113.5"],
    ["203.0.113.5:4711", "203.0.113.5"],
    ["::ffff:203.0.113.5", "203.0.113.5"],
    ["0:0:0:0:0:ffff:cb00:7105", "203.0.113.5"],
    ["2001:db8:1:2:3:4:5:6", "2001:db8:1:2::/64"],
    ["2001:DB8:1:2::abcd", "2001:db8:1:2::/64"],
    ["[2001:db8::1]:443", "2001:db8:0:0::/64"],
    ["fe80::1%eth0", "fe80:0:0:0::/64"],
    ["::1", "0:0:0:0::/64"],
    ["64:ff9b::198.51.100.1", "64:ff9b:0:0::/64"],
    ["unknown", undefined],
    ["_hidden", undefined],
    ["proxy.internal", "proxy.internal"],
  ])("normalizes %s to %s", (address, client) => {
    expect(addresses.normalizeAddress(address)).toBe(client);
  });

  it("one IPv6 /64 is one client, however many addresses it holds", async () => {
    freshStore();
    const checked: number[] = [];
    for (let i = 0; i < 5; i++)
      await throttle.throttled(
        { kind: "password", account: "ada@example.com", request: from(`2001:db8:1:2::${i + 1}`), limits },
        async () => {
          checked.push(i);
          return null;
        },
      );
    expect(checked).toEqual([0, 1, 2]);
  });
});
