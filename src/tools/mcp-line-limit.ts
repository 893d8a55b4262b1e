import { Transform, type TransformCallback } from 'node:stream';

/**
 * Passes stdin to the MCP stdio transport one whole line at a time and drops a line longer than
 * `maxBytes` (the transport's buffer limit), calling `onDropped` so the client gets an error
 * reply. Without it the transport clears its buffer mid-line, fails on the rest of that line and
 * loses the request after it, answering neither.
 */
export function lineLimit(maxBytes: number, onDropped: (bytes: number) => void): Transform {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  let dropping = false;
  const take = (piece: Buffer) => {
    if (dropping || pendingBytes + piece.length > maxBytes) {
      dropping = true;
      pendingBytes += piece.length;
      pending = [];
      return;
    }
    pending.push(piece);
    pendingBytes += piece.length;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      let start = 0;
      for (let newline = chunk.indexOf(10); newline !== -1; newline = chunk.indexOf(10, start)) {
        take(chunk.subarray(start, newline + 1));
        if (dropping) onDropped(pendingBytes);
        else this.push(Buffer.concat(pending));
        pending = [];
        pendingBytes = 0;
        dropping = false;
        start = newline + 1;
      }
      if (start < chunk.length) take(chunk.subarray(start));
      callback();
    },
  });
}
