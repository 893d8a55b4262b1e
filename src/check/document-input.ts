/** The largest document `verity check` accepts (UTF-8 bytes). */
export const MAX_DOCUMENT_BYTES = 200 * 1024;

export class DocumentInputError extends Error {
  override name = 'DocumentInputError';
}

/** The error of a document over the limit; `size` is a lower bound when the rest was not read (standard input). */
export function documentTooLarge(source: string, size: number, maxBytes = MAX_DOCUMENT_BYTES, sizeIsLowerBound = false): DocumentInputError {
  const has = `${sizeIsLowerBound ? 'more than ' : ''}${(sizeIsLowerBound ? maxBytes : size).toLocaleString('en-US')} bytes`;
  return new DocumentInputError(`${source} has ${has}; at most ${maxBytes.toLocaleString('en-US')} (${Math.round(maxBytes / 1024)} KB) are accepted: split the text`);
}

/**
 * The text of a document given as bytes, or a DocumentInputError with one line saying what is
 * wrong: too large, binary (a NUL byte), not UTF-8, or empty. A UTF-8 byte-order mark is dropped;
 * line endings are normalised to \n (spans are offsets into the normalised text).
 */
export function documentText(bytes: Uint8Array, source: string, maxBytes = MAX_DOCUMENT_BYTES): string {
  if (bytes.length > maxBytes) throw documentTooLarge(source, bytes.length, maxBytes);
  const nul = bytes.indexOf(0);
  if (nul !== -1) throw new DocumentInputError(`${source} looks binary (a NUL byte at offset ${nul}); give a UTF-8 text file`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new DocumentInputError(`${source} is not valid UTF-8 (first bad byte at offset ${firstInvalidUtf8Offset(bytes)}); convert it to UTF-8 first`);
  }
  text = text.replace(/\r\n?/g, '\n');
  if (text.trim() === '') throw new DocumentInputError(`${source} is empty: there is no text to check`);
  return text;
}

function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  // The longest prefix a streaming decoder accepts (it holds back a character cut at the end).
  const accepts = (length: number) => {
    try {
      new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, length), { stream: true });
      return true;
    } catch {
      return false;
    }
  };
  let low = 0;
  let high = bytes.length;
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (accepts(mid)) low = mid;
    else high = mid - 1;
  }
  return startOfCutCharacter(bytes, low);
}

/** A character the accepted prefix ends inside (its lead byte held back) starts the bad sequence. */
function startOfCutCharacter(bytes: Uint8Array, end: number): number {
  let lead = end;
  while (lead > 0 && end - lead < 3 && (bytes[lead - 1]! & 0xc0) === 0x80) lead -= 1;
  const byte = lead > 0 ? bytes[lead - 1]! : 0;
  const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
  return length > 1 && end - (lead - 1) < length ? lead - 1 : end;
}
