/**
 * Why a URL the user gave cannot work, said precisely: the URL parser's own
 * error is a bare "Invalid URL", which names neither the input nor the part
 * that is wrong. Messages never quote the URL (it may hold a password).
 */

/** The port of a `scheme://…` value as written (after the host, before the path), or undefined without one. */
function writtenPort(value: string): string | undefined {
  const authority = /^[a-z][a-z\d+.-]*:\/\/([^/?#]*)/i.exec(value)?.[1];
  if (authority === undefined) return undefined;
  const host = authority.slice(authority.lastIndexOf("@") + 1);
  const port = host.startsWith("[") ? /^\[[^\]]*\]:(.*)$/.exec(host)?.[1] : /:([^:]*)$/.exec(host)?.[1];
  return port === "" ? undefined : port;
}

/**
 * What is wrong with the port of a `scheme://host:port` value, or undefined
 * when it is fine or absent. The port is not quoted: in a URL whose password
 * holds an unencoded "#" or "/", what reads as the port is part of the password.
 */
export function portProblem(value: string): string | undefined {
  const port = writtenPort(value);
  if (port === undefined) return undefined;
  if (!/^\d+$/.test(port))
    return "what follows the host's colon is not a port number (a user name or password holding @, #, / or : must be percent-encoded)";
  const number = Number(port);
  if (number < 1 || number > 65535) return "its port is out of range; ports run from 1 to 65535";
  return undefined;
}

/**
 * Why `value` cannot be an app's own URL (add-provider's --base-url, which the
 * callback URL to register is printed under), or undefined when it can.
 */
export function appUrlProblem(value: string): string | undefined {
  const expected = "expected an http(s) URL without a user name or password, such as https://app.example.com";
  // The URL parser drops tabs and newlines: refuse them rather than print a URL that is not what was typed.
  if (/[\s\p{C}]/u.test(value)) return expected;
  const port = portProblem(value);
  if (port) return port;
  if (!URL.canParse(value)) return expected;
  const url = new URL(value);
  if (!/^https?:$/.test(url.protocol) || url.username || url.password) return expected;
  return undefined;
}

/** A database server's URLs as its drivers take them (the dialects' own data is in catalog/sql-dialects.ts). */
export interface ServerUrls {
  /** The server as messages name it. */
  title: string;
  /** The schemes its drivers accept, the usual two first. */
  schemes: readonly string[];
  /** The driver also takes a Unix socket folder, a value starting with "/" (pg does). */
  socketFolder?: boolean;
}

/**
 * Why `value` cannot be the connection string of `server`, or undefined when
 * the driver should be given it; `otherSchemes` are the other servers'.
 * Refuses only what no driver could use: a port out of range, another
 * server's scheme, text the URL parser rejects even as the drivers repair it
 * (spaces encoded, an empty host).
 */
export function connectionUrlProblem(
  value: string,
  server: ServerUrls,
  otherSchemes: readonly string[],
): string | undefined {
  // A Unix socket folder, as pg takes it ("/var/run/postgresql app").
  if (server.socketFolder && value.startsWith("/")) return undefined;
  const scheme = /^([a-z][a-z\d+.-]*):/i.exec(value)?.[1]?.toLowerCase();
  if (scheme === undefined) return "it is not a URL";
  if (otherSchemes.includes(scheme) || scheme === "file" || scheme === "http" || scheme === "https")
    return `it is a ${scheme}: URL, where ${server.title} takes ${server.schemes
      .slice(0, 2)
      .map((s) => `${s}:`)
      .join(" or ")}`;
  const port = portProblem(value);
  if (port) return port;
  const repaired = encodeURI(value).replace(/%25(\d\d)/g, "%$1");
  if (!URL.canParse(repaired) && !URL.canParse(repaired.replace("@/", "@localhost/")))
    return "the URL parser rejects it (check for unencoded special characters in the user name or password)";
  return undefined;
}

/** host:port/database of a connection URL, never its user or password; `fallback` when it is no URL. */
export function describeConnectionUrl(url: string, fallback: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}${u.port ? `:${u.port}` : ""}${u.pathname}`;
  } catch {
    return fallback;
  }
}
