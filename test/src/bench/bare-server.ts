import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

/**
 * The ceiling the read benchmark compares against: a bare Fastify server (no logging, no hooks, no
 * plugins) answering each URL with the bytes the product answered for it — its body and the headers it
 * chose — or, to a request holding the product's ETag for it, the 304 the product sent. Run as its own
 * process, like the product, and given a JSON file of `{url, body, etag, headers, notModified}`.
 */
interface Answer { body: string; etag: string | null; headers: Record<string, string>; notModified: Record<string, string> }
const answers = new Map<string, Answer>();
for (const a of JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as Array<Answer & { url: string }>) answers.set(a.url, a);
const app = Fastify({ logger: false });
app.get('*', (request, reply) => {
  const answer = answers.get(request.url);
  if (!answer) return reply.code(404).send();
  if (answer.etag && request.headers['if-none-match'] === answer.etag) return reply.code(304).headers(answer.notModified).send();
  return reply.headers(answer.headers).send(answer.body);
});
const url = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`listening on ${url}`);
process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
