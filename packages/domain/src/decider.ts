/**
 * The shape of every aggregate: pure functions over commands, events and state.
 * `decide` throws a DomainError to reject a command; it never performs I/O.
 */
export interface Decider<Command, Event, State> {
  decide(command: Command, state: State): Event[];
  evolve(state: State, event: Event): State;
  initialState(): State;
  /**
   * Opt-in for long streams (the singletons): the command handler may store the folded state and
   * start from it. Bump `version` whenever the state's shape or `evolve` changes: older snapshots are
   * then ignored and the stream is folded from the start once.
   */
  snapshot?: { name: string; version: number };
}

export function fold<Event, State>(
  decider: Pick<Decider<unknown, Event, State>, 'evolve' | 'initialState'>,
  events: readonly Event[],
  from: State = decider.initialState(),
): State {
  let state = from;
  for (const event of events) state = decider.evolve(state, event);
  return state;
}
