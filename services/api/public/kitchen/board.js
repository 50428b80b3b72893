// A keyed list of cards: changes are queued and applied once per frame, touching only the cards whose
// item changed, so a burst of events (a catch-up of thousands of tickets) costs one pass, not one
// redraw of every card per event.

const BULK = 64;

export class Board {
  /**
   * @param container the element holding the cards, in order
   * @param options.compare orders two items (oldest first)
   * @param options.build makes the card of an item
   * @param options.signature changes whenever the card would look different
   */
  constructor(container, { compare, build, signature }) {
    this.container = container;
    this.compare = compare;
    this.build = build;
    this.signature = signature;
    this.entries = new Map();
    this.order = [];
    this.pending = new Map();
    this.scheduled = false;
    this.onFlush = null;
  }

  get size() {
    return this.entries.size;
  }

  set(id, item) {
    this.pending.set(id, item);
    this.schedule();
  }

  delete(id) {
    if (this.entries.has(id) || this.pending.has(id)) {
      this.pending.set(id, null);
      this.schedule();
    }
  }

  clear() {
    for (const id of this.entries.keys()) this.pending.set(id, null);
    for (const [id, item] of this.pending) if (item && !this.entries.has(id)) this.pending.delete(id);
    this.schedule();
  }

  /** Every card built again (a setting that changes how all of them look). */
  rebuildAll() {
    for (const [id, entry] of this.entries) this.pending.set(id, { ...entry.item });
    for (const entry of this.entries.values()) entry.sig = null;
    this.schedule();
  }

  schedule() {
    if (this.scheduled) return;
    this.scheduled = true;
    // A hidden tab gets no animation frames: it still keeps up, on a timer.
    const run = () => this.flush();
    if (document.hidden) setTimeout(run, 50);
    else requestAnimationFrame(run);
  }

  flush() {
    this.scheduled = false;
    const changes = this.pending;
    if (changes.size === 0) return;
    this.pending = new Map();
    const bulk = changes.size > BULK;
    for (const [id, item] of changes) {
      const entry = this.entries.get(id);
      if (!item) {
        if (!entry) continue;
        entry.node.remove();
        this.entries.delete(id);
        if (!bulk) this.order.splice(this.order.indexOf(id), 1);
        continue;
      }
      const sig = this.signature(item);
      if (entry && entry.sig === sig) {
        entry.item = item;
        continue;
      }
      const node = this.build(item);
      if (entry) {
        const moved = this.compare(entry.item, item) !== 0;
        entry.node.replaceWith(node);
        Object.assign(entry, { item, node, sig });
        if (moved && !bulk) {
          this.order.splice(this.order.indexOf(id), 1);
          this.insert(id);
        }
      } else {
        this.entries.set(id, { item, node, sig });
        if (!bulk) this.insert(id);
      }
    }
    if (bulk) this.reorder();
    this.onFlush?.();
  }

  /** One card into its place: a binary search in the order, one DOM insertion. */
  insert(id) {
    const item = this.entries.get(id).item;
    let lo = 0;
    let hi = this.order.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.compare(this.entries.get(this.order[mid]).item, item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    const next = this.order[lo];
    this.container.insertBefore(this.entries.get(id).node, next === undefined ? null : this.entries.get(next).node);
    this.order.splice(lo, 0, id);
  }

  /** After a burst: sort once and move only the cards not already in their place. */
  reorder() {
    this.order = [...this.entries.keys()].sort((a, b) => this.compare(this.entries.get(a).item, this.entries.get(b).item));
    let cursor = this.container.firstChild;
    for (const id of this.order) {
      const { node } = this.entries.get(id);
      if (node === cursor) cursor = cursor.nextSibling;
      else this.container.insertBefore(node, cursor);
    }
  }

  *items() {
    for (const entry of this.entries.values()) yield entry.item;
  }

  *nodes() {
    for (const entry of this.entries.values()) yield entry.node;
  }
}
