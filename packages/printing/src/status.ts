/**
 * ESC/POS real-time status (DLE EOT n), as Epson TM printers answer it over TCP 9100: one byte per
 * query, answered as soon as it is received, even while the printer is offline. We ask three:
 * n=1 the printer (offline), n=2 why it is offline (cover open, stopped at paper end, an error),
 * n=4 the roll paper sensor (paper end).
 */
export const STATUS_QUERIES = [1, 2, 4] as const;

/** The bytes asking all three, in the order their answers come back. */
export const STATUS_QUERY = Uint8Array.from(STATUS_QUERIES.flatMap((n) => [0x10, 0x04, n]));

/** Every status byte has bit 1 and bit 4 set, bits 0 and 7 clear: how an answer is told from other bytes a printer sends. */
export const isStatusByte = (b: number): boolean => (b & 0x93) === 0x12;

/**
 * What the printer's answers to `STATUS_QUERY` say is wrong, in the restaurant's words; empty when it
 * can print. "offline" is named only when nothing else explains it (paper end and an open cover take a
 * printer offline too). Near-end of the roll is not a fault: it still prints.
 */
export function printerFaults(answers: readonly number[]): string[] {
  const [printer = 0x12, offlineCause = 0x12, paper = 0x12] = answers;
  const faults: string[] = [];
  if ((paper & 0x60) !== 0 || (offlineCause & 0x20) !== 0) faults.push('out of paper');
  if ((offlineCause & 0x04) !== 0) faults.push('cover open');
  if ((offlineCause & 0x40) !== 0) faults.push('printer error');
  if (faults.length === 0 && (printer & 0x08) !== 0) faults.push('offline');
  return faults;
}

/** The answers a printer in this state gives to `STATUS_QUERY` (the simulator's side, and the tests'). */
export function statusAnswers(state: { paperOut?: boolean; coverOpen?: boolean }): number[] {
  const offline = state.paperOut || state.coverOpen;
  return [
    0x12 | (offline ? 0x08 : 0),
    0x12 | (state.coverOpen ? 0x04 : 0) | (state.paperOut ? 0x20 : 0),
    0x12 | (state.paperOut ? 0x60 : 0),
  ];
}
