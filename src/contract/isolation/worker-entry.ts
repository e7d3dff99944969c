// The worker's launcher, like bin/create-auth.js: the compile cache first,
// then the worker's code (src/contract/isolation/worker.ts). No top-level await: when
// the module leaves nothing running, the process must end plainly (code 0)
// so the supervisor can say what never settled.
import { enableCompileCache } from "../../lib/private-cache.js";

enableCompileCache();
void import("./worker.js").then(({ startWorker }) => startWorker());
