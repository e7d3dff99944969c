// Kept in step with package.json by test/cli.test.ts; reading package.json at start-up would cost a file read on every --help.
export const version = "0.1.0";
