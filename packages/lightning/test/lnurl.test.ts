import t from 'tap';
import { DecodeError, decodeLnurl, encodeLnurl, isLoopbackHost, parseLightningAddress } from '../src/index.js';

t.test('LUD-01 bech32 round trip, the spec example decodes', async (t) => {
  // Example from LUD-01.
  const example = 'LNURL1DP68GURN8GHJ7UM9WFMXJCM99E3K7MF0V9CXJ0M385EKVCENXC6R2C35XVUKXEFCV5MKVV34X5EKZD3EV56NYD3HXQURZEPEXEJXXEPNXSCRVWFNV9NXZCN9XQ6XYEFHVGCXXCMYXYMNSERXFQ5FNS';
  t.equal(decodeLnurl(example).href, 'https://service.com/api?q=3fc3645b439ce8e7f2553a69e5267081d96dcd340693afabe04be7b0ccd178df');
  const url = 'http://127.0.0.1:9740/lnurlw/abc?x=1';
  t.equal(decodeLnurl(encodeLnurl(url)).href, url);
  t.equal(decodeLnurl(`lightning:${encodeLnurl(url).toUpperCase()}`).href, url);
});

t.test('LUD-17 schemes and plain URLs', async (t) => {
  t.equal(decodeLnurl('lnurlp://shop.example/pay/1').href, 'https://shop.example/pay/1');
  t.equal(decodeLnurl('keyauth://127.0.0.1:8080/auth?tag=login').href, 'http://127.0.0.1:8080/auth?tag=login');
  t.equal(decodeLnurl('https://shop.example/w').href, 'https://shop.example/w');
  t.throws(() => decodeLnurl('http://shop.example/w'), DecodeError, 'plain http off loopback');
  t.throws(() => decodeLnurl('lnurl1qqqq'), DecodeError);
  t.throws(() => decodeLnurl('nonsense'), DecodeError);
});

t.test('lightning addresses', async (t) => {
  t.same(parseLightningAddress('Alice@Example.com'), { user: 'alice', domain: 'example.com', url: new URL('https://example.com/.well-known/lnurlp/alice') });
  t.equal(parseLightningAddress('₿bob@127.0.0.1:9740').url.href, 'http://127.0.0.1:9740/.well-known/lnurlp/bob');
  t.equal(parseLightningAddress('bob@localhost:80').url.href, 'http://localhost/.well-known/lnurlp/bob');
  t.equal(parseLightningAddress('bob@example.com:8443').url.href, 'https://example.com:8443/.well-known/lnurlp/bob');
  for (const bad of ['bob', '@example.com', 'bob@', 'bo b@example.com', 'bob@exa mple.com', 'bob@example.com:port']) {
    t.throws(() => parseLightningAddress(bad), DecodeError, bad);
  }
  t.ok(isLoopbackHost('[::1]'));
  t.notOk(isLoopbackHost('example.com'));
});
