/**
 * A user name and password inside URLs ("//user:pass@host") shown as
 * "//***@host": messages never print them. The userinfo runs to the last "@"
 * before the path, so a password with an unencoded "@" is hidden whole.
 */
export const hideUrlCredentials = (text: string) => text.replace(/\/\/[^/?#\s"'<>]*@/g, "//***@");
