/** A user name and password inside URLs ("//user:pass@host") shown as "//***@host": messages never print them. */
export const hideUrlCredentials = (text: string) => text.replace(/\/\/[^/@\s"]*@/g, "//***@");
