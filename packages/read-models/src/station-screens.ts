import type { ReadStore } from '@comanda/read-store';

/**
 * Which kitchen screens are connected (issue 61): one document per `GET /kitchen/events` connection
 * for a station, written by the API that serves it, refreshed while it stays open and marked closed
 * when it ends. Operational state, not a projection: no event makes it and a rebuild leaves it alone.
 * Shared by the API replicas and the projector whose reaction asks whether a station's screen is gone.
 */
export const STATION_SCREENS = 'station_screens';

export type StationScreenView = { _id: string; station_id: string; open: boolean; seen_at: number };

/** How often an open connection says it is still there; one silent three times as long is taken as gone (its API died). */
export const SCREEN_REFRESH_MS = 15_000;

/**
 * True when no screen of the station is connected and the last one left more than `awayMs` ago
 * (or none ever connected): its printer takes over.
 */
export async function stationScreenGone(readStore: ReadStore, stationId: string, now: number, awayMs: number): Promise<boolean> {
  const screens = await readStore.collection<StationScreenView>(STATION_SCREENS).find({ station_id: stationId });
  const alive = screens.some((s) => s.open && s.seen_at >= now - 3 * SCREEN_REFRESH_MS);
  if (alive) return false;
  const last = Math.max(-Infinity, ...screens.map((s) => s.seen_at));
  return last < now - awayMs;
}

/** Records a screen connected, still there (`open`), or gone. */
export async function markStationScreen(readStore: ReadStore, id: string, stationId: string, open: boolean, now: number): Promise<void> {
  await readStore.collection<StationScreenView>(STATION_SCREENS).upsert({ _id: id, station_id: stationId, open, seen_at: now });
}
