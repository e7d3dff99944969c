// Loaded with `node --import`: records the URL of every module the process
// loads into $LOAD_LOG, one a line, so a test can see what a command pulled in;
// a {pid} in the name gives each process its own file (through NODE_OPTIONS,
// verify-adapter's worker logs too).
import { register } from "node:module";

register(new URL("./log-loads-hooks.mjs", import.meta.url));
