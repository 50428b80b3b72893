/** A string that is not a valid invoice, offer or LNURL. The message says which rule it broke. */
export class DecodeError extends Error {
  override readonly name = 'DecodeError';
}

export function fail(message: string): never {
  throw new DecodeError(message);
}
