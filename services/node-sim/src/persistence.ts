import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Saves a JSON document atomically (temp file + rename) so a crash never leaves half a state file.
 * Saves are coalesced: many changes in one tick cost one write, and writes never overlap.
 */
export class JsonFile<T> {
  private pending: T | undefined;
  private writing: Promise<void> = Promise.resolve();
  private scheduled = false;
  readonly path: string;

  constructor(path: string) {
    this.path = path;
  }

  static readSync<T>(path: string): T | undefined {
    try {
      return JSON.parse(readFileSync(path, 'utf8')) as T;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw new Error(`cannot read state file ${path}: ${(error as Error).message}`);
    }
  }

  /** Takes a snapshot now (the caller may keep mutating) and writes it soon. */
  save(value: T): void {
    this.pending = structuredClone(value);
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.writing = this.writing.then(() => this.writePending());
    });
  }

  /** Resolves once everything saved so far is on disk. */
  async flush(): Promise<void> {
    this.writing = this.writing.then(() => this.writePending());
    await this.writing;
  }

  private async writePending(): Promise<void> {
    const value = this.pending;
    if (value === undefined) return;
    this.pending = undefined;
    await mkdir(dirname(this.path), { recursive: true, mode: 0o700 });
    const temp = `${this.path}.${process.pid}.tmp`;
    // The state holds the nodes' passwords and keys: private to the service's user.
    await writeFile(temp, JSON.stringify(value, null, 1), { mode: 0o600 });
    await chmod(temp, 0o600);
    await rename(temp, this.path);
  }
}
