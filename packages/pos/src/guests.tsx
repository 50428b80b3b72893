/** The parties a tap seats; a larger one is corrected on the order (PUT /orders/{id} takes up to 99). */
const GUEST_COUNTS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/**
 * How many guests sit down (the covers the sales report counts): asked when a table is seated, and
 * changed on the order when someone joins or leaves. One tap answers.
 */
export function GuestCounts(props: { title: string; current?: number | null; disabled: boolean; onPick: (n: number) => void; onCancel: () => void }) {
  return (
    <div class="guests-sheet">
      <h3>{props.title}</h3>
      <div class="guest-counts">
        {GUEST_COUNTS.map((n) => <button type="button" key={n} data-guests={n} class={n === props.current ? 'active' : ''} disabled={props.disabled} onClick={() => props.onPick(n)}>{n}</button>)}
      </div>
      <button type="button" class="secondary wide" onClick={props.onCancel}>Cancel</button>
    </div>
  );
}

export const guestsLabel = (n: number | null) => (n === null ? 'Guests?' : `${n} ${n === 1 ? 'guest' : 'guests'}`);
