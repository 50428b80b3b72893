import { LocalClock } from './clock.js';

/**
 * A report's state to JSON and back. States are plain data held in Maps, arrays, plain objects and a
 * few small classes (OrderBook, MenuNames) plus the shared clock; JSON knows none of Map, class or
 * clock, so Maps are written as `{ "$map": [[key, value], …] }` and a state is read back *into* a
 * fresh `init(clock)` state: its classes and its clock stay, their fields are filled in.
 */
export type Encoded = null | boolean | number | string | Encoded[] | { [key: string]: Encoded };

const MAP = '$map';

/** A field a saved or handed-over state keeps: not the clock (shared, rebuilt from the configured zone), no functions. */
const isStateField = (v: unknown): boolean => v !== undefined && typeof v !== 'function' && !(v instanceof LocalClock);

export function encodeState(value: unknown): Encoded {
  if (value === null || typeof value !== 'object') {
    if (typeof value === 'number' && !Number.isFinite(value)) throw new Error(`a report state holds ${value}, which JSON cannot`);
    return value as Encoded;
  }
  if (value instanceof Map) {
    const entries: Encoded[] = [];
    for (const [k, v] of value) entries.push([encodeState(k), encodeState(v)]);
    return { [MAP]: entries };
  }
  if (Array.isArray(value)) return value.map(encodeState);
  const out: Record<string, Encoded> = {};
  for (const [k, v] of Object.entries(value)) if (isStateField(v)) out[k] = encodeState(v);
  return out;
}

/**
 * Reads `saved` into `into` (a fresh state from `init`): Maps are refilled, class instances and plain
 * objects are filled field by field, the clock is kept. Returns what the field should now hold.
 */
export function decodeState(saved: Encoded, into?: unknown): unknown {
  if (saved === null || typeof saved !== 'object') return saved;
  if (Array.isArray(saved)) return saved.map((x) => decodeState(x));
  if (isEncodedMap(saved)) {
    const map = into instanceof Map ? into : new Map();
    map.clear();
    for (const [k, v] of saved[MAP] as Array<[Encoded, Encoded]>) map.set(decodeState(k), decodeState(v));
    return map;
  }
  if (into !== null && typeof into === 'object' && !Array.isArray(into) && !(into instanceof Map)) {
    const target = into as Record<string, unknown>;
    for (const [k, v] of Object.entries(saved)) target[k] = decodeState(v, target[k]);
    return target;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(saved)) out[k] = decodeState(v);
  return out;
}

const isEncodedMap = (x: { [key: string]: Encoded }): boolean => Object.keys(x).length === 1 && Array.isArray(x[MAP]);

/**
 * A report's state as a replay thread hands it to the main thread: its own fields but the shared
 * clock, as they are. They cross by structured clone, which carries Maps and plain data itself
 * (and keeps a book the thread's reports share one book): writing them as JSON on one side and
 * rebuilding them on the other took as long again as the clone, with the other thread idle.
 */
export function handOver(state: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(state as Record<string, unknown>)) if (isStateField(v)) out[k] = v;
  return out;
}

/**
 * Reads a state handed over from a thread into a fresh `init` state: fields are taken as they came
 * (Maps, arrays), and a class instance or plain object of `into` (the order book, the menu's
 * names) keeps its identity and has its fields filled in, as `decodeState` does; the clock stays.
 */
export function takeOver(given: Record<string, unknown>, into: Record<string, unknown>): void {
  for (const [k, v] of Object.entries(given)) {
    const mine = into[k];
    if (isRecord(mine) && isRecord(v)) takeOver(v, mine);
    else into[k] = v;
  }
}

const isRecord = (x: unknown): x is Record<string, unknown> => x !== null && typeof x === 'object' && !Array.isArray(x) && !(x instanceof Map);
