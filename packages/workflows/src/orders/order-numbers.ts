import { newId, orderNumbers, orderNumbersStream } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';

/** How many numbers a replica leases at once: a tenth of the appends to the day's stream, gaps of at most nine when it stops. */
export const REPLICA_NUMBER_BLOCK = 10;

/** A block of the day's numbers this process leased and gives out in memory. */
interface Lease {
  day: string;
  next: number;
  to: number;
}

/** Per command handler (per process): the current lease, and the lease being taken meanwhile. */
const leases = new WeakMap<CommandHandler, { current: Lease | null; taking: Promise<void> | null }>();

/**
 * The next number of the order's business day. `block` 1 (a process that is the store's only
 * writer): one append per order, the same number for the same order again (a retried request).
 * More (replicas sharing a store): numbers come from a block this process leased, one append per
 * block, so replicas placing orders at once do not all contend for the day's stream. A retried
 * request may then draw another number, but its order was written once with the first one; the
 * drawn number is a gap, as is what is left of a block when the process stops.
 */
export async function takeOrderNumber(
  commands: CommandHandler,
  orderId: string,
  day: string,
  context: CommandContext,
  block: number,
): Promise<{ number: number; position: Position | null }> {
  if (block <= 1) {
    const r = await commands.handle(orderNumbers, orderNumbersStream(day), { type: 'takeOrderNumber', orderId, day }, context);
    return { number: r.state.byOrder[orderId]!, position: r.position };
  }
  let mine = leases.get(commands);
  if (!mine) leases.set(commands, (mine = { current: null, taking: null }));
  for (;;) {
    const lease = mine.current;
    if (lease && lease.day === day && lease.next <= lease.to) return { number: lease.next++, position: null };
    // One lease at a time: orders placed meanwhile wait for it, then draw from it.
    const own = mine;
    own.taking ??= leaseBlock(commands, day, block, context).then((lease) => {
      own.current = lease;
    }).finally(() => {
      own.taking = null;
    });
    await own.taking;
  }
}

async function leaseBlock(commands: CommandHandler, day: string, count: number, context: CommandContext): Promise<Lease> {
  // Never the request's Idempotency-Key: a block serves many requests, and a replayed lease would
  // hand out numbers already given.
  const leaseId = newId();
  const r = await commands.handle(orderNumbers, orderNumbersStream(day), { type: 'leaseOrderNumbers', leaseId, count, day }, { userId: context.userId ?? null, correlationId: context.correlationId });
  const { from, to } = r.state.leases[leaseId]!;
  return { day, next: from, to };
}
