#!/usr/bin/env node
// The launcher: Node's compile cache first, in a folder only this user can
// write (src/lib/compile-cache.ts), then the command line.
import { enableCompileCache } from "../dist/cli/compile-cache.js";

enableCompileCache();
const { main } = await import("../dist/cli/create-auth.js");
await main();
