import t from 'tap';
import { InProcessBus, natsServerAvailable, startNatsServer, subjectMatches } from '../src/index.js';
import { NatsBus } from '../src/nats.js';
import { busContract } from './contract.js';

busContract('in-process', async () => new InProcessBus());

if (natsServerAvailable()) {
  const server = await startNatsServer();
  t.teardown(() => server.stop());
  busContract('nats jetstream', () => NatsBus.connect(server.url));
} else {
  t.test('bus contract: nats jetstream', { skip: 'no nats-server binary on PATH (apt-get install nats-server)' }, () => {});
}

t.test('subject wildcards follow NATS rules', async (t) => {
  t.ok(subjectMatches('pos.order.*', 'pos.order.OrderPlaced'));
  t.notOk(subjectMatches('pos.order.*', 'pos.order.a.b'));
  t.ok(subjectMatches('pos.order.>', 'pos.order.a.b'));
  t.notOk(subjectMatches('pos.order.>', 'pos.order'));
  t.notOk(subjectMatches('pos.order.x', 'pos.order.y'));
  t.notOk(subjectMatches('pos.order.x.y', 'pos.order.x'));
});
