/**
 * Two-factor sign-in in Chromium, on an app init wrote with --providers
 * credentials --two-factor totp and a user added by auth:add-user: sign in
 * with the password, turn two-factor on at /two-factor (the QR code read by
 * jsQR names the key shown as text; the first code confirms it; the recovery
 * codes are shown), sign out, sign in with the password and then a code
 * (the confirming code refused as a replay, the next one accepted), the same
 * code refused on another sign-in, and a recovery code accepted once. Codes
 * are computed here with node:crypto, not with the generated totp.ts.
 */
import { createHmac } from "node:crypto";
import type { Browser, Page } from "playwright-core";
import { expect } from "vitest";
import { readQrSvg } from "../two-factor/qr-reader.js";
import { sessionOf, signInWithPassword } from "./apps.js";

export interface TwoFactorApp {
  origin: string;
  /** Where Auth.js answers. */
  basePath: string;
  output(): string;
  /** The framework hands its routes no client address (React Router's server): the throttle says so instead. */
  noClientAddress?: boolean;
}

function base32Decode(text: string): Buffer {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const char of text.replace(/[\s=]/g, "").toUpperCase())
    bits += alphabet.indexOf(char).toString(2).padStart(5, "0");
  return Buffer.from(bits.match(/.{8}/g)!.map((byte) => Number.parseInt(byte, 2)));
}

/** RFC 6238 with SHA-1, 6 digits, 30 s: what an authenticator app shows at `ms`. */
function codeAt(key: Buffer, ms: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(ms / 30_000)));
  const mac = createHmac("sha1", key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

async function signOut(page: Page, app: TwoFactorApp): Promise<void> {
  const auth = `${app.origin}${app.basePath}`;
  await page.goto(`${auth}/signout`);
  await page.locator(`form[action$="${app.basePath}/signout"] button`).click();
  await page.waitForURL((url) => !url.pathname.startsWith(`${app.basePath}/signout`));
  expect(await sessionOf(page, auth)).toBeNull();
}

/** The password step: lands on the code page for a user with two-factor on, signed in by nothing yet. */
async function passwordToCodePage(page: Page, app: TwoFactorApp, user: { email: string; password: string }) {
  const auth = `${app.origin}${app.basePath}`;
  await signInWithPassword(page, auth, user);
  expect(new URL(page.url()).pathname, app.output()).toBe("/two-factor/verify");
  expect(await sessionOf(page, auth)).toBeNull();
}

async function enterCode(page: Page, code: string): Promise<void> {
  await page.getByLabel("Code from your authenticator app").fill(code);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForLoadState();
}

export async function twoFactorFlow(
  browser: Browser,
  app: TwoFactorApp,
  user: { email: string; password: string },
  defer: (fn: () => unknown) => void,
): Promise<void> {
  const context = await browser.newContext();
  defer(() => context.close());
  const page = await context.newPage();
  const auth = `${app.origin}${app.basePath}`;

  // Two-factor is off: the password alone signs in. Then the user turns it on.
  await signInWithPassword(page, auth, user);
  expect((await sessionOf(page, auth))?.user?.email, app.output()).toBe(user.email);
  await page.goto(`${app.origin}/two-factor`);
  await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
  await page.waitForURL(`${app.origin}/two-factor/setup`);
  const svg = await page.locator("svg[role=img]").evaluate((element) => element.outerHTML);
  const uri = new URL((await readQrSvg(svg))!);
  const secret = uri.searchParams.get("secret")!;
  expect(((await page.locator("#secret").textContent()) ?? "").replace(/\s/g, "")).toBe(secret);
  const key = base32Decode(secret);
  const confirmedAt = Date.now();
  await page.getByLabel("Then enter the code the app shows").fill(codeAt(key, confirmedAt));
  await page.getByRole("button", { name: "Turn on two-factor sign-in" }).click();
  await page.waitForURL(`${app.origin}/two-factor/confirm`);
  const recovery = (await page.locator("#recovery-codes code").allTextContents()).map((c) => c.trim());
  expect(recovery, app.output()).toHaveLength(10);
  await signOut(page, app);

  // Password, then code: the code that confirmed the enrolment is refused (used), a later one signs in.
  await passwordToCodePage(page, app, user);
  await enterCode(page, codeAt(key, confirmedAt));
  expect(new URL(page.url()).searchParams.get("retry")).toBe("1");
  await expect.poll(() => page.getByRole("alert").textContent()).toContain("did not sign you in");
  expect(await sessionOf(page, auth)).toBeNull();
  // Still within the enrolment's 30 s step, the next step's code is what a phone a little ahead shows, and the
  // verifier takes one step of skew: no waiting for the clock. Once the step has moved on, the current code.
  const code = codeAt(key, Math.max(confirmedAt + 30_000, Date.now()));
  await enterCode(page, code);
  expect((await sessionOf(page, auth))?.user?.email, app.output()).toBe(user.email);
  await signOut(page, app);

  // The same code on another sign-in: refused.
  await passwordToCodePage(page, app, user);
  await enterCode(page, code);
  expect(new URL(page.url()).pathname).toBe("/two-factor/verify");
  expect(await sessionOf(page, auth)).toBeNull();

  // A recovery code instead, once.
  const useRecovery = async (value: string) => {
    await page.getByText("Lost your device? Use a recovery code").click();
    await page.getByLabel("Recovery code").fill(value);
    await page.getByRole("button", { name: "Sign in with a recovery code" }).click();
    await page.waitForLoadState();
  };
  await useRecovery(recovery[0]!);
  expect((await sessionOf(page, auth))?.user?.email, app.output()).toBe(user.email);
  await signOut(page, app);
  await passwordToCodePage(page, app, user);
  await useRecovery(recovery[0]!);
  expect(new URL(page.url()).searchParams.get("retry")).toBe("1");
  expect(await sessionOf(page, auth)).toBeNull();
  // Passwords and codes were counted by the client's address: the routes passed it (or the throttle said it had none).
  const unknownClient = "a request reached Auth.js without the client's address";
  if (app.noClientAddress) expect(app.output()).toContain(unknownClient);
  else expect(app.output()).not.toContain(unknownClient);
}
