import { InProcessBus } from './in-process.js';
import type { Bus } from './types.js';

/** NATS JetStream when a URL is configured (its client loaded only then), otherwise in-process delivery. */
export async function openBus(config: { natsUrl: string | null }): Promise<Bus> {
  if (!config.natsUrl) return new InProcessBus();
  const { NatsBus } = await import('./nats.js');
  return NatsBus.connect(config.natsUrl);
}
