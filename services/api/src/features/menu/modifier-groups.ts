import { MAX_OPTIONS, MENU_STREAM, type ModifierGroupDetails, type ModifierOption, menu, toCents, validationFailed } from '@comanda/domain';
import { MODIFIER_GROUPS, type ModifierGroupView } from '@comanda/read-models';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { resourceReads } from '../../http/resource-reads.js';
import { storedAs } from '../../http/representation.js';
import { Conflict, IdempotencyHeaders, IfMatchHeaders, PlaceName, Stale } from '../../http/resources.js';
import { menuRemoval } from './menu-removal.js';
import { IdParams, commonErrors } from '../../http/schemas.js';
import { ifMatch, newResourceId, writeContext } from '../../http/write-context.js';
import { readOnlyFields } from '../../http/read-only-fields.js';

const PriceDelta = Type.Number({
  minimum: -9_999_999.99, maximum: 9_999_999.99,
  description: 'added to the dish price for each portion, at most two decimals; below zero takes money off ("no cheese", -5), never more than a portion of any dish carrying the group costs (400)',
});
const Choices = (minimum: number, description: string) => Type.Integer({ minimum, maximum: MAX_OPTIONS, description });

const ModifierGroup = Type.Object({
  id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  min_choices: Type.Integer(),
  max_choices: Type.Integer(),
  options: Type.Array(Type.Object({ id: Type.String({ format: 'uuid' }), name: Type.String(), price_delta: Type.Number() })),
}, {
  examples: [{ id: '6f1e2d3c-4b5a-4968-8776-5a4b3c2d1e0f', name: 'Salsa', min_choices: 1, max_choices: 1, options: [{ id: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d', name: 'Verde', price_delta: 0 }] }],
});
const Body = Type.Object({
  name: PlaceName,
  min_choices: Choices(0, 'how many options a line must choose at least (0: optional)'),
  max_choices: Choices(1, 'how many options a line may choose at most'),
  options: Type.Array(Type.Object({
    id: Type.Optional(Type.String({ format: 'uuid', description: 'PUT: an option of this group to keep (its id stays); absent: a new option' })),
    name: PlaceName,
    price_delta: PriceDelta,
  }), { minItems: 1, maxItems: MAX_OPTIONS }),
}, { examples: [{ name: 'Extras', min_choices: 0, max_choices: 3, options: [{ name: 'Guacamole', price_delta: 15 }, { name: 'Queso', price_delta: 10 }] }] });
const Created = Type.Object({ id: Type.String({ format: 'uuid' }), option_ids: Type.Array(Type.String({ format: 'uuid' })), message: Type.Literal('Modifier group added successfully') });
const errors = { ...commonErrors, 409: Conflict('Another group has this name (ignoring case), or dishes still use the group (counted by dish_count)', { dish_count: Type.Integer() }), 412: Stale };

const view = (g: ModifierGroupView) => ({ id: g.id, name: g.name, min_choices: g.min_choices, max_choices: g.max_choices, options: g.options });

/**
 * The body as the menu decider takes it: names trimmed, price deltas in exact cents, an id for each
 * option (a kept one's own, a new one's derived from the Idempotency-Key when there is one).
 */
function groupDetails(request: FastifyRequest, body: Static<typeof Body>): ModifierGroupDetails {
  const options: ModifierOption[] = body.options.map((o, i) => {
    const cents = toCents(o.price_delta);
    if (cents === null) throw validationFailed([{ field: `options[${i}].price_delta`, message: 'must have at most two decimals' }]);
    return { id: o.id ?? newResourceId(request, `modifier-option-${i}`), name: o.name.trim(), priceDeltaCents: cents };
  });
  return { name: body.name.trim(), minChoices: body.min_choices, maxChoices: body.max_choices, options };
}

/** Modifier groups: managers and admins write them, every role reads them (waiters choose from them). */
export default async function modifierGroupRoutes(fastify: FastifyInstance) {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const tags = ['modifier groups'];
  const { commands } = app.deps;

  resourceReads<ModifierGroupView>(app, { path: '/modifier-groups', tags, plural: 'modifier groups', permission: 'menu:read', collection: MODIFIER_GROUPS, schema: ModifierGroup, view });

  app.post('/modifier-groups', {
    config: { permission: 'menu:write' },
    schema: {
      tags, summary: 'Add a modifier group',
      description: '0 ≤ min_choices ≤ max_choices, max_choices ≥ 1, min_choices at most the number of options; option names unique within the group, group names unique (409). A price_delta below zero takes money off a portion. Answers the ids of the group and of each option, in the order given.',
      headers: IdempotencyHeaders, body: Body, response: { 201: Created, ...errors },
    },
  }, async (request, reply) => {
    const groupId = newResourceId(request, 'modifier-group');
    const details = groupDetails(request, request.body);
    const result = await commands.handle(menu, MENU_STREAM, { type: 'createModifierGroup', groupId, ...details }, writeContext(request));
    await app.readYourWrite(result.position, `/modifier-groups/${groupId}`);
    const created = result.events.find((e) => e.type === 'ModifierGroupCreated');
    const optionIds = created?.type === 'ModifierGroupCreated' ? created.data.options.map((o) => o.id) : details.options.map((o) => o.id);
    return reply.code(201).header('location', `/modifier-groups/${groupId}`).send({ id: groupId, option_ids: optionIds, message: 'Modifier group added successfully' });
  });

  app.put('/modifier-groups/:id', {
    config: { permission: 'menu:write' },
    preValidation: readOnlyFields(Body, storedAs(app, MODIFIER_GROUPS, view)),
    schema: {
      tags, summary: 'Change a modifier group',
      description: 'Replaces name, bounds and options: an option given with its id keeps it, one without is new, one left out is gone. Lines already taken keep the modifiers as they were priced. 400 (at options, naming the dish) when the cheapest choice the group would allow takes a portion of a dish carrying it below zero.',
      headers: IfMatchHeaders, params: IdParams, body: Body,
      response: { 200: Type.Object({ id: Type.String(), message: Type.Literal('Modifier group updated successfully') }), ...errors },
    },
  }, async (request) => {
    const { id } = request.params;
    const result = await commands.handle(menu, MENU_STREAM, { type: 'changeModifierGroup', groupId: id, ifMatch: ifMatch(request), ...groupDetails(request, request.body) }, writeContext(request));
    await app.readYourWrite(result.position);
    return { id, message: 'Modifier group updated successfully' as const };
  });

  menuRemoval(app, {
    path: '/modifier-groups', tags, permission: 'menu:write', errors, summary: 'Remove a modifier group',
    description: 'Refused with 409 while a dish carries the group: take it off those dishes first.',
    command: (groupId) => ({ type: 'removeModifierGroup', groupId }),
  });
}
