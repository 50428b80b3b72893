import { createInterface } from 'node:readline';

/**
 * A secret from the operator: typed without echo on a terminal (asked twice), or the first line of
 * stdin when piped (`echo 2580 | npm run admin -- create-user Marisol waiter`). Never an argument, so
 * it stays out of the shell history and the process list.
 */
export async function readSecret(label: string): Promise<string> {
  if (!process.stdin.isTTY) return firstLine();
  const first = await hidden(`${label}: `);
  const again = await hidden(`${label} again: `);
  if (first !== again) throw new Error(`the two ${label}s differ`);
  return first;
}

async function firstLine(): Promise<string> {
  const lines = createInterface({ input: process.stdin });
  for await (const line of lines) {
    lines.close();
    return line.trim();
  }
  return '';
}

function hidden(prompt: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const stdin = process.stdin;
    process.stderr.write(prompt);
    stdin.setRawMode(true);
    stdin.resume();
    let value = '';
    const onData = (chunk: Buffer) => {
      for (const ch of chunk.toString('utf8')) {
        if (ch === '\r' || ch === '\n') {
          done();
          process.stderr.write('\n');
          return resolve(value);
        }
        if (ch === '\u0003') {
          done();
          return reject(new Error('cancelled'));
        }
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else value += ch;
      }
    };
    const done = () => {
      stdin.off('data', onData);
      stdin.setRawMode(false);
      stdin.pause();
    };
    stdin.on('data', onData);
  });
}
