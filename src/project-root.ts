import fs from 'node:fs';
import path from 'node:path';

/** The repository root (the folder of verity's package.json), from source or from dist alike. */
export function projectRoot(): string {
  let dir = __dirname;
  for (;;) {
    const manifest = path.join(dir, 'package.json');
    if (fs.existsSync(manifest) && (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { name?: string }).name === 'verity') {
      return dir;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('cannot find the verity project root');
    dir = parent;
  }
}
