/** OpenAlex ships abstracts as { word: [positions] }; this puts the words back in order. */
export function abstractFromInvertedIndex(index: Record<string, readonly number[]> | null | undefined): string {
  if (!index) return '';
  const words: string[] = [];
  for (const [word, positions] of Object.entries(index)) {
    for (const position of positions) words[position] = word;
  }
  return words.filter((word) => word !== undefined).join(' ');
}
