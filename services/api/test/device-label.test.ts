import t from 'tap';
import { deviceLabel } from '../src/auth/device.js';

/** Issue 59: what the back office calls a device, from its own label or its User-Agent. */

t.test("the device's own label first, trimmed and cut to 64", async (t) => {
  t.equal(deviceLabel('  Tablet 3 ', 'Mozilla/5.0'), 'Tablet 3');
  t.equal(deviceLabel('x'.repeat(80), undefined), 'x'.repeat(64));
  t.equal(deviceLabel('   ', undefined), null, 'blank and no User-Agent: unnamed');
});

t.test("else the User-Agent's short form: browser on system, the most specific browser first", async (t) => {
  const cases: Array<[string, string]> = [
    ['Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1', 'Safari on iPad'],
    ['Mozilla/5.0 (Linux; Android 14; SM-X200) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36', 'Chrome on Android'],
    ['Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0', 'Edge on Windows'],
    ['Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0', 'Firefox on Mac'],
    ['Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 OPR/110.0', 'Opera on ChromeOS'],
    ['curl/8.5.0', 'curl'],
    ['Mozilla/5.0 (X11; Linux x86_64)', 'Linux'],
  ];
  for (const [ua, label] of cases) t.equal(deviceLabel(undefined, ua), label, label);
  t.equal(deviceLabel(undefined, undefined), null);
});
