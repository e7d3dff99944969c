/**
 * The providers next-auth v4 ships as `next-auth/providers/<module>` (4.24.15,
 * its last line: v4 gets fixes only, so the list is settled). Auth.js v5 added
 * many (resend, passkey, microsoft-entra-id…), which a v4 project cannot import.
 */
export const nextAuthV4Providers: ReadonlySet<string> = new Set(
  (
    "42-school apple atlassian auth0 authentik azure-ad-b2c azure-ad battlenet box boxyhq-saml bungie cognito " +
    "coinbase credentials discord dropbox duende-identity-server6 email eveonline facebook faceit foursquare " +
    "freshbooks fusionauth github gitlab google hubspot identity-server4 instagram kakao keycloak line linkedin " +
    "mailchimp mailru medium naver netlify okta onelogin osso osu passage patreon pinterest pipedrive reddit " +
    "salesforce slack spotify strava todoist trakt twitch twitter united-effects vk wikimedia wordpress workos " +
    "yandex zitadel zoho zoom"
  ).split(" "),
);
