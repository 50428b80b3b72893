/* The simulated Lightning network's customer side, as the standalone announces it on start. */

/** The built-in simulator's customer wallet (as the standalone announces it) pays an invoice. */
export async function payInvoice(output: string, invoice: string): Promise<{ paymentId?: string; reason?: string }> {
  const m = /a customer wallet at (http:\/\/\S+) \(Basic auth, empty user, password (\S+)\)/.exec(output);
  if (!m) throw new Error(`no simulated network announced:\n${output}`);
  const res = await fetch(`${m[1]}/payinvoice`, {
    method: 'POST', headers: { authorization: `Basic ${Buffer.from(`:${m[2]}`).toString('base64')}` }, body: new URLSearchParams({ invoice }),
  });
  return (await res.json()) as { paymentId?: string; reason?: string };
}
