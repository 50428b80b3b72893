import { SHIFTS_STREAM, shifts } from '@comanda/domain';
import type { BillDeps } from './issueTickets.js';

/** The shift open now, or null: a payment names the shift it is counted in. */
export async function openShiftId(deps: BillDeps): Promise<string | null> {
  return (await deps.commands.state(shifts, SHIFTS_STREAM)).state.open?.shiftId ?? null;
}
