import { type Authority, type OrderEvent, conflict, idFromKey, isOpen, newId, notFound, order, orderStream } from '@comanda/domain';
import type { CommandContext, CommandHandler, Position } from '@comanda/event-store';
import { later, orderState, releaseAfter } from './seating.js';

export interface MoveLines {
  fromOrderId: string;
  toOrderId: string;
  /** Absent: every line of the order (a merge). */
  lineIds?: string[];
  authority: Authority;
  at: number;
  context: CommandContext;
}

/**
 * Moves lines from one order to another (another table's, or another check at the same table). The
 * order they leave is written first, its events carrying the lines, then the order they join; a retry
 * with the same Idempotency-Key finds the first half recorded and writes the second (both halves are
 * idempotent by the move's id). Should the other order have closed in between, the lines go back.
 */
export async function moveLines(commands: CommandHandler, cmd: MoveLines): Promise<{ moved: string[]; position: Position | null }> {
  const target = await orderState(commands, cmd.toOrderId);
  if (!target.orderId || target.deleted) throw notFound();
  if (!isOpen(target)) throw conflict(`The other order is ${target.status}: lines move only to an open order`);
  const source = await orderState(commands, cmd.fromOrderId);
  if (!source.orderId || source.deleted) throw notFound();
  const key = cmd.context.idempotency?.key;
  const moveId = key ? idFromKey('move', cmd.context.userId ?? '', key) : newId();
  const lineIds = cmd.lineIds ?? Object.keys(source.lines);
  const out = await commands.handle(order, orderStream(cmd.fromOrderId), {
    type: 'moveLinesOut', moveId, lineIds, toOrderId: cmd.toOrderId, toUserId: target.userId!, authority: cmd.authority,
  }, cmd.context);
  const moves = out.events.flatMap((e: OrderEvent) => (e.type === 'OrderLineRemoved' && e.data.move ? [e.data.move] : []));
  const lines = moves.map((m) => m.line);
  const fired = moves.flatMap((m) => (m.fired ? [m.fired] : []));
  const inner = { ...cmd.context, idempotency: undefined };
  if (lines.length === 0) return { moved: [], position: out.position };
  try {
    const joined = await commands.handle(order, orderStream(cmd.toOrderId), { type: 'moveLinesIn', moveId, fromOrderId: cmd.fromOrderId, lines, fired }, inner);
    return { moved: lines.map((l) => l.lineId), position: later(out.position, joined.position) };
  } catch (error) {
    await commands.handle(order, orderStream(cmd.fromOrderId), { type: 'moveLinesIn', moveId: idFromKey('move back', moveId), fromOrderId: cmd.toOrderId, lines, fired }, inner);
    throw error;
  }
}

/**
 * Two checks made one: every line of one order moves to the other, then the emptied order is
 * cancelled and its table freed. An order with a live bill is refused (its bill is cancelled first).
 */
export async function mergeOrders(commands: CommandHandler, cmd: Omit<MoveLines, 'lineIds'>): Promise<{ moved: string[]; position: Position | null }> {
  const source = await orderState(commands, cmd.fromOrderId);
  if (!source.orderId || source.deleted) throw notFound();
  if (Object.keys(source.billing.bills).length) throw conflict('The order has live tickets; cancel them first');
  // Always asked, even with no line left: a retry with the same Idempotency-Key answers the lines the first one moved.
  const moved = await moveLines(commands, cmd);
  const inner = { ...cmd.context, idempotency: undefined };
  const after = await orderState(commands, cmd.fromOrderId);
  const cancelled = isOpen(after)
    ? await commands.handle(order, orderStream(cmd.fromOrderId), { type: 'changeStatus', to: 'cancelled', at: cmd.at }, inner)
    : { position: null, state: after };
  const released = await releaseAfter(commands, cmd.fromOrderId, source.tableId, cancelled.state, inner);
  return { moved: moved.moved, position: later(moved.position, cancelled.position, released) };
}
