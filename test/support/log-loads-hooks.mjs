// Module hooks for log-loads.mjs (they may run in a thread of their own).
import { appendFileSync } from "node:fs";

export async function load(url, context, nextLoad) {
  if (process.env.LOAD_LOG) appendFileSync(process.env.LOAD_LOG.replace("{pid}", String(process.pid)), `${url}\n`);
  return nextLoad(url, context);
}
