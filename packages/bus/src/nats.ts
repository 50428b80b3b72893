import {
  AckPolicy,
  DeliverPolicy,
  JSONCodec,
  StorageType,
  connect,
  nanos,
  type ConsumerMessages,
  type JetStreamClient,
  type JetStreamManager,
  type NatsConnection,
} from 'nats';
import {
  type Bus,
  type BusHandler,
  type BusSubscription,
  type SubscribeOptions,
  DEDUP_WINDOW_MS,
  subjectFamily,
} from './types.js';

const codec = JSONCodec();

/**
 * How long JetStream waits for an acknowledgement before it delivers a message again: a consumer
 * that died holding one (a crashed wallet bridge) has it redelivered within this. A handler still
 * working tells JetStream so every `WORKING_EVERY_MS`, so a slow one is not redelivered under itself.
 */
export const ACK_WAIT_MS = 4_000;
const WORKING_EVERY_MS = 1_500;
const streamName = (family: string) => `POS_${family.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;

/**
 * NATS JetStream: one stream per subject family (`pos.order.>` → POS_ORDER, file storage), the
 * publisher's dedupId as `Nats-Msg-Id`, consumers with explicit acknowledgement.
 */
export class NatsBus implements Bus {
  readonly durable = true;
  private readonly ensured = new Map<string, Promise<string>>();
  private readonly subscriptions = new Set<ConsumerMessages>();
  private readonly nc: NatsConnection;
  private readonly jsm: JetStreamManager;
  private readonly js: JetStreamClient;

  private constructor(
    nc: NatsConnection,
    jsm: JetStreamManager,
    js: JetStreamClient,
  ) {
    this.nc = nc;
    this.jsm = jsm;
    this.js = js;
  }

  static async connect(servers: string, name = 'comanda'): Promise<NatsBus> {
    const nc = await connect({ servers, name, maxReconnectAttempts: -1 });
    const jsm = await nc.jetstreamManager();
    return new NatsBus(nc, jsm, nc.jetstream());
  }

  private ensureStream(family: string): Promise<string> {
    let ready = this.ensured.get(family);
    if (!ready) {
      const name = streamName(family);
      ready = this.jsm.streams
        .info(name)
        .catch(() =>
          this.jsm.streams.add({
            name,
            subjects: [`pos.${family}.>`],
            storage: StorageType.File,
            duplicate_window: nanos(DEDUP_WINDOW_MS),
          }),
        )
        .then(() => name);
      ready.catch(() => this.ensured.delete(family));
      this.ensured.set(family, ready);
    }
    return ready;
  }

  async publish(subject: string, payload: unknown, dedupId: string): Promise<void> {
    await this.ensureStream(subjectFamily(subject));
    await this.js.publish(subject, codec.encode(payload), { msgID: dedupId });
  }

  async subscribe<T>(pattern: string, handler: BusHandler<T>, options: SubscribeOptions = {}): Promise<BusSubscription> {
    const stream = await this.ensureStream(subjectFamily(pattern));
    const config = {
      ...(options.durable ? { durable_name: options.durable } : { inactive_threshold: nanos(60_000) }),
      ack_policy: AckPolicy.Explicit,
      deliver_policy: options.durable ? DeliverPolicy.All : DeliverPolicy.New,
      filter_subject: pattern,
      ack_wait: nanos(ACK_WAIT_MS),
    };
    // Create or update: a durable consumer made by an older release (a 30 s ack wait) is updated in
    // place, its position kept (tested).
    const info = await this.jsm.consumers.add(stream, config);
    const consumer = await this.js.consumers.get(stream, info.name);
    const messages = await consumer.consume({ max_messages: 256 });
    this.subscriptions.add(messages);
    const done = (async () => {
      for await (const m of messages) {
        // Told from a timer: a connection closing meanwhile must not throw out of it.
        const working = setInterval(() => {
          try {
            m.working();
          } catch {
            // Closed: JetStream delivers the message again after the ack wait, as for a crash.
          }
        }, WORKING_EVERY_MS);
        try {
          await handler({
            subject: m.subject,
            payload: codec.decode(m.data) as T,
            dedupId: m.headers?.get('Nats-Msg-Id') ?? '',
            redelivered: m.redelivered,
          });
          m.ack();
        } catch {
          m.nak(Math.min(5_000, 100 * m.info.redeliveryCount));
        } finally {
          clearInterval(working);
        }
      }
    })();
    return {
      close: async () => {
        this.subscriptions.delete(messages);
        await messages.close();
        await done;
      },
    };
  }

  async ping(): Promise<void> {
    await this.nc.flush();
  }

  async close(): Promise<void> {
    for (const m of this.subscriptions) await m.close();
    await this.nc.drain();
  }
}
