/** A tiny cookie-keeping HTTP client over fetch, as a POS tablet would behave. */
export class Client {
  private readonly cookies = new Map<string, string>();
  readonly base: string;

  constructor(base: string) {
    this.base = base;
  }

  async request(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; body: unknown }> {
    const answer = await this.send(method, path, body, headers);
    // An access token lives a minute: as a tablet does, renew it with the refresh token and ask again.
    if (answer.status === 401 && path !== '/auth/refresh' && this.cookies.has('refreshToken')) {
      const renewed = await this.send('POST', '/auth/refresh');
      if (renewed.status === 200) return this.send(method, path, body, headers);
    }
    return answer;
  }

  private async send(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    const res = await fetch(this.base + path, {
      method,
      headers: {
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(this.cookies.size ? { cookie: [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ') } : {}),
        ...headers,
      },
      body: body !== undefined ? JSON.stringify(body) : undefined,
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const [name, value] = pair!.split('=');
      if (value) this.cookies.set(name!, value);
      else this.cookies.delete(name!);
    }
    const text = await res.text();
    return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : undefined };
  }

  get = (path: string) => this.request('GET', path);

  private cookieHeader = () => [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');

  /** A text answer (a receipt), read as it comes. */
  async text(path: string): Promise<string> {
    return (await fetch(this.base + path, { headers: { cookie: this.cookieHeader() } })).text();
  }

  /** An event stream (a kitchen screen) held open until `close()`: its first bytes have arrived when it resolves. */
  async stream(path: string): Promise<{ close: () => void }> {
    const stop = new AbortController();
    const res = await fetch(this.base + path, { headers: { cookie: this.cookieHeader() }, signal: stop.signal });
    const reader = res.body!.getReader();
    await reader.read();
    void (async () => { while (!(await reader.read().catch(() => ({ done: true }))).done); })();
    return { close: () => stop.abort() };
  }
  post = (path: string, body?: unknown, headers?: Record<string, string>) => this.request('POST', path, body, headers);
  put = (path: string, body?: unknown, headers?: Record<string, string>) => this.request('PUT', path, body, headers);
  delete = (path: string) => this.request('DELETE', path);

  async login(name: string, pin: string) {
    const res = await this.post('/auth/login', { name, pin });
    if (res.status !== 200) throw new Error(`login failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res;
  }
}
