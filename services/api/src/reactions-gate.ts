import type { Position } from '@comanda/event-store';
import { REACTIONS_APPENDED, REACTIONS_THROUGH } from '@comanda/runtime';
import type { CheckpointWatch, ConsistencyGate } from './checkpoint-watch.js';

/**
 * Read-your-writes with the write's direct reactions (a table seated or freed, a kitchen ticket's line
 * struck through) for an API whose reactor runs in another process: it waits until the reactor says
 * it has reacted to every event up to the write (`reactions:through`), then until the read models
 * hold what those reactions appended (`reactions:appended`, written with it). A store that has never
 * had a reactor report (a projector of an earlier release) is waited on as before, the read models only.
 */
export class ReactionsGate implements ConsistencyGate {
  private reported = false;

  constructor(private readonly checkpoints: CheckpointWatch) {}

  async waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    const left = () => Math.max(0, deadline - Date.now());
    this.reported ||= (await this.checkpoints.position(REACTIONS_THROUGH).catch(() => null)) !== null;
    if (!this.reported) return this.checkpoints.waitFor('projector', position, timeoutMs);
    if (!(await this.checkpoints.waitFor(REACTIONS_THROUGH, position, timeoutMs))) return this.checkpoints.waitFor('projector', position, left());
    const appended = await this.checkpoints.position(REACTIONS_APPENDED).catch(() => null);
    return this.checkpoints.waitFor('projector', appended !== null && appended > position ? appended : position, left());
  }
}
