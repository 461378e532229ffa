/**
 * Who may use `herdr web`'s page: whoever holds its token. The URL printed
 * at start carries it once (`/?token=…`); the first visit trades it for a
 * cookie (HttpOnly, SameSite=Strict) and a redirect to a URL without it.
 * Every HTTP request and WebSocket upgrade without a valid token is 401.
 *
 * Two more checks shut out other web pages the browser has open: the Host
 * header must name a loopback address or the `--listen` one (a DNS-rebinding
 * page reaches 127.0.0.1 under its own name), and a WebSocket upgrade's Origin
 * must be this page's own (browsers do not apply the same-origin rule to
 * WebSockets).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';

const TOKEN_QUERY = 'token';
const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

export type Verdict =
  | { ok: true; /** The token came in the URL: set the cookie and redirect to the URL without it. */ fromQuery: boolean }
  | { ok: false; status: 401 | 403; reason: string };

export class Gate {
  /** Cookies are not kept apart by port: each `herdr web` names its own. */
  readonly cookieName: string;
  private readonly token: Buffer;
  private readonly hostNames: Set<string>;

  /** Listening on every address (`--listen 0.0.0.0` or `::`): any address may be the Host, never a name. */
  private readonly anyAddress: boolean;

  constructor(token: string, port: number, listenAddress: string) {
    this.token = Buffer.from(token);
    this.cookieName = `herdr_web_${port}`;
    this.hostNames = new Set(LOOPBACK_NAMES);
    this.hostNames.add(listenAddress.includes(':') ? `[${listenAddress}]` : listenAddress);
    this.anyAddress = listenAddress === '0.0.0.0' || listenAddress === '::';
  }

  /** An HTTP request or a WebSocket upgrade: may it go on? */
  check(request: IncomingMessage, upgrade: boolean): Verdict {
    const host = request.headers.host ?? '';
    if (!this.knownHost(hostName(host))) return { ok: false, status: 403, reason: `Host ${host || '(none)'} is not this server's` };
    if (upgrade) {
      const origin = request.headers.origin;
      if (origin !== `http://${host}`) return { ok: false, status: 403, reason: `Origin ${origin ?? '(none)'} is not this page's` };
    }
    const url = new URL(request.url ?? '/', 'http://herdr.invalid');
    const fromQuery = url.searchParams.get(TOKEN_QUERY);
    if (fromQuery !== null && this.matches(fromQuery)) return { ok: true, fromQuery: true };
    const fromCookie = cookie(request.headers.cookie, this.cookieName);
    if (fromCookie !== undefined && this.matches(fromCookie)) return { ok: true, fromQuery: false };
    return { ok: false, status: 401, reason: 'no valid token: open the URL herdr web printed' };
  }

  /** The Set-Cookie header that keeps the token for this page's later requests. */
  cookieHeader(): string {
    return `${this.cookieName}=${this.token.toString()}; HttpOnly; SameSite=Strict; Path=/`;
  }

  /** A name a rebinding page could use is refused; the addresses this server answers on are not. */
  private knownHost(name: string): boolean {
    return this.hostNames.has(name) || (this.anyAddress && isIP(name.replace(/^\[(.*)\]$/, '$1')) !== 0);
  }

  private matches(candidate: string): boolean {
    const given = Buffer.from(candidate);
    return given.length === this.token.length && timingSafeEqual(given, this.token);
  }
}

/** `127.0.0.1:7400` → `127.0.0.1`; `[::1]:7400` → `[::1]`. */
function hostName(hostHeader: string): string {
  const bracket = hostHeader.lastIndexOf(']');
  const colon = hostHeader.lastIndexOf(':');
  return (colon > bracket ? hostHeader.slice(0, colon) : hostHeader).toLowerCase();
}

function cookie(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The request's URL without its token, for the redirect after the first visit. */
export function withoutToken(requestUrl: string | undefined): string {
  const url = new URL(requestUrl ?? '/', 'http://herdr.invalid');
  url.searchParams.delete(TOKEN_QUERY);
  return `${url.pathname}${url.search}`;
}
