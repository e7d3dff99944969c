/**
 * The generated auth-v4-compat module, run: it opens a session token made as
 * next-auth v4 made them (a JWE, alg dir, enc A256GCM, the key derived with
 * HKDF-SHA256 from the secret alone, info "NextAuth.js Generated Encryption
 * Key", per next-auth 4's jwt/index.ts), reads v5's own tokens first, and
 * refuses a token under another secret, an expired one and a tampered one.
 * next-auth 5's `next-auth/jwt` is `export * from "@auth/core/jwt"`; the
 * project here gets exactly that module, next-auth itself not being installed.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { encode } from "@auth/core/jwt";
import { EncryptJWT } from "jose";
import { describe, expect, it } from "vitest";
import { compatModule } from "../../src/planners/upgrade/generated.js";
import { root, tempDir } from "../helpers.js";

const salt = "next-auth.session-token";
const secret = "a-v4-secret-of-the-app-0123456789abcdef";

async function v4Token(payload: Record<string, unknown>, withSecret: string, expiresIn = 3600): Promise<string> {
  const encoder = new TextEncoder();
  const material = await crypto.subtle.importKey("raw", encoder.encode(withSecret), "HKDF", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: new Uint8Array(0),
      info: encoder.encode("NextAuth.js Generated Encryption Key"),
    },
    material,
    256,
  );
  const now = Math.floor(Date.now() / 1000);
  return new EncryptJWT(payload)
    .setProtectedHeader({ alg: "dir", enc: "A256GCM" })
    .setIssuedAt(now)
    .setExpirationTime(now + expiresIn)
    .setJti(randomUUID())
    .encrypt(new Uint8Array(bits));
}

type Compat = {
  decodeV4Session(params: { token?: string; secret: string | string[]; salt: string }): Promise<unknown>;
};

/** The module as upgrade writes it, in a project whose node_modules has next-auth 5's jwt module. */
async function load(typescript: boolean): Promise<Compat> {
  const dir = tempDir("create-auth-compat-");
  mkdirSync(join(dir, "node_modules/next-auth"), { recursive: true });
  symlinkSync(join(root, "node_modules/@auth"), join(dir, "node_modules/@auth"), "dir");
  writeFileSync(
    join(dir, "node_modules/next-auth/package.json"),
    JSON.stringify({ name: "next-auth", type: "module", exports: { "./jwt": "./jwt.js" } }),
  );
  writeFileSync(join(dir, "node_modules/next-auth/jwt.js"), 'export * from "@auth/core/jwt";\n');
  writeFileSync(join(dir, "package.json"), JSON.stringify({ name: "app", type: "module" }));
  const file = join(dir, `auth-v4-compat.${typescript ? "ts" : "js"}`);
  writeFileSync(file, compatModule(typescript, { csrf: false, jwtSecret: false }));
  return (await import(file)) as Compat;
}

describe("the generated auth-v4-compat module", () => {
  for (const typescript of [true, false])
    it(`reads v4's and v5's session tokens and refuses the wrong ones (${typescript ? "TypeScript" : "JavaScript"})`, async () => {
      const { decodeV4Session } = await load(typescript);
      const who = { sub: "u-alice", email: "alice@example.com" };
      const v4 = await v4Token(who, secret);
      expect(await decodeV4Session({ token: v4, secret, salt })).toMatchObject(who);
      // Rotated secrets: the old one, second in the list, still opens the token.
      expect(
        await decodeV4Session({ token: v4, secret: ["a-newer-secret-0123456789abcdef", secret], salt }),
      ).toMatchObject(who);
      const v5 = await encode({ token: { sub: "u-bob" }, secret, salt });
      expect(await decodeV4Session({ token: v5, secret, salt })).toMatchObject({ sub: "u-bob" });

      expect(await decodeV4Session({ token: v4, secret: "another-secret-0123456789abcdef", salt })).toBeNull();
      expect(await decodeV4Session({ token: await v4Token(who, secret, -60), secret, salt })).toBeNull();
      const parts = v4.split(".");
      const tag = parts[4]!;
      parts[4] = `${tag[0] === "A" ? "B" : "A"}${tag.slice(1)}`;
      expect(await decodeV4Session({ token: parts.join("."), secret, salt })).toBeNull();
      expect(await decodeV4Session({ token: "not.a.token", secret, salt })).toBeNull();
    });
});
