import fs from 'node:fs';

/**
 * Why `file` cannot be read as an input file, or undefined: a missing path, a directory and a
 * device or pipe (/dev/zero never ends) are each said as they are, not as "not found".
 */
export function inputFileProblem(file: string): string | undefined {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (!stat) return `${file} does not exist`;
  if (stat.isDirectory()) return `${file} is a directory, not a file`;
  if (!stat.isFile()) return `${file} is not a regular file`;
  return undefined;
}
