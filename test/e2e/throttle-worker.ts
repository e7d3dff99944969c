/**
 * One app process of sign-in-throttle.db.test.ts: the generated project in
 * argv[2], on the database its env names, signs in `count` times at once
 * from one client with one password, and prints what each answer was.
 * Usage: tsx throttle-worker.ts <dir> <client> <email> <password> <count>
 */
import { loadThrottleApp, passwordSignIn } from "./throttle-app.js";

const [dir, client, email, password, count] = process.argv.slice(2) as [string, string, string, string, string];
const app = await loadThrottleApp(dir);
const answers = await Promise.all(
  Array.from({ length: Number(count) }, () => passwordSignIn(app, client, email, password)),
);
process.stdout.write(JSON.stringify(answers.map(({ status, location, signedIn }) => ({ status, location, signedIn }))));
// The adapter's pool would keep the process alive until its idle connections time out.
process.exit(0);
