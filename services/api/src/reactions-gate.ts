import type { Position } from '@comanda/event-store';
import { REACTIONS_APPENDED, REACTIONS_THROUGH } from '@comanda/runtime';
import type { ConsistencyGate } from './deps.js';

/**
 * Where the gate reads how far the projector and the reactor have come: the shared read store's
 * checkpoints (`CheckpointWatch`, an API replica whose projector runs elsewhere) or the process's own
 * (`LocalProgress`, the standalone's projector and reactor beside its API), under the same names.
 */
export interface Checkpoints {
  position(name: string): Promise<Position | null>;
  waitFor(name: string, position: Position, timeoutMs: number): Promise<boolean>;
}

/**
 * Read-your-writes with the write's direct reactions (a table seated or freed, a kitchen ticket's line
 * struck through, an order preparing once its first ticket is started): it waits until the reactor
 * says it has reacted to every event up to the write (`reactions:through`), then until the read models
 * hold what those reactions appended (`reactions:appended`, reported with it), all within one bound.
 * Where no reactor has ever reported (a projector of an earlier release; a process composed without
 * reactions) the read models only are waited on. A reactor still behind at the bound is a `false`,
 * never a wait on the read models alone: the write's answer says it is not visible yet.
 */
export class ReactionsGate implements ConsistencyGate {
  private reported = false;
  private readonly checkpoints: Checkpoints;

  constructor(checkpoints: Checkpoints) {
    this.checkpoints = checkpoints;
  }

  async waitFor(position: Position, timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    const left = () => Math.max(0, deadline - Date.now());
    this.reported ||= (await this.checkpoints.position(REACTIONS_THROUGH).catch(() => null)) !== null;
    if (!this.reported) return this.checkpoints.waitFor('projector', position, timeoutMs);
    if (!(await this.checkpoints.waitFor(REACTIONS_THROUGH, position, timeoutMs))) return false;
    const appended = await this.checkpoints.position(REACTIONS_APPENDED).catch(() => null);
    return this.checkpoints.waitFor('projector', appended !== null && appended > position ? appended : position, left());
  }
}
