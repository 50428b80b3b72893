import { createServer, type Server } from 'node:http';

/**
 * What a standby projector answers on PORT while another holds the lead: alive and doing what it
 * should (200 on /health, /health/live and /health/ready, `status: standby`), so a supervisor keeps
 * it and nothing routes to it anyway. The projector's own health routes replace it once it leads.
 */
export async function serveStandby(host: string, port: number): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const known = request.url === '/health' || request.url === '/health/live' || request.url === '/health/ready';
    response.writeHead(known ? 200 : 404, { 'content-type': 'application/json; charset=utf-8' });
    response.end(JSON.stringify(known ? { status: 'standby', checks: { leadership: 'standby' } } : { message: 'Resource not found' }));
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, () => resolve()));
  const { port: bound } = server.address() as { port: number };
  return {
    url: `http://${host}:${bound}`,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
