import t from 'tap';
import { natsServerAvailable } from '@comanda/bus';
import { postgresAvailable } from '@comanda/postgres';
import { statementsPerWrite } from '../src/bench/statements.js';

/**
 * Issue 62: PostgreSQL statements per write of the distributed shape, counted by pg_stat_statements
 * across every process (two API replicas, projector, reactor, relay), for the bench's two mixes. Counts
 * do not depend on the machine's speed alone: they move between runs and rise under load (19.3–22.4 and
 * 11.7–13.3 at 20 cycles, the highest while a whole CI ran beside it: retries, the bill's polling, the
 * followers' pages), so each bound stands about 4 above the highest figure seen: a change that adds
 * several statements to every write fails here, the run-to-run movement does not. Seen failing with
 * COMANDA_STATEMENTS_BOUND=6 (the issue's target): 20.7 and 13.3 against 6.
 */
const BOUND = { 'place, two dishes, fire, delete': 26, 'place, two dishes, fire, bill, card payment': 17.5 } as const;

t.test('statements per write stay under their bound, with and without a payment', { timeout: 600_000 }, async (t) => {
  // needs postgresql and nats-server (.ci/run installs both); the bench's answer says which is missing
  const figures = postgresAvailable() && natsServerAvailable() ? await statementsPerWrite(20) : 'PostgreSQL or nats-server is not installed';
  if (typeof figures === 'string') throw new Error(figures);
  for (const f of figures) {
    const bound = Number(process.env.COMANDA_STATEMENTS_BOUND ?? BOUND[f.mix as keyof typeof BOUND]);
    t.ok(f.perWrite <= bound, `${f.mix}: ${f.perWrite.toFixed(1)} statements per write (bound ${bound})`, {
      top: f.top.slice(0, 6).map((r) => `${r.perWrite.toFixed(2)} ${r.query.slice(0, 80)}`),
    });
  }
});
