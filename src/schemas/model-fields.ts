/**
 * The fields the service reads from each record: those of §2.9 and the
 * stored columns §2.10 adds (an account's `session_state`, the rows' own
 * `id`). An answer is copied field by field through these (access/answers.ts),
 * so a model instance whose fields are getters reads as its plain twin.
 *
 * Plain lists, not read from the zod models (adapter-models.ts, whose test
 * holds the two equal): the worker process copies answers with them, and
 * loading zod there would delay the first adapter call of every run.
 */
export type ModelName = "user" | "account" | "session" | "verificationToken" | "authenticator";

export const modelFields: Record<ModelName, readonly string[]> = {
  user: ["id", "email", "emailVerified", "name", "image"],
  account: [
    "userId",
    "type",
    "provider",
    "providerAccountId",
    "access_token",
    "refresh_token",
    "id_token",
    "scope",
    "expires_in",
    "expires_at",
    "token_type",
    "session_state",
    "id",
  ],
  session: ["sessionToken", "userId", "expires", "id"],
  verificationToken: ["identifier", "token", "expires"],
  authenticator: [
    "credentialID",
    "credentialPublicKey",
    "counter",
    "credentialDeviceType",
    "credentialBackedUp",
    "providerAccountId",
    "userId",
    "transports",
  ],
};
