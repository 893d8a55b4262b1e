import { createHash } from 'node:crypto';
import fs from 'node:fs';

/** sha256 (hex) of a dataset file's bytes, for the run manifest. */
export async function datasetFileHash(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}
