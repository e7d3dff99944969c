#!/usr/bin/env node
// The launcher: Node's compile cache first, in a folder only this user can
// write (src/lib/private-cache.ts); for verify-adapter, its worker process at
// once, so its start overlaps the CLI's (src/contract/isolation/spawn-worker.ts: about
// 20 ms of a 250 ms default run on Node 24); then the command line.
import { enableCompileCache } from "../dist/cli/private-cache.js";

enableCompileCache();
if (process.argv[2] === "verify-adapter")
  (await import("../dist/cli/spawn-worker.js")).prestartWorker(process.argv.slice(3));
const { main } = await import("../dist/cli/create-auth.js");
await main();
