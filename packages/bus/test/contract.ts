import t from 'tap';
import { randomUUID } from 'node:crypto';
import type { Bus, BusMessage } from '../src/index.js';

const until = async (check: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 10));
  }
};

/** The Bus contract; each case uses its own subject family so cases cannot see each other. */
export function busContract(name: string, open: () => Promise<Bus>): void {
  t.test(`Bus contract: ${name}`, async (t) => {
    const bus = await open();
    t.teardown(() => bus.close());
    const family = () => `t${randomUUID().slice(0, 8)}`;

    t.test('delivers matching subjects in order, with payload and dedupId', async (t) => {
      const f = family();
      const got: BusMessage<{ n: number }>[] = [];
      const sub = await bus.subscribe<{ n: number }>(`pos.${f}.*`, (m) => void got.push(m));
      const other: string[] = [];
      const sub2 = await bus.subscribe(`pos.${f}.Wanted`, (m) => void other.push(m.subject));
      for (let n = 0; n < 5; n++) await bus.publish(`pos.${f}.${n % 2 ? 'Wanted' : 'Other'}`, { n }, randomUUID());
      await until(() => got.length === 5 && other.length === 2);
      t.same(got.map((m) => m.payload.n), [0, 1, 2, 3, 4]);
      t.ok(got.every((m) => m.dedupId.length > 0 && m.redelivered === false));
      t.same(other, [`pos.${f}.Wanted`, `pos.${f}.Wanted`]);
      await sub.close();
      await sub2.close();
    });

    t.test('a dedupId published twice is delivered once', async (t) => {
      const f = family();
      const got: string[] = [];
      const sub = await bus.subscribe(`pos.${f}.>`, (m) => void got.push(m.dedupId));
      const id = randomUUID();
      await bus.publish(`pos.${f}.payment_received`, { a: 1 }, id);
      await bus.publish(`pos.${f}.payment_received`, { a: 1 }, id);
      await bus.publish(`pos.${f}.payment_received`, { a: 2 }, 'other-id');
      await until(() => got.length >= 2);
      await new Promise((r) => setTimeout(r, 200));
      t.same(got, [id, 'other-id']);
      await sub.close();
    });

    t.test('a failing handler gets the message again (at least once)', async (t) => {
      const f = family();
      let calls = 0;
      let redelivered = false;
      const sub = await bus.subscribe(`pos.${f}.>`, (m) => {
        calls++;
        if (calls === 1) throw new Error('transient');
        redelivered = m.redelivered;
      });
      await bus.publish(`pos.${f}.x`, {}, randomUUID());
      await until(() => calls >= 2);
      t.ok(redelivered, 'the second delivery is marked redelivered');
      await sub.close();
    });

    t.test('a durable consumer resumes where it stopped', async (t) => {
      const f = family();
      const durable = `d${randomUUID().slice(0, 8)}`;
      const got: number[] = [];
      const first = await bus.subscribe<{ n: number }>(`pos.${f}.>`, (m) => void got.push(m.payload.n), { durable });
      await bus.publish(`pos.${f}.x`, { n: 1 }, randomUUID());
      await until(() => got.length === 1);
      await first.close();
      await bus.publish(`pos.${f}.x`, { n: 2 }, randomUUID());
      await bus.publish(`pos.${f}.x`, { n: 3 }, randomUUID());
      const second = await bus.subscribe<{ n: number }>(`pos.${f}.>`, (m) => void got.push(m.payload.n), { durable });
      await until(() => got.length === 3);
      t.same(got, [1, 2, 3]);
      await second.close();
    });

    t.test('subjects outside pos.<family> are refused', async (t) => {
      await t.rejects(bus.publish('other.thing', {}, randomUUID()));
      await t.rejects(bus.subscribe('pos.>', () => {}));
      await bus.ping();
    });
  });
}
