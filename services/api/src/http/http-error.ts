/**
 * A failure whose status and body are already decided (the wallet's 402, 410, 502, 503 and its
 * `{message, reason}` bodies), sent as is by the error handler.
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly status: number;
  readonly body: { message: string } & Record<string, unknown>;
  readonly headers: Record<string, string>;
  constructor(
    status: number,
    body: { message: string } & Record<string, unknown>,
    /** Headers the answer carries (a 429's Retry-After). */
    headers: Record<string, string> = {},
  ) {
    super(body.message);
    this.status = status;
    this.body = body;
    this.headers = headers;
  }
}
