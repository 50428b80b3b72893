import { MENU_STREAM, type MenuCommand, type Permission, menu } from '@comanda/domain';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { type TSchema, Type } from 'typebox';
import { sendNoContent } from '../../http/replies.js';
import { IdParams } from '../../http/schemas.js';
import { writeContext } from '../../http/write-context.js';

/**
 * `DELETE <path>/:id` for an entity of the menu stream that others may still use (a modifier group, a
 * tax rate): the decider refuses with 409 while they do; 204 with no body once removed.
 */
export function menuRemoval(fastify: FastifyInstance, o: {
  path: string; tags: string[]; summary: string; description: string; permission: Permission; errors: Record<number, TSchema>; command: (id: string) => MenuCommand;
}): void {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  app.delete(`${o.path}/:id`, {
    config: { permission: o.permission },
    schema: { tags: o.tags, summary: o.summary, description: `${o.description} 204 with no body.`, params: IdParams, response: { 204: Type.Null({ description: 'Removed; no body' }), ...o.errors } },
  }, async (request, reply) => {
    const result = await app.deps.commands.handle(menu, MENU_STREAM, o.command(request.params.id), writeContext(request));
    await app.readYourWrite(result.position);
    return sendNoContent(reply);
  });
}
