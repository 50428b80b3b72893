// The checkpoint stores live with the subscription runner in @comanda/runtime; re-exported for callers of this package.
export { FileCheckpoint, readStoreCheckpoint, type CheckpointStore } from '@comanda/runtime';
