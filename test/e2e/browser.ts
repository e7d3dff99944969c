/**
 * Just enough of a browser to walk an OAuth redirect chain: one cookie jar
 * per origin, manual redirects (so every hop is visible to the test), and the
 * app origin served in-process by a handler — Auth() — instead of a socket.
 */

export interface Hop {
  method: string;
  url: string;
  status: number;
  location?: string;
  setCookies: string[];
}

interface StoredCookie {
  value: string;
  expires?: number;
}

/** Fetch as it was when this module loaded: the tests re-route the global one for server-side calls only. */
const networkFetch = globalThis.fetch;

export class Browser {
  readonly hops: Hop[] = [];
  private readonly jars = new Map<string, Map<string, StoredCookie>>();

  constructor(
    private readonly app: { origin: string; handle: (request: Request) => Promise<Response> },
    /** Where a URL really lives (the generated config names real hosts like https://oauth.vk.ru). */
    private readonly rewrite: (url: URL) => URL = (url) => url,
  ) {}

  cookies(origin: string): Record<string, string> {
    const jar = this.jars.get(origin) ?? new Map<string, StoredCookie>();
    const now = Date.now();
    return Object.fromEntries(
      [...jar].filter(([, c]) => c.expires === undefined || c.expires > now).map(([name, c]) => [name, c.value]),
    );
  }

  async request(
    input: string | URL,
    init: { method?: string; body?: URLSearchParams; headers?: Record<string, string> } = {},
  ): Promise<Response> {
    const url = this.rewrite(new URL(input));
    const headers = new Headers(init.headers);
    const cookie = Object.entries(this.cookies(url.origin))
      .map(([name, value]) => `${name}=${value}`)
      .join("; ");
    if (cookie) headers.set("cookie", cookie);
    const request = new Request(url, {
      method: init.method ?? "GET",
      headers,
      body: init.body,
      redirect: "manual",
      signal: AbortSignal.timeout(10_000),
    });
    const response = url.origin === this.app.origin ? await this.app.handle(request) : await networkFetch(request);
    const setCookies = response.headers.getSetCookie();
    this.store(url.origin, setCookies);
    const location = response.headers.get("location") ?? undefined;
    this.hops.push({
      method: request.method,
      url: url.href,
      status: response.status,
      location: location && new URL(location, url).href,
      setCookies,
    });
    return response;
  }

  /**
   * Follows redirects from `response` (a browser would) until a page that is
   * not a redirect, or until `stop` says the next URL is the app's own page.
   */
  async follow(
    response: Response,
    from: string | URL,
    stop: (next: URL) => boolean,
    maxHops = 12,
  ): Promise<{ response: Response; url: URL }> {
    let current = response;
    let url = new URL(from);
    for (let i = 0; i < maxHops; i++) {
      const location = current.headers.get("location");
      if (current.status < 300 || current.status >= 400 || !location) return { response: current, url };
      const next = new URL(location, url);
      if (stop(next)) return { response: current, url: next };
      await current.body?.cancel();
      url = this.rewrite(next);
      current = await this.request(next);
    }
    throw new Error(`more than ${maxHops} redirects:\n${this.trace()}`);
  }

  /** The hop list, for failure messages: where the flow went and what each server said. */
  trace(): string {
    return this.hops.map((h) => `${h.method} ${h.url} -> ${h.status}${h.location ? ` ${h.location}` : ""}`).join("\n");
  }

  private store(origin: string, setCookies: string[]): void {
    const jar = this.jars.get(origin) ?? new Map<string, StoredCookie>();
    this.jars.set(origin, jar);
    for (const header of setCookies) {
      const [pair = "", ...attributes] = header.split(";");
      const eq = pair.indexOf("=");
      if (eq < 1) continue;
      const name = pair.slice(0, eq).trim();
      const value = pair.slice(eq + 1).trim();
      let expires: number | undefined;
      for (const attribute of attributes) {
        const [key = "", val = ""] = attribute.split("=").map((s) => s.trim());
        if (/^max-age$/i.test(key)) expires = Date.now() + Number(val) * 1000;
        else if (/^expires$/i.test(key) && expires === undefined) expires = Date.parse(val);
      }
      // A deletion (Max-Age=0 / past Expires) removes the cookie, as in a browser.
      if (expires !== undefined && expires <= Date.now()) jar.delete(name);
      else jar.set(name, { value, expires });
    }
  }
}
