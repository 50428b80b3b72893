import { bech32 } from '@scure/base';
import { utf8ToBytes } from '@noble/hashes/utils.js';
import { fail } from './errors.js';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** LUD-01: the URL bech32-encoded under the `lnurl` prefix, with no length limit. */
export function encodeLnurl(url: string): string {
  return bech32.encode('lnurl', bech32.toWords(utf8ToBytes(url)), false);
}

/**
 * Reads an LNURL in any of its written forms: bech32 (`lnurl1…`, optionally after `lightning:`),
 * a LUD-17 scheme (`lnurlp://`, `lnurlw://`, `keyauth://`) or a plain URL. Returns the URL to fetch.
 * Plain http is refused except on loopback (see {@link isLoopbackHost}).
 */
export function decodeLnurl(input: string): URL {
  const text = input.trim().replace(/^lightning:/i, '');
  let url: URL;
  if (/^lnurl1/i.test(text)) {
    try {
      const { words } = bech32.decode(text as `${string}1${string}`, false);
      url = new URL(utf8.decode(bech32.fromWords(words)));
    } catch {
      fail('invalid bech32 LNURL');
    }
  } else {
    try {
      url = new URL(text.replace(/^(lnurlp|lnurlw|lnurlc|keyauth):\/\//i, isLoopbackUrl(text) ? 'http://' : 'https://'));
    } catch {
      fail('invalid LNURL');
    }
  }
  if (url.protocol === 'https:' || (url.protocol === 'http:' && isLoopbackHost(url.hostname))) return url;
  fail('LNURL must use https');
}

function isLoopbackUrl(text: string): boolean {
  const host = /^[a-z]+:\/\/([^/:?#]+|\[[^\]]+\])/i.exec(text)?.[1] ?? '';
  return isLoopbackHost(host);
}

/** Hosts where plain http is allowed: tests and local development run entirely on loopback. */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

export interface LightningAddress {
  user: string;
  /** Host, with a port when one was given. */
  domain: string;
  /** LUD-16 resolution URL. */
  url: URL;
}

/**
 * Parses `user@domain` (optionally with the BIP-353 `₿` prefix). LUD-16 resolves it at
 * `https://domain/.well-known/lnurlp/user`; for a loopback host with a port, `http` is used instead.
 */
export function parseLightningAddress(input: string): LightningAddress {
  const match = /^₿?([a-z0-9._+-]+)@((?:[a-z0-9-]+\.)*[a-z0-9-]+|\[[0-9a-f:]+\])(?::(\d{1,5}))?$/i.exec(input.trim());
  if (!match) fail('invalid lightning address');
  const [, user, host, port] = match;
  const domain = port === undefined ? host.toLowerCase() : `${host.toLowerCase()}:${port}`;
  const scheme = port !== undefined && isLoopbackHost(host) ? 'http' : 'https';
  return { user: user.toLowerCase(), domain, url: new URL(`${scheme}://${domain}/.well-known/lnurlp/${user.toLowerCase()}`) };
}
