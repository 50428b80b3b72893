import { readFileSync } from 'node:fs';
import { open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import { type Encoded, decodeState, encodeState } from './state-codec.js';
import type { LocalClock } from './clock.js';
import { RunningReport } from './fold.js';
import type { ReportDefinition } from './report.js';

/** What a checkpoint file holds: each report's state at the position it had folded to. */
interface ReportsCheckpoint {
  format: 1;
  timeZone: string;
  reports: Record<string, { version: number; position: string; state: Encoded }>;
}

/**
 * Writes the reports' states to `file` atomically: a temporary file, flushed to disk, renamed over
 * the old one, the directory flushed. A crash leaves the old checkpoint or the new one, never half
 * of one. The states are taken before the first await (a consistent snapshot at their positions);
 * the disk work then runs off the event loop. Reports that have folded nothing yet are left out.
 */
export async function saveReports(file: string, clock: LocalClock, reports: Iterable<RunningReport>): Promise<number> {
  const saved: ReportsCheckpoint = { format: 1, timeZone: clock.timeZone, reports: {} };
  for (const r of reports) {
    if (r.position === null) continue;
    saved.reports[r.definition.name] = { version: r.definition.version, position: r.position.toString(), state: encodeState(r.state) };
  }
  const text = JSON.stringify(saved);
  const temporary = `${file}.tmp`;
  const handle = await open(temporary, 'w', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, file);
  const dir = await open(dirname(file), 'r');
  try {
    await dir.sync();
  } finally {
    await dir.close();
  }
  return text.length;
}

/**
 * The reports `file` holds for the same name, version and time zone, each a fresh RunningReport
 * filled with its saved state and position; a changed report or zone, a missing or unreadable file
 * restore nothing (the reports are a projection: the log can always rebuild them from position 0).
 */
export function restoreReports(file: string, clock: LocalClock, definitions: ReadonlyArray<ReportDefinition<unknown>>): RunningReport[] {
  let saved: ReportsCheckpoint;
  try {
    saved = JSON.parse(readFileSync(file, 'utf8')) as ReportsCheckpoint;
  } catch {
    return [];
  }
  if (saved?.format !== 1 || saved.timeZone !== clock.timeZone || typeof saved.reports !== 'object' || saved.reports === null) return [];
  const restored: RunningReport[] = [];
  for (const definition of definitions) {
    const s = saved.reports[definition.name];
    if (!s || s.version !== definition.version) continue;
    try {
      const report = new RunningReport(definition, clock);
      decodeState(s.state, report.state);
      report.position = BigInt(s.position);
      restored.push(report);
    } catch {
      // A state this build cannot read is folded again from position 0.
    }
  }
  return restored;
}
