import pino from 'pino';
import type { NodeClient } from '@comanda/lightning';
import { paymentFromRecord, recordAndAnnounce } from '@comanda/wallet-bridge';
import { billsService } from './bills-helpers.js';
import { clientOf, simNetwork } from './wallet-helpers.js';

interface Scope {
  teardown(fn: () => unknown): void;
}

export const FIXED_RATES = { COMANDA_RATES: 'USD=97000.00,MXN=1750000.00' };

/**
 * A restaurant (bills helpers) in front of a simulated restaurant node, a customer wallet that pays,
 * and `arrive(hash)`: the bridge recording what the node says it received (the reconciliation path,
 * the same function webhooks reach).
 */
export async function checkoutService(t: Scope, env: Record<string, string> = FIXED_RATES) {
  const { restaurant, customer, net } = await simNetwork(t);
  const node: NodeClient = clientOf(restaurant);
  const s = await billsService(env, { node });
  t.teardown(s.close);
  const wallet = clientOf(customer);
  const record = recordAndAnnounce(s.commands, s.bus, pino({ level: 'silent' }));
  const arrive = async (paymentHash: string) => {
    const payment = paymentFromRecord(await node.getIncoming(paymentHash));
    if (!payment) throw new Error(`${paymentHash} is not paid`);
    return record(payment);
  };
  /** A ticket for the whole order (pastor 25.50 + suadero 22.00 = 47.50 MXN by default). */
  const ticketFor = async (dishes: Array<'pastor' | 'suadero' | 'agua'> = ['pastor', 'suadero']) => {
    const o = await s.orderWith(dishes, null);
    const res = await s.waiter('POST', `/orders/${o.id}/tickets`, { split: 'none' });
    if (res.status !== 201) throw new Error(`tickets: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.ids[0] as string;
  };
  /** Waits until the ticket's read model shows what the bridge wrote. */
  const ticket = async (id: string) => {
    await s.projector.waitFor((await s.store.headPosition())!, 2000);
    return (await s.waiter('GET', `/tickets/${id}`)).body;
  };
  return { ...s, net, restaurant, customer, node, wallet, arrive, ticketFor, ticket };
}
