/**
 * The cards of a board, kept in order by key. Changes are queued and applied together (`flush`, once
 * per frame: the feed calls it), so a burst of events (the catch-up of thousands of tickets) costs one
 * pass and one render, not one per event. `list` is a new array after a flush that changed anything:
 * the view renders it, and each card bails out unless its own item changed.
 */

/** Past this many changes in one flush, the order is sorted once instead of placing each card. */
const BULK = 64;

export class Board<T extends { id: string }> {
  private readonly entries = new Map<string, T>();
  private order: string[] = [];
  private pending = new Map<string, T | null>();
  /** The items, oldest first (as `compare` says). */
  list: readonly T[] = [];
  private readonly compare: (a: T, b: T) => number;

  constructor(compare: (a: T, b: T) => number) {
    this.compare = compare;
  }

  get size(): number {
    return this.entries.size;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  set(item: T): void {
    this.pending.set(item.id, item);
  }

  delete(id: string): void {
    if (this.entries.has(id) || this.pending.has(id)) this.pending.set(id, null);
  }

  clear(): void {
    this.pending = new Map([...this.entries.keys()].map((id) => [id, null]));
  }

  /** Applies what is queued; true when the list changed. */
  flush(): boolean {
    const changes = this.pending;
    if (changes.size === 0) return false;
    this.pending = new Map();
    const bulk = changes.size > BULK;
    for (const [id, item] of changes) {
      const known = this.entries.get(id);
      if (!item) {
        if (known === undefined) continue;
        this.entries.delete(id);
        if (!bulk) this.order.splice(this.order.indexOf(id), 1);
        continue;
      }
      this.entries.set(id, item);
      if (bulk) continue;
      if (known === undefined) this.insert(item);
      else if (this.compare(known, item) !== 0) {
        this.order.splice(this.order.indexOf(id), 1);
        this.insert(item);
      }
    }
    // After a burst: one sort, instead of a binary search per card.
    if (bulk) this.order = [...this.entries.keys()].sort((a, b) => this.compare(this.entries.get(a)!, this.entries.get(b)!));
    this.list = this.order.map((id) => this.entries.get(id)!);
    return true;
  }

  /** One item into its place: a binary search in the order. */
  private insert(item: T): void {
    let lo = 0;
    let hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.compare(this.entries.get(this.order[mid]!)!, item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    this.order.splice(lo, 0, item.id);
  }
}
