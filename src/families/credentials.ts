/** `add-provider credentials`: a sign-in form checked by the app's own authorize(). */
import { posix } from "node:path";
import { z } from "zod";
import { defineFamily, idOption, nameOption, opt } from "./family.js";
import { commonOptions, idSchema, list, pascal, quoted } from "./shared.js";
import { twoFactorMethods, twoFactorOption } from "./two-factor.js";

/** Field names become object keys in the generated code and form field names. */
const fieldName = /^[a-zA-Z][a-zA-Z0-9_]{0,49}$/;

export const credentialsSchema = z.object({
  ...commonOptions,
  id: idSchema.default("credentials"),
  fields: list
    .superRefine((values, ctx) => {
      const bad = values.find((v) => !fieldName.test(v));
      if (bad !== undefined || values.length === 0) {
        ctx.addIssue({
          code: z.ZodIssueCode.custom,
          message: `${quoted(bad ?? "")} is not a field name; expected names such as email,password (a letter, then letters, digits or _)`,
        });
      }
    })
    .transform((values) => [...new Set(values)])
    .default(["email", "password"]),
  twoFactor: z.enum(twoFactorMethods).default("none"),
});

export const credentialsFamily = defineFamily({
  kind: "credentials",
  title: "Credentials",
  description: "a sign-in form checked by your own authorize() function",
  options: [
    idOption("credentials"),
    nameOption("Credentials"),
    opt("fields", "--fields <list>", "comma-separated form fields", { fallback: "email,password" }),
    twoFactorOption,
  ],
  schema: credentialsSchema,
  // next-auth v4 ships the same provider; its authorize() may get no credentials at all.
  nextAuthV4: true,
  plan: (o, names, context) => {
    const fields = o.fields.map((key) => ({
      key,
      label: pascal(key),
      type: key === "password" ? "password" : key === "email" ? "email" : "text",
    }));
    const ext = context.importExtension ?? "";
    // The generated password check reads an email and a password; other forms keep the skeleton.
    const passwords =
      context.passwordsModule && o.fields.includes("email") && o.fields.includes("password")
        ? `${context.passwordsModule}${ext}`
        : undefined;
    // Attempts are counted per account: the field that names it (the email, else the first that is not a password).
    const accountField = o.fields.includes("email") ? "email" : o.fields.find((f) => f !== "password");
    const throttle = context.throttleModule && accountField ? `${context.throttleModule}${ext}` : undefined;
    // Two-factor: authorize() sends a right password on to the code page (two-factor.ts beside the adapter).
    const twoFactor =
      o.twoFactor === "totp" && context.twoFactorModule ? `${context.twoFactorModule}${ext}` : undefined;
    return {
      env: [],
      files: [{ template: "credentials.ts.hbs", path: names.file }],
      throttled: throttle !== undefined,
      view: {
        ...o,
        name: o.name ?? "Credentials",
        fields,
        passwords: passwords ?? false,
        throttle: throttle ?? false,
        accountField,
        twoFactor: twoFactor ?? false,
        credentialsModule: context.nextAuthV4 ? "next-auth/providers/credentials" : "@auth/core/providers/credentials",
        optional: context.nextAuthV4 ? "?" : "",
      },
      hasCallback: false,
      notes: [
        passwords
          ? "Add a user who signs in with a password: npm run auth:add-user -- you@example.com"
          : `Write the password check in ${posix.join(context.modulesDir ?? "", names.file)} (// TODO: check the password here); until then every sign-in is refused.`,
        'Auth.js keeps credentials sign-ins in JWT sessions only: keep session: { strategy: "jwt" } (the default).',
        ...(twoFactor
          ? [
              "Two-factor sign-in: a signed-in user turns it on at /two-factor; someone who lost their device signs in with a recovery code, and without one you turn it off for them (after checking who they are) with resetTwoFactor(userId) from the generated two-factor module.",
            ]
          : []),
      ],
      ...(twoFactor ? { twoFactor: true } : {}),
    };
  },
});
