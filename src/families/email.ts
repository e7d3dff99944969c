/** `add-provider email`: passwordless sign-in by a link sent over SMTP (or, with --service, an email service's built-in). */
import { z } from "zod";
import { defineFamily, idOption, nameOption, opt } from "./family.js";
import { commonOptions, dotenvSafe, envPrefix, idSchema, mailbox, quoted, text } from "./shared.js";

function seconds(value: number | string): number | undefined {
  const n = typeof value === "number" ? value : /^\s*\d+\s*$/.test(value) ? Number(value) : Number.NaN;
  return Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

export const emailSchema = z.object({
  ...commonOptions,
  id: idSchema.default("email"),
  from: text("an address such as no-reply@example.com")
    .refine(
      (v) => mailbox.test(v.trim()),
      (v) => ({
        message: `${quoted(v)} is not an email address; expected no-reply@example.com or "Name <no-reply@example.com>"`,
      }),
    )
    .transform((v) => v.trim())
    .optional(),
  maxAge: z
    .union([z.number(), z.string()], { errorMap: () => ({ message: "expected a number of seconds such as 86400" }) })
    .refine(
      (v) => seconds(v) !== undefined,
      (v) => ({ message: `${quoted(v)} is not a positive whole number of seconds; expected e.g. 86400 (one day)` }),
    )
    .transform((v) => seconds(v)!)
    .optional(),
});

export const emailFamily = defineFamily({
  kind: "email",
  title: "Email link",
  description: "passwordless sign-in by a link sent by email (needs an adapter)",
  options: [
    idOption("email"),
    nameOption("Email"),
    opt("from", "--from <address>", 'sender, e.g. "Sign in <no-reply@example.com>" (also read from AUTH_<ID>_FROM)'),
    opt("maxAge", "--max-age <seconds>", "how long a sign-in link stays valid", { fallback: "86400" }),
    opt(
      "service",
      "--service <name>",
      "send through an email service of Auth.js instead: resend, sendgrid, postmark, mailgun, loops, forwardemail, nodemailer (same as add-provider <name>)",
    ),
  ],
  // Production sends the link over SMTP (EMAIL_SERVER).
  dependencies: ["nodemailer", "@types/nodemailer"],
  schema: emailSchema,
  plan: (o, names, context) => {
    const from = `${envPrefix(o.id)}_FROM`;
    const throttle = context.throttleModule ? `${context.throttleModule}${context.importExtension ?? ""}` : undefined;
    return {
      throttled: throttle !== undefined,
      throttledEmails: true,
      env: [
        {
          name: from,
          description: `Sender of the sign-in emails of provider "${o.id}"`,
          example: o.from === undefined ? "no-reply@example.com" : dotenvSafe(o.from) ? o.from : "",
        },
        {
          name: "EMAIL_SERVER",
          description:
            "SMTP server the sign-in links are sent through, e.g. smtp://user:password@smtp.example.com:587 (empty in development: the link is logged)",
          example: "",
        },
      ],
      files: [{ template: "email.ts.hbs", path: names.file }],
      view: {
        ...o,
        name: o.name ?? "Email",
        envFrom: from,
        throttle: throttle ?? false,
        notConfigured: `EMAIL_SERVER is not set, so no sign-in email can be sent: set it to your SMTP server (smtp://user:password@host:587) in the environment or .env.local.`,
      },
      hasCallback: false,
      notes: [
        "Email sign-in needs an adapter with createVerificationToken, useVerificationToken and getUserByEmail: https://authjs.dev/getting-started/authentication/email",
        "Email links are logged in development; to send them, set EMAIL_SERVER (an SMTP URL) and the sender in .env.local.",
      ],
    };
  },
});
