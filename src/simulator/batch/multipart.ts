/** One field of a multipart/form-data body. */
export interface FormField {
  name: string;
  filename?: string;
  value: string;
}

/** The fields of a multipart/form-data body (text parts only: the batch files are JSONL), or undefined when it is not one. */
export function parseMultipart(contentType: string | undefined, body: string): FormField[] | undefined {
  const boundary = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType ?? '');
  if (!contentType?.toLowerCase().startsWith('multipart/form-data') || !boundary) return undefined;
  const delimiter = `--${boundary[1] ?? boundary[2]}`;
  const fields: FormField[] = [];
  for (const part of body.split(delimiter).slice(1)) {
    if (part.startsWith('--')) break;
    const headerEnd = part.indexOf('\r\n\r\n');
    if (headerEnd < 0) return undefined;
    const headers = part.slice(0, headerEnd);
    const name = /name="([^"]*)"/i.exec(headers)?.[1];
    if (name === undefined) return undefined;
    const filename = /filename="([^"]*)"/i.exec(headers)?.[1];
    const value = part.slice(headerEnd + 4).replace(/\r\n$/, '');
    fields.push({ name, value, ...(filename !== undefined ? { filename } : {}) });
  }
  return fields;
}
