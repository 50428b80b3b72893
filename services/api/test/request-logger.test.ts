import { Writable } from 'node:stream';
import t from 'tap';
import Fastify from 'fastify';
import pino from 'pino';
import { requestLoggers } from '../src/request-logger.js';
import { testApp } from './harness.js';

/** A pino logger writing into `lines`, and how many children it has made. */
function capturing(level: string) {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({ write: (chunk, _enc, cb) => (lines.push(JSON.parse(chunk.toString()) as Record<string, unknown>), cb()) });
  let children = 0;
  const logger = pino({ level, onChild: () => void children++ }, stream);
  return { logger, lines, children: () => children };
}

t.test('a request logger writes what pino\'s child would, and makes the child only for a line its level writes', async (t) => {
  const { logger, lines, children } = capturing('info');
  const app = Fastify({ loggerInstance: logger, childLoggerFactory: requestLoggers, disableRequestLogging: true });
  app.get('/quiet', async (request) => (request.log.debug({ detail: 1 }, 'not at info'), 'quiet'));
  app.get('/loud', async (request) => (request.log.warn({ detail: 2 }, 'from %s', 'the route'), request.id));
  app.get('/nested', async (request) => {
    request.log.child({ part: 'kitchen' }).info('nested');
    return request.id;
  });
  app.get('/own-level', { logLevel: 'debug' }, async (request) => (request.log.debug('route at debug'), 'ok'));
  const asked = (log: unknown, level: string) => (log as { isLevelEnabled(level: string): boolean }).isLevelEnabled(level);
  app.get('/asked', async (request) => `${asked(request.log, 'debug')} ${asked(request.log, 'info')}`);
  app.get('/raised', async (request) => {
    request.log.level = 'debug';
    request.log.debug('raised for this request');
    return request.log.level;
  });
  t.teardown(() => app.close());
  await app.ready();
  const made = children();

  t.equal((await app.inject('/quiet')).body, 'quiet');
  t.same(lines, [], 'a line below the level: nothing written');
  t.equal(children(), made, 'and no child made');

  const id = (await app.inject('/loud')).body;
  t.match(lines, [{ level: 40, reqId: id, detail: 2, msg: 'from the route' }], 'a line at the level: written with the request id, arguments formatted');
  t.equal(children(), made + 1, 'one child, made for the line');

  const nested = (await app.inject('/nested')).body;
  t.match(lines.at(-1), { level: 30, reqId: nested, part: 'kitchen', msg: 'nested' }, 'a child of a request logger keeps the request id');

  await app.inject('/own-level');
  t.match(lines.at(-1), { level: 20, msg: 'route at debug' }, 'a route with its own level gets it');

  t.equal((await app.inject('/asked')).body, 'false true', 'a request logger answers pino\'s isLevelEnabled as the app\'s logger does');
  t.equal((await app.inject('/raised')).body, 'debug', 'a level set on a request logger is its own');
  t.match(lines.at(-1), { level: 20, msg: 'raised for this request' });
  t.equal(logger.level, 'info', 'the app\'s logger keeps its level');
});

t.test('the app: a route\'s line and its request\'s line name the same request', async (t) => {
  const { app, logs, close } = await testApp({}, {}, (app) => {
    app.post('/test/route-line', async (request) => (request.log.error({ detail: 3 }, 'route says'), request.id));
  });
  t.teardown(close);
  const id = (await app.inject({ method: 'POST', url: '/test/route-line' })).body;
  const lines = logs.map((l) => JSON.parse(l) as Record<string, unknown>);
  t.match(lines.find((l) => l.msg === 'route says'), { level: 50, reqId: id, detail: 3 });
  t.match(lines.find((l) => l.msg === 'request completed'), { level: 30, reqId: id, res: { statusCode: 200 } }, 'a write\'s line');
});
