import type { Position } from '@comanda/event-store';
import type { ConsistencyGate } from './polling-gate.js';

/**
 * Read-your-writes with the write's direct reactions (a table seated or freed, a kitchen ticket's line
 * struck through) for an API whose reactor runs in another process: it waits until the reactor says
 * it has reacted to every event up to the write (`reactions`, polled from the shared read store),
 * then until the read models hold what those reactions appended (`appended`, read once after). A
 * store that has never had a reactor report (a projector of an earlier release) is waited on as
 * before, the read models only.
 */
export class ReactionsGate implements ConsistencyGate {
  constructor(
    private readonly readModels: ConsistencyGate,
    private readonly reactions: ConsistencyGate & { reported(): Promise<boolean> },
    private readonly appended: () => Promise<Position | null>,
  ) {}

  async waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    const left = () => Math.max(0, deadline - Date.now());
    if (!(await this.reactions.reported())) return this.readModels.waitFor(position, timeoutMs);
    if (!(await this.reactions.waitFor(position, timeoutMs))) return this.readModels.waitFor(position, left());
    const appended = await this.appended().catch(() => null);
    return this.readModels.waitFor(appended !== null && appended > position ? appended : position, left());
  }
}
