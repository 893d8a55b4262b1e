import fs from 'node:fs';

/** Limits of the files a user names, read whole into memory. */
export const MiB = 1024 * 1024;
/** Config files, sweep configs, price tables, CA certificates: hand-written, a few KB. */
export const MAX_SETTINGS_FILE_BYTES = 4 * MiB;
/** Data read whole (ToE episodes, policy weights, memory exports, JSON-array datasets). */
export const MAX_DATA_FILE_BYTES = 512 * MiB;

export class InputFileError extends Error {
  override name = 'InputFileError';
}

function sizeText(bytes: number): string {
  return bytes >= MiB ? `${(bytes / MiB).toFixed(bytes % MiB === 0 ? 0 : 1)} MiB` : `${bytes} bytes`;
}

function statProblem(file: string, stat: fs.Stats | undefined, maxBytes: number): string | undefined {
  if (!stat) return `${file} does not exist`;
  if (stat.isDirectory()) return `${file} is a directory, not a file`;
  if (!stat.isFile()) return `${file} is not a regular file (a device, pipe or socket is never read)`;
  if (stat.size > maxBytes) return `${file} has ${sizeText(stat.size)}; at most ${sizeText(maxBytes)} are read`;
  return undefined;
}

/**
 * Why `file` cannot be read as an input file, or undefined: a missing path, a directory, a device
 * or pipe (/dev/zero never ends) and a file over `maxBytes` are each said as they are.
 */
export function inputFileProblem(file: string, maxBytes = Infinity): string | undefined {
  return statProblem(file, fs.statSync(file, { throwIfNoEntry: false }), maxBytes);
}

/**
 * The bytes of a file a user named, read only when it is a regular file of at most `maxBytes`
 * (checked on the opened file, and the read stops there whatever it grows to). Throws
 * InputFileError with one line naming the file and the limit.
 */
export function readInputFile(file: string, maxBytes: number): Buffer {
  let fd: number;
  try {
    // O_NONBLOCK: opening a FIFO without a writer would otherwise wait for ever.
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new InputFileError(code === 'ENOENT' ? `${file} does not exist` : `cannot open ${file} (${code ?? (err as Error).message})`);
  }
  try {
    const problem = statProblem(file, fs.fstatSync(fd), maxBytes);
    if (problem) throw new InputFileError(problem);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.alloc(Math.min(MiB, maxBytes + 1 - total));
      const read = fs.readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      total += read;
      if (total > maxBytes) throw new InputFileError(`${file} has more than ${sizeText(maxBytes)}; at most ${sizeText(maxBytes)} are read`);
    }
    return Buffer.concat(chunks, total);
  } finally {
    fs.closeSync(fd);
  }
}

/** readInputFile as UTF-8 text. */
export function readInputText(file: string, maxBytes: number): string {
  return readInputFile(file, maxBytes).toString('utf8');
}
