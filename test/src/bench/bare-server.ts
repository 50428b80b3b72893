import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

/**
 * The ceiling the read benchmark compares against: a bare Fastify server (no logging, no hooks, no
 * plugins) answering each URL with the bytes and content type the product answered for it, or 304 to
 * a request that holds the product's ETag for it. Run as
 * its own process, like the product, and given a JSON file of `{url, contentType, body}`.
 */
interface Answer { contentType: string; body: string; etag: string | null }
const answers = new Map<string, Answer>();
for (const a of JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Array<Answer & { url: string }>) answers.set(a.url, a);
const app = Fastify({ logger: false });
app.get('*', (request, reply) => {
  const answer = answers.get(request.url);
  if (!answer) return reply.code(404).send();
  // A revalidation, as the product answers it: the tag it holds is current.
  if (answer.etag && request.headers['if-none-match'] === answer.etag) return reply.code(304).header('etag', answer.etag).send();
  return reply.type(answer.contentType).send(answer.body);
});
const url = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`listening on ${url}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
