import { InProcessBus } from './in-process.js';
import { NatsBus } from './nats.js';
import type { Bus } from './types.js';

/** NATS JetStream when a URL is configured, otherwise in-process delivery. */
export function openBus(config: { natsUrl: string | null }): Promise<Bus> {
  return config.natsUrl ? NatsBus.connect(config.natsUrl) : Promise.resolve(new InProcessBus());
}
