import t from 'tap';
import { serveStandby } from '../src/standby.js';

t.test('a standby projector answers its health routes as standby, and nothing else', async (t) => {
  const standby = await serveStandby('127.0.0.1', 0);
  t.teardown(() => standby.close());
  for (const path of ['/health', '/health/live', '/health/ready']) {
    const res = await fetch(`${standby.url}${path}`);
    t.equal(res.status, 200, path);
    t.same(await res.json(), { status: 'standby', checks: { leadership: 'standby' } });
  }
  t.equal((await fetch(`${standby.url}/orders`)).status, 404);
});
