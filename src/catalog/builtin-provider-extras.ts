/**
 * What @auth/core's modules do not say about its built-in providers, written
 * by hand beside the derived data (builtin-providers.data.ts): where the app
 * is registered, the options a provider needs beyond its client ID and
 * secret, which ones to offer first, and which names this project's own
 * provider kinds serve instead.
 */
/**
 * The provider kinds (src/families/) that serve a built-in's name. Named here,
 * below the families: src/families/index.ts hands one on as a ProviderKind,
 * so a name that is no kind does not compile.
 */
export type ServingKind = "social" | "credentials" | "email" | "webauthn";

export interface BuiltinOption {
  /** camelCase key of the flag's value, as commander names it. */
  key: string;
  flag: string;
  description: string;
  required: boolean;
  default?: string;
  /** Accepted values: a pattern (with what it means) or a list. */
  pattern?: { test: RegExp; expected: string };
  values?: readonly string[];
  /** The provider option the value becomes (top level of the call). */
  property: string;
  /** Turns the flag's value into the option's value (a tenant into its issuer URL). */
  toValue?: (value: string) => unknown;
  /** The value is a URL: checked as the provider kinds check endpoints (https, or http on this machine). */
  url?: boolean;
  /**
   * Suffix of the variable (AUTH_<ID>_<suffix>) the module reads first, the
   * flag's value being the fallback written in the module and .env.example.
   */
  env?: string;
}

export interface BuiltinExtras {
  /** Where the app and its callback URL are registered. */
  console?: string;
  options?: readonly BuiltinOption[];
  /** Position in the short list prompts show first (1 first). */
  popular?: number;
  /** What the secret variable holds when it is not a plain client secret. */
  secret?: string;
  notes?: readonly string[];
  /** The module's type of its issuer, when @auth/core types it as a list of URLs: the issuer is cast to it. */
  issuerType?: { name: string; values: readonly string[] };
  /**
   * A type from the framework's providers module the built-in is given as,
   * where @auth/core's own return type does not fit its Provider type.
   */
  typeAs?: { name: string; why: string };
  /** Token facts its Auth.js module does not carry: see TokenFacts in families/family.ts. */
  tokens?: {
    noRefresh?: string;
    noEndSession?: string;
    /** Authorization parameters (deep-merged by Auth.js into the built-in's) that make it issue a refresh token. */
    refreshParams?: Readonly<Record<string, string>>;
  };
  /** A kind of this project serves this name (its module does more than the built-in). */
  servedBy?: ServingKind;
}

const emailSender = "AUTH_<ID>_FROM";

export const builtinExtras: Readonly<Record<string, BuiltinExtras>> = {
  github: {
    console: "https://github.com/settings/developers",
    popular: 1,
    tokens: {
      noRefresh: "GitHub OAuth Apps issue no refresh tokens (their tokens do not expire)",
    },
    options: [
      {
        key: "enterpriseUrl",
        flag: "--enterprise-url <url>",
        description: "GitHub Enterprise Server: its URL (sign-in and API go there instead of github.com)",
        required: false,
        url: true,
        property: "enterprise",
        toValue: (baseUrl) => ({ baseUrl }),
      },
    ],
  },
  google: {
    console: "https://console.cloud.google.com/apis/credentials",
    popular: 2,
    tokens: {
      // https://developers.google.com/identity/protocols/oauth2/web-server#offline
      refreshParams: { access_type: "offline", prompt: "consent" },
      noEndSession: "Google publishes no end_session_endpoint in its discovery document",
    },
  },
  apple: {
    console: "https://developer.apple.com/account/resources/identifiers/list/serviceId",
    popular: 3,
    secret:
      "a JWT you sign with your Sign in with Apple key (team ID, key ID, .p8 file; valid six months at most), not a static secret",
    notes: [
      "Apple signs in only over https and never on localhost: test it on a deployed URL or a tunnel.",
      "AUTH_APPLE_SECRET is a JWT signed with your Sign in with Apple key; generate a new one before it expires: https://authjs.dev/getting-started/providers/apple",
    ],
  },
  discord: { console: "https://discord.com/developers/applications", popular: 4 },
  "microsoft-entra-id": {
    console: "https://entra.microsoft.com/#view/Microsoft_AAD_RegisteredApps/ApplicationsListBlade",
    popular: 5,
    tokens: { refreshParams: { scope: "openid profile email User.Read offline_access" } },
    options: [
      {
        key: "tenant",
        flag: "--tenant <id>",
        description:
          'Microsoft Entra ID: directory (tenant) ID or domain; "common" (the default) admits any work or personal account',
        required: false,
        pattern: { test: /^[A-Za-z0-9.-]{1,100}$/, expected: "a tenant ID such as 1b2c…, a domain, or common" },
        property: "issuer",
        toValue: (tenant) => `https://login.microsoftonline.com/${tenant}/v2.0`,
        env: "ISSUER",
      },
    ],
  },
  gitlab: { console: "https://gitlab.com/-/user_settings/applications", popular: 6 },
  twitter: { console: "https://developer.x.com/en/portal/dashboard", popular: 7 },
  facebook: { console: "https://developers.facebook.com/apps", popular: 8 },
  linkedin: { console: "https://www.linkedin.com/developers/apps", popular: 9 },
  slack: { console: "https://api.slack.com/apps", popular: 10 },
  auth0: { console: "https://manage.auth0.com/", popular: 11 },
  keycloak: { popular: 12 },
  okta: { popular: 13 },
  cognito: { console: "https://console.aws.amazon.com/cognito/", popular: 14 },
  spotify: { console: "https://developer.spotify.com/dashboard", popular: 15 },
  twitch: { console: "https://dev.twitch.tv/console/apps", popular: 16 },
  battlenet: {
    console: "https://develop.battle.net/access/clients",
    issuerType: {
      name: "BattleNetIssuer",
      values: [
        "https://oauth.battle.net",
        "https://oauth.battlenet.com.cn",
        "https://www.battlenet.com.cn/oauth",
        "https://us.battle.net/oauth",
        "https://eu.battle.net/oauth",
        "https://kr.battle.net/oauth",
        "https://tw.battle.net/oauth",
      ],
    },
  },
  notion: {
    console: "https://www.notion.so/my-integrations",
    options: [
      {
        key: "redirectUri",
        flag: "--redirect-uri <url>",
        description: "Notion: the callback URL registered in the integration (Notion requires it in the request)",
        required: true,
        url: true,
        pattern: {
          test: /^https?:\/\/[^\s"'`\\]+$/,
          expected: "your callback URL, e.g. https://app.example.com/api/auth/callback/notion",
        },
        property: "redirectUri",
        env: "REDIRECT_URI",
      },
    ],
  },
  reddit: { console: "https://www.reddit.com/prefs/apps" },
  zoom: { console: "https://marketplace.zoom.us/develop/create" },
  dropbox: { console: "https://www.dropbox.com/developers/apps" },
  patreon: { console: "https://www.patreon.com/portal/registration/register-clients" },
  strava: { console: "https://www.strava.com/settings/api" },
  tiktok: { console: "https://developers.tiktok.com/apps" },
  figma: { console: "https://www.figma.com/developers/apps" },
  huggingface: { console: "https://huggingface.co/settings/connected-applications" },
  workos: {
    console: "https://dashboard.workos.com/",
    options: [
      {
        key: "connection",
        flag: "--connection <id>",
        description: "WorkOS: the SSO connection users sign in through (conn_…)",
        required: true,
        pattern: { test: /^[A-Za-z0-9_]{1,100}$/, expected: "a connection ID such as conn_01E4ZCR3C56J083X43JQXF3JK5" },
        property: "connection",
      },
    ],
  },
  netsuite: {
    options: [
      {
        key: "accountId",
        flag: "--account-id <id>",
        description: "NetSuite: account ID (TSTDRV1234567, 81555, or 1234567-SB1 for a sandbox)",
        required: true,
        pattern: { test: /^[A-Za-z0-9-]{1,50}$/, expected: "an account ID such as TSTDRV1234567 or 1234567-SB1" },
        property: "accountID",
      },
      {
        key: "userinfo",
        flag: "--userinfo <url>",
        description: "NetSuite: the RESTlet or Suitelet URL that returns the signed-in user",
        required: true,
        url: true,
        pattern: { test: /^https:\/\/[^\s"'`\\]+$/, expected: "an https URL of your RESTlet" },
        property: "userinfo",
      },
      {
        key: "prompt",
        flag: "--prompt <value>",
        description: "NetSuite: when the login or consent screen shows",
        required: false,
        default: "login",
        values: ["none", "login", "consent", "login consent"],
        property: "prompt",
      },
      {
        key: "scope",
        flag: "--scope <scopes>",
        description: "space-separated scopes to request",
        required: false,
        default: "restlets rest_webservices",
        pattern: { test: /^[\w .:/-]{1,200}$/, expected: "space-separated scopes" },
        property: "scope",
      },
    ],
  },
  // Email services: an API key (AUTH_<ID>_KEY, which Auth.js reads) and a sender.
  resend: { console: "https://resend.com/api-keys", popular: 17 },
  sendgrid: { console: "https://app.sendgrid.com/settings/api_keys" },
  postmark: { console: "https://account.postmarkapp.com/servers" },
  mailgun: {
    console: "https://app.mailgun.com/settings/api_security",
    options: [
      {
        key: "region",
        flag: "--region <region>",
        description: "Mailgun: the region of your domain",
        required: false,
        values: ["US", "EU"],
        property: "region",
      },
    ],
  },
  loops: {
    console: "https://app.loops.so/settings?page=api",
    typeAs: {
      name: "EmailConfig",
      why: "@auth/core types Loops' sendVerificationRequest more narrowly than an email provider's, which the config's providers list refuses",
    },
    options: [
      {
        key: "transactionalId",
        flag: "--transactional-id <id>",
        description: "Loops: the transactional email that carries the sign-in link (its ID in Loops)",
        required: true,
        pattern: {
          test: /^[A-Za-z0-9_-]{1,100}$/,
          expected: "a transactional email ID such as clfq6dinn000yl70fgwwyp82l",
        },
        property: "transactionalId",
        env: "TRANSACTIONAL_ID",
      },
    ],
  },
  forwardemail: { console: "https://forwardemail.net/my-account/security" },
  nodemailer: {
    notes: [
      "Nodemailer sends through the SMTP server in EMAIL_SERVER (smtp://user:password@host:587); without it, it tries localhost:25.",
    ],
  },
  // Names this project's own kinds serve: their modules do more than the built-ins.
  vk: { servedBy: "social", console: "https://id.vk.ru/about/business/go" },
  credentials: { servedBy: "credentials" },
  email: { servedBy: "email" },
  passkey: { servedBy: "webauthn" },
  webauthn: { servedBy: "webauthn" },
};

/** The sender variable of an email service: Auth.js has none, so the generated module reads this one. */
export const senderVariable = (envRoot: string) => emailSender.replace("AUTH_<ID>", envRoot);
