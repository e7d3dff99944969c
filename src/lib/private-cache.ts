/**
 * The folders of compiled code create-auth keeps in the user's cache folder
 * (XDG), each one that only the user running it can write: Node's own
 * compile cache (module.enableCompileCache, Node 22.1+) for the CLI, and
 * the temp folder where tsx keeps the user's adapter module compiled.
 *
 * A code cache is code: V8 (or tsx) runs what it holds without checking it
 * against the source. A cache folder that another user could create or write (a
 * shared temp dir, a folder they own, one with group or other write) would
 * let them run code as whoever runs create-auth next. So the folder is
 * created 0700, and used only when it and every folder above it pass
 * `trustedFolder`; otherwise the CLI runs without a cache, which costs speed
 * and nothing else. Node 20 has no public cache API and runs without one.
 *
 * The launcher (bin/create-auth.js) calls this before it loads the CLI, so
 * this module imports nothing but Node's own modules and make-folders.ts.
 */
import { lstatSync, realpathSync, type Stats } from "node:fs";
import module from "node:module";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { makeFolders } from "./make-folders.js";

type EnableCompileCache = (directory: string) => { status: number; directory?: string; message?: string };

/** Where the cache lives: $CREATE_AUTH_COMPILE_CACHE, else the user's cache folder (XDG), never a shared one. */
export function compileCacheFolder(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.CREATE_AUTH_COMPILE_CACHE) return env.CREATE_AUTH_COMPILE_CACHE;
  const root = cacheRoot(env);
  return root ? join(root, "compile-cache") : undefined;
}

/** create-auth's folder in the user's cache folder (XDG): never a shared one. */
function cacheRoot(env: NodeJS.ProcessEnv): string | undefined {
  const cacheHome = env.XDG_CACHE_HOME || (homedir() ? join(homedir(), ".cache") : "");
  return cacheHome ? join(cacheHome, "create-auth") : undefined;
}

/** Creates `path` 0700 if needed; returns its real path when only this user can write it. */
function ownFolder(path: string): string | undefined {
  const uid = process.getuid?.();
  if (uid === undefined) return undefined;
  try {
    // 0700 from the start: no moment when another user could write into it.
    makeFolders(path, 0o700);
    const folder = realpathSync(path);
    return trustedFolder(folder, uid) ? folder : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A temp folder only this user can write, for the process that loads a
 * user's TypeScript module: tsx caches compiled code in $TMPDIR/tsx-<uid> and
 * runs what it finds there, and a shared /tmp would let another user plant
 * it. Undefined when no such folder can be had: then run without that cache.
 */
export function privateTempFolder(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const root = cacheRoot(env);
  return root ? ownFolder(join(root, "tmp")) : undefined;
}

const sticky = 0o1000;
const groupOrOtherWrite = 0o022;

/**
 * Whether a folder can hold code this user will run: a real folder (not a
 * link) owned by the user, writable by nobody else. The folders above it
 * must be owned by the user or by root and, when others may write them, be
 * sticky (like /tmp), so nobody else can swap the folder for their own.
 */
export function trustedFolder(path: string, uid: number, stat: (path: string) => Stats = lstatSync): boolean {
  let info: Stats;
  try {
    info = stat(path);
  } catch {
    return false;
  }
  if (!info.isDirectory() || info.uid !== uid || (info.mode & groupOrOtherWrite) !== 0) return false;
  for (let dir = dirname(path); ; dir = dirname(dir)) {
    let above: Stats;
    try {
      above = stat(dir);
    } catch {
      return false;
    }
    if (!above.isDirectory() || (above.uid !== uid && above.uid !== 0)) return false;
    if ((above.mode & groupOrOtherWrite) !== 0 && (above.mode & sticky) === 0) return false;
    if (dirname(dir) === dir) return true;
  }
}

/**
 * Turns the cache on for the rest of the process when Node has it and the
 * folder can be trusted; returns the folder used, if any. NODE_DISABLE_COMPILE_CACHE,
 * Node's own switch, turns it off.
 */
export function enableCompileCache(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const enable = (module as { enableCompileCache?: EnableCompileCache }).enableCompileCache;
  const wanted = compileCacheFolder(env);
  if (!enable || env.NODE_DISABLE_COMPILE_CACHE || !wanted) return undefined;
  const folder = ownFolder(wanted);
  if (!folder) return undefined;
  try {
    return enable(folder).directory;
  } catch {
    return undefined;
  }
}
