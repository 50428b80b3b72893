// Text fields of a multipart/form-data body: the real node accepts them as well as url-encoded forms.
// Files are not parameters of any endpoint, so parts with a filename are skipped.

export function parseMultipartFields(body: Buffer, contentType: string): Record<string, string> | undefined {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!boundary) return undefined;
  const delimiter = `--${boundary[1] ?? boundary[2]}`;
  const fields: Record<string, string> = {};
  const text = body.toString('latin1');
  for (const part of text.split(delimiter).slice(1)) {
    if (part.startsWith('--')) break;
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd === -1) return undefined;
    const headers = part.slice(0, headerEnd);
    const disposition = /content-disposition:\s*form-data;([^\r\n]*)/i.exec(headers)?.[1] ?? '';
    const name = /\bname="([^"]*)"/i.exec(disposition)?.[1];
    if (name === undefined || /\bfilename=/i.test(disposition)) continue;
    const value = part.slice(headerEnd + 4).replace(/\r\n$/, '');
    fields[name] ??= Buffer.from(value, 'latin1').toString('utf8');
  }
  return fields;
}
