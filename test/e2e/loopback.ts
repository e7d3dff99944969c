/**
 * Small node:http helpers shared by the fake servers: every server binds
 * 127.0.0.1 on port 0 (no fixed ports, so parallel runs never collide) and
 * can be closed even while a keep-alive connection is still open.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Loopback {
  origin: string;
  close(): Promise<void>;
}

type Handler = (...args: Parameters<RequestListener>) => unknown;

export async function listen(handler: Handler): Promise<Loopback & { server: Server }> {
  // A throwing handler answers 500 (visible in the test's trace) instead of crashing the test process.
  const server = createServer((req, res) => {
    Promise.resolve()
      .then(() => handler(req, res))
      .catch((error: unknown) => {
        if (res.headersSent) res.destroy();
        else res.writeHead(500, { "content-type": "text/plain" }).end(String(error));
      });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    server,
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        // undici keeps sockets alive; without this close() would wait for them to idle out.
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}

/** Query string and (for url-encoded POSTs) form body merged: the fakes accept parameters in either place, as VK does. */
export async function readParams(
  req: IncomingMessage,
): Promise<{ url: URL; query: Record<string, string>; form: Record<string, string> }> {
  const url = new URL(req.url ?? "/", "http://placeholder");
  const query = Object.fromEntries(url.searchParams);
  const body = req.method === "POST" ? await readBody(req) : "";
  const form =
    body && /x-www-form-urlencoded/.test(req.headers["content-type"] ?? "")
      ? Object.fromEntries(new URLSearchParams(body))
      : {};
  return { url, query, form };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location });
  res.end();
}

/** client_secret_basic (RFC 6749 §2.3.1: form-encoded id and secret, then base64). */
export function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const match = /^Basic\s+(.+)$/i.exec(header ?? "");
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, "base64").toString("utf8");
  const colon = decoded.indexOf(":");
  if (colon < 0) return undefined;
  const unform = (s: string) => decodeURIComponent(s.replace(/\+/g, "%20"));
  return { id: unform(decoded.slice(0, colon)), secret: unform(decoded.slice(colon + 1)) };
}

export function bearerToken(header: string | undefined): string | undefined {
  return /^Bearer\s+(.+)$/i.exec(header ?? "")?.[1];
}
