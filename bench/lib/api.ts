/** Minimal HTTP client for seeding: every non-2xx answer is an error that shows the body. */
export class Api {
  constructor(
    readonly baseUrl: string,
    private token?: string,
  ) {}

  withToken(token: string): Api {
    return new Api(this.baseUrl, token);
  }

  async text(method: string, path: string, body?: unknown): Promise<string> {
    const res = await fetch(new URL(path, this.baseUrl), {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.token ? { authorization: `Bearer ${this.token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
    return text;
  }

  async json<T>(method: string, path: string, body?: unknown): Promise<T> {
    const text = await this.text(method, path, body);
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new Error(`${method} ${path} did not answer JSON: ${text.slice(0, 500)}`);
    }
  }
}

/** First row of a `{"d":[…]}` answer, or an error naming the query. */
export function firstRow<T>(answer: { d?: T[] }, what: string): T {
  const row = answer.d?.[0];
  if (row === undefined) throw new Error(`no ${what} found`);
  return row;
}

/** Runs `task(0..count-1)` with at most `concurrency` in flight; rejects on the first failure. */
export async function runPool(count: number, concurrency: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < count) {
      const i = next++;
      try {
        await task(i);
      } catch (err) {
        failed = true;
        throw err;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}
