/**
 * Work asked for in one turn of the event loop, sent as batches: at most `max` items a batch and
 * `inFlight` batches out at once; what is asked while they are out waits and goes in the next one
 * together. Under load the batches grow instead of the statements multiplying; two in flight, so one
 * long batch holds nobody up. Each item is sent after it was asked for.
 *
 * `send` answers every item of its batch itself, failures included: a rejection is a bug, and only
 * frees the batch's place.
 */
export class TurnBatches<W> {
  private waiting: W[] = [];
  private out = 0;
  private scheduled = false;
  private readonly send: (batch: W[]) => Promise<void>;
  private readonly max: number;
  private readonly inFlight: number;

  constructor(
    send: (batch: W[]) => Promise<void>,
    max: number,
    inFlight = 2,
  ) {
    this.send = send;
    this.max = max;
    this.inFlight = inFlight;
  }

  add(item: W): void {
    this.waiting.push(item);
    if (!this.scheduled && this.out < this.inFlight) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        this.flush();
      });
    }
  }

  private flush(): void {
    while (this.waiting.length > 0 && this.out < this.inFlight) {
      const batch = this.waiting.splice(0, this.max);
      this.out++;
      const done = () => {
        this.out--;
        this.flush();
      };
      this.send(batch).then(done, done);
    }
  }
}
