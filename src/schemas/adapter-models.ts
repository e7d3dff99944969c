/**
 * zod models of the adapter models of §2.9, used to check what an adapter
 * returns. Objects are loose: §2.10 lets entities carry additional fields.
 */
import { z } from "zod";

/**
 * §2.9 types ids as strings. SQL adapters with SERIAL keys hand back numbers
 * and the service copes (it only ever passes them back), so a whole number
 * is accepted here and reported as a warning by the suite, not a failure.
 */
const idSchema = z.union([z.string().min(1), z.number().int()]);

/** A real, valid Date object: never a string or a number (§2.9). */
const dateSchema = z.date({ invalid_type_error: "expected a Date object" }).refine((d) => !Number.isNaN(d.getTime()), {
  message: "expected a valid Date (got Invalid Date)",
});

/**
 * Optional fields of §2.9 may be absent. SQL stores cannot tell "absent" from
 * NULL, so null is accepted wherever a field is optional.
 */
const optional = <T extends z.ZodTypeAny>(schema: T) => schema.nullish();

const adapterAccountTypeSchema = z.enum(["oauth", "oidc", "email", "webauthn"]);

export const adapterUserSchema = z
  .object({
    id: idSchema,
    email: z.string(),
    emailVerified: dateSchema.nullable(),
    name: optional(z.string()),
    image: optional(z.string()),
  })
  .passthrough();

export const adapterAccountSchema = z
  .object({
    userId: idSchema,
    type: adapterAccountTypeSchema,
    provider: z.string(),
    providerAccountId: z.string(),
    access_token: optional(z.string()),
    refresh_token: optional(z.string()),
    id_token: optional(z.string()),
    scope: optional(z.string()),
    expires_in: optional(z.number()),
    expires_at: optional(z.number()),
    // §2.9: "Always stored lowercased".
    token_type: optional(z.string().refine((t) => t === t.toLowerCase(), { message: "token_type must be lowercase" })),
  })
  .passthrough();

export const adapterSessionSchema = z
  .object({
    sessionToken: z.string(),
    userId: idSchema,
    expires: dateSchema,
  })
  .passthrough();

export const verificationTokenSchema = z
  .object({
    identifier: z.string(),
    token: z.string(),
    expires: dateSchema,
  })
  .passthrough();

export const adapterAuthenticatorSchema = z
  .object({
    credentialID: z.string(),
    credentialPublicKey: z.string(),
    counter: z.number(),
    credentialDeviceType: z.string(),
    credentialBackedUp: z.boolean(),
    providerAccountId: z.string(),
    userId: idSchema,
    transports: optional(z.string()),
  })
  .passthrough();

export const sessionAndUserSchema = z
  .object({
    session: adapterSessionSchema,
    user: adapterUserSchema,
  })
  .passthrough();

export { type ModelName, modelFields } from "./model-fields.js";
