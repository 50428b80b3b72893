/**
 * A route's hooks of one kind as a list (Fastify takes one, a list or none), so a plugin's `onRoute`
 * can add its own after the route's: `route.preHandler = [...hookList(route.preHandler), mine]`.
 */
export const hookList = <H>(hooks: H | readonly H[] | undefined): H[] => ([] as H[]).concat(hooks ?? []);
