import t from 'tap';
import { Type } from 'typebox';
import { acceptsNull, nullsAsAbsent } from '../src/http/validation.js';

/** Issue 58: null for an optional field reads as the field left out (the HTTP side is in client-frictions.test.ts). */

t.test('which schemas take null', async (t) => {
  t.ok(acceptsNull(Type.Union([Type.Integer(), Type.Null()])), 'a nullable union');
  t.ok(acceptsNull({ type: ['string', 'null'] }), 'a type list with null');
  t.ok(acceptsNull(Type.Unknown()), 'anything');
  t.ok(acceptsNull({ enum: ['a', null] }));
  t.ok(acceptsNull({ $ref: 'Other' }), 'a reference is not followed: kept as it is');
  t.notOk(acceptsNull(Type.String()));
  t.notOk(acceptsNull(Type.Enum(['a', 'b'])));
  t.notOk(acceptsNull(Type.Union([Type.Literal('a'), Type.Literal('b')])));
  t.notOk(acceptsNull(Type.Literal('a')));
  t.notOk(acceptsNull(Type.Object({})));
});

t.test('nulls of optional fields go, in nested objects and arrays too; nullable and required ones stay', async (t) => {
  const Line = Type.Object({ dish_id: Type.String(), notes: Type.Optional(Type.String()), seat: Type.Optional(Type.Union([Type.Integer(), Type.Null()])) });
  const Body = Type.Object({
    name: Type.String(),
    status: Type.Optional(Type.Enum(['open', 'closed'])),
    lines: Type.Optional(Type.Array(Line)),
    where: Type.Optional(Type.Object({ room: Type.Optional(Type.String()) })),
    either: Type.Optional(Type.Union([Type.Object({ a: Type.Optional(Type.String()) }), Type.Object({ b: Type.String() })])),
  });
  const prune = nullsAsAbsent(Body)!;
  const body = { name: null, status: null, lines: [{ dish_id: 'd', notes: null, seat: null }, 'not an object'], where: { room: null }, either: { a: null } };
  prune(body);
  t.same(body, { name: null, lines: [{ dish_id: 'd', seat: null }, 'not an object'], where: {}, either: { a: null } },
    'a required null stays (refused later), a nullable one stays, under a union nothing is guessed');
  t.equal(nullsAsAbsent(Type.Object({ id: Type.String(), maybe: Type.Union([Type.String(), Type.Null()]) })), null, 'nothing to drop: no step');
  t.doesNotThrow(() => prune(null), 'a body that is not an object is left to validation');
});
