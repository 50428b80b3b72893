import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { incomingRow, outgoingRow, toCsv, type LedgerRow } from './csv.js';
import type { SimNode } from './node.js';

/** Writes the node's payment history between `from` and `to` (ms, inclusive) and returns the file's path. */
export async function exportHistory(node: SimNode, from: number, to: number): Promise<string> {
  const { state } = node;
  const rows: LedgerRow[] = [];
  if (state.openingBalanceMsat > 0) {
    rows.push({ date: state.openedAt, id: state.channel?.fundingTxId ?? 'opening', type: 'swap_in', amountMsat: state.openingBalanceMsat, feeCreditMsat: 0, miningFeeSat: 0, serviceFeeMsat: 0 });
  }
  for (const p of state.incoming) if (p.completedAt !== undefined) rows.push(incomingRow({ ...p, completedAt: p.completedAt }));
  for (const p of state.outgoing) {
    if (p.status === 'succeeded' && p.completedAt !== undefined) rows.push(outgoingRow({ ...p, completedAt: p.completedAt }));
  }
  const dir = join(node.ctx.dataRoot, node.name, 'exports');
  await mkdir(dir, { recursive: true });
  const path = join(dir, `export-${Math.floor(node.ctx.clock.now() / 1000)}.csv`);
  await writeFile(path, toCsv(rows.filter((r) => r.date >= from && r.date <= to)));
  return path;
}
