/**
 * --refresh-tokens and --federated-logout as init and add-provider both take
 * them: one pair of rows for both options tables, so the two commands speak
 * one vocabulary (a bare flag asks for it, the --no- form answers a terminal's
 * question ahead of it).
 */
import { z } from "zod";
import type { OptionRow } from "../lib/command-options.js";

export const tokenOptionRows = {
  refreshTokens: {
    flag: "--refresh-tokens",
    negation: "--no-refresh-tokens",
    description:
      "refresh OAuth access tokens when they expire: the provider is asked for a refresh token, the tokens stay on the stored account, getAccessToken() serves your API calls",
    schema: z.boolean().optional(),
  },
  federatedLogout: {
    flag: "--federated-logout",
    negation: "--no-federated-logout",
    description:
      "sign out at the OAuth provider too: revoke its refresh token, and send the browser to its end-session endpoint",
    schema: z.boolean().optional(),
  },
} satisfies Record<string, OptionRow>;
