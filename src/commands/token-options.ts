/**
 * --refresh-tokens and --federated-logout as init and add-provider both take
 * them: one pair of rows for both options tables, so the two commands speak
 * one vocabulary (a bare flag asks for it, the --no- form answers a terminal's
 * question ahead of it) and ask one question each. The questions come once
 * the providers are known, and only where every one of them can do it
 * (askTokens in token-support.ts): not among a command's first questions.
 */
import { z } from "zod";
import type { OptionRow, Question } from "../lib/command-options.js";

/** A question answered no or yes, "no" preselected: the flag itself answers yes, its --no- form no. */
const yesOrNo = (message: string): Question<unknown> => ({
  message,
  choices: () => ["no", "yes"].map((value) => ({ value, label: value })),
  initial: () => "no",
  later: true,
});

export const tokenOptionRows = {
  refreshTokens: {
    flag: "--refresh-tokens",
    negation: "--no-refresh-tokens",
    description:
      "refresh OAuth access tokens when they expire: the provider is asked for a refresh token, the tokens stay on the stored account, getAccessToken() serves your API calls",
    schema: z.boolean().optional(),
    question: yesOrNo("Refresh their access tokens when they expire (--refresh-tokens)"),
  },
  federatedLogout: {
    flag: "--federated-logout",
    negation: "--no-federated-logout",
    description:
      "sign out at the OAuth provider too: revoke its refresh token, and send the browser to its end-session endpoint",
    schema: z.boolean().optional(),
    question: yesOrNo("Sign out at the provider too (--federated-logout)"),
  },
} satisfies Record<string, OptionRow>;
