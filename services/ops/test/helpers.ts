import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MENU_STREAM, menu, newId } from '@comanda/domain';
import { CommandHandler, SqliteEventStore, StreamContended, WrongExpectedRevision, type RecordedEvent } from '@comanda/event-store';
import { allProjections } from '@comanda/read-models';
import { MemoryReadStore } from '@comanda/read-store';
import { persistentSecret } from '@comanda/config';
import type { Test } from 'tap';
import { createUser, type AdminDeps } from '../src/admin.js';

export function tempDir(t: Test, prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), `comanda-${prefix}-`));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** A data dir with a live SQLite log, as the standalone keeps it. */
export function sourceDataDir(t: Test) {
  const dataDir = tempDir(t, 'source');
  const store = new SqliteEventStore({ filename: join(dataDir, 'events.db') });
  t.teardown(() => store.close());
  const masterKey = persistentSecret(dataDir, 'master-key', null);
  const commands = new CommandHandler(store);
  const deps: AdminDeps = { commands, masterKey };
  return { dataDir, store, commands, deps };
}

/**
 * Writers as a busy service has them: menu categories and staff added in a loop from several
 * concurrent workers until `stop` is called.
 */
export function busyWriters(commands: CommandHandler, deps: AdminDeps, workers = 4) {
  let stopped = false;
  let written = 0;
  const work = async (w: number) => {
    for (let i = 0; !stopped; i++) {
      try {
        if (i % 5 === 0) await createUser(deps, `cook-${w}-${i}`, 'kitchen', '1234');
        else await commands.handle(menu, MENU_STREAM, { type: 'addCategory', categoryId: newId(), name: `dish group ${w}-${i}` });
        written++;
      } catch (error) {
        // Writers on one hot stream: a command may lose every retry; the service answers 503 then.
        if (!(error instanceof WrongExpectedRevision || error instanceof StreamContended)) throw error;
      }
    }
  };
  const running = Promise.all(Array.from({ length: workers }, (_, w) => work(w)));
  return {
    written: () => written,
    stop: async () => {
      stopped = true;
      await running;
    },
  };
}

/** Every read model built from the log's events up to `head` (inclusive), as sorted documents. */
export async function readModelsUpTo(store: SqliteEventStore, head: bigint | null) {
  const readStore = new MemoryReadStore();
  let after: bigint | null = null;
  for (;;) {
    const batch: RecordedEvent[] = store.readAfter(after, 500).filter((e) => head !== null && e.position <= head);
    if (batch.length === 0) break;
    for (const event of batch) for (const p of allProjections) if (p.handles.includes(event.type)) await p.apply(event, readStore);
    after = batch[batch.length - 1]!.position;
  }
  const names = allProjections.flatMap((p) => Object.keys(p.collections ?? {}));
  const models: Record<string, unknown[]> = {};
  for (const name of names) models[name] = (await readStore.collection(name).find({}, { sort: { _id: 1 } }));
  return models;
}
