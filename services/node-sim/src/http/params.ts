import { decodeBolt11, decodeOffer, parseLightningAddress, type Bolt11Invoice, type Bolt12Offer } from '@comanda/lightning';

// Request parameters with the real node's error texts. Every failure is a 400 with a plain-text body.

export class ParamError extends Error {
  override readonly name = 'ParamError';
}

export const MAX_DESCRIPTION_LENGTH = 128;
/** The largest amount whose msat value is still an exact JS integer (about 90 000 BTC). */
export const MAX_SAT = Math.floor(Number.MAX_SAFE_INTEGER / 1000);

type Raw = Record<string, unknown>;

export class Params {
  private readonly raw: Raw;
  constructor(raw: Raw) {
    this.raw = raw;
  }

  /** Form fields may repeat; like the real node, the first value counts. */
  optional(name: string): string | undefined {
    const value = this.raw[name];
    const first = Array.isArray(value) ? value[0] : value;
    return typeof first === 'string' ? first : undefined;
  }

  required(name: string): string {
    return this.optional(name) ?? missing(name);
  }

  optionalInteger(name: string): number | undefined {
    const text = this.optional(name);
    if (text === undefined) return undefined;
    if (!/^-?[0-9]{1,19}$/.test(text.trim()) || !Number.isSafeInteger(Number(text))) invalid(name, 'integer');
    return Number(text);
  }

  /** An amount that may be zero or negative (the payment then fails with its own reason), never unsafe in msat. */
  optionalSignedAmountSat(name: string): number | undefined {
    const value = this.optionalInteger(name);
    if (value !== undefined && Math.abs(value) > MAX_SAT) throw new ParamError(`Request parameter ${name} must be at most ${MAX_SAT}`);
    return value;
  }

  integer(name: string): number {
    return this.optionalInteger(name) ?? missing(name);
  }

  /** An amount in sat: a positive integer no larger than the supply. */
  optionalAmountSat(name: string): number | undefined {
    const value = this.optionalInteger(name);
    if (value !== undefined && value <= 0) throw new ParamError(`Request parameter ${name} must be positive`);
    if (value !== undefined && value > MAX_SAT) throw new ParamError(`Request parameter ${name} must be at most ${MAX_SAT}`);
    return value;
  }

  amountSat(name: string): number {
    return this.optionalAmountSat(name) ?? missing(name);
  }

  /** Feerates, expiries, limits: an integer at least `min`. */
  optionalAtLeast(name: string, min: number): number | undefined {
    const value = this.optionalInteger(name);
    if (value !== undefined && value < min) throw new ParamError(`Request parameter ${name} must be at least ${min}`);
    return value;
  }

  atLeast(name: string, min: number): number {
    return this.optionalAtLeast(name, min) ?? missing(name);
  }

  optionalHex32(name: string): string | undefined {
    const text = this.optional(name);
    if (text !== undefined && !/^[0-9a-fA-F]{64}$/.test(text)) invalid(name, 'hex32');
    return text?.toLowerCase();
  }

  hex32(name: string): string {
    return this.optionalHex32(name) ?? missing(name);
  }

  uuid(name: string): string {
    const text = this.required(name);
    if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(text)) invalid(name, 'uuid');
    return text.toLowerCase();
  }

  optionalUrl(name: string): string | undefined {
    const text = this.optional(name);
    if (text === undefined) return undefined;
    try {
      const url = new URL(text);
      if (url.protocol === 'http:' || url.protocol === 'https:') return url.href;
    } catch {
      // reported below
    }
    invalid(name, 'url');
  }

  optionalDescription(name: string): string | undefined {
    const text = this.optional(name);
    if (text !== undefined && text.length > MAX_DESCRIPTION_LENGTH) {
      throw new ParamError(`Request parameter ${name} is too long (max ${MAX_DESCRIPTION_LENGTH} characters)`);
    }
    return text;
  }

  /** `true` in any case is true; anything else, or nothing, is false. */
  flag(name: string): boolean {
    return this.optional(name)?.toLowerCase() === 'true';
  }

  invoice(name: string): Bolt11Invoice {
    return this.decoded(name, 'bolt11invoice', decodeBolt11);
  }

  offer(name: string): Bolt12Offer {
    return this.decoded(name, 'offer', decodeOffer);
  }

  lightningAddress(name: string): ReturnType<typeof parseLightningAddress> {
    return this.decoded(name, 'username@domain', parseLightningAddress);
  }

  decoded<T>(name: string, type: string, decode: (text: string) => T): T {
    const text = this.required(name);
    try {
      return decode(text);
    } catch {
      invalid(name, type);
    }
  }
}

export function missing(name: string): never {
  throw new ParamError(`Request parameter ${name} is missing`);
}

export function invalid(name: string, type: string): never {
  throw new ParamError(`Request parameter ${name} couldn't be parsed/converted to ${type}`);
}
