export { Projector, ProjectionFailed, type ProjectorOptions, type ProjectorState } from './projector.js';
export { Relay, subjectFor, relayBody, domainEvents, type Publish, type Publication } from './relay.js';
export { kitchenPublications, kitchenSubject } from './kitchen-publications.js';
export { FileCheckpoint, readStoreCheckpoint, type CheckpointStore } from './checkpoint-file.js';
export { replay, type ReplayReport } from './replay.js';
export { Reactor, type Reaction } from './reactor.js';
export { tableOccupancy } from './process-managers/table-occupancy.js';
export { kitchenTickets, orderStatusFromKitchen, kitchenReactions } from './process-managers/kitchen.js';
export { projections, relay, kitchenRelay, reactions, allReactions } from './parts.js';
