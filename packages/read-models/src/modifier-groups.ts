import { type ModifierGroupDetails, type ModifierGroupEvent, fromCents, versionAfter } from '@comanda/domain';
import { projectionOf, type Tracked, updateDocument } from './projection.js';
import { bump } from './versioned.js';

/** A modifier group as the menu screens show it: its options with their price deltas as decimals. */
export type ModifierGroupView = Tracked & {
  id: string; name: string; min_choices: number; max_choices: number;
  options: Array<{ id: string; name: string; price_delta: number }>;
  version: number;
};

export const MODIFIER_GROUPS = 'modifier_groups';

const fields = (d: ModifierGroupDetails) => ({
  name: d.name, min_choices: d.minChoices, max_choices: d.maxChoices, options: d.options.map((o) => ({ id: o.id, name: o.name, price_delta: fromCents(o.priceDeltaCents) })),
});

export const modifierGroupsProjection = projectionOf<ModifierGroupEvent>({
  name: 'modifier-groups',
  handles: ['ModifierGroupCreated', 'ModifierGroupChanged', 'ModifierGroupRemoved'],
  collections: { [MODIFIER_GROUPS]: [{ name: 1 }] },
  async apply(e, store) {
    const id = e.data.groupId;
    await updateDocument(store.collection<ModifierGroupView>(MODIFIER_GROUPS), id, e, (current) => {
      switch (e.type) {
        case 'ModifierGroupCreated':
          return { _id: id, id, ...fields(e.data), version: versionAfter(null) };
        case 'ModifierGroupChanged':
          return bump(current, fields(e.data));
        case 'ModifierGroupRemoved':
          return null;
      }
    });
  },
});
