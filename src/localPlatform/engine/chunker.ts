/** Words per streamed chunk by default: small enough that streaming is visible. */
export const DEFAULT_WORDS_PER_CHUNK = 3;

/**
 * Splits an answer into the pieces it is streamed in. Each piece keeps its trailing spaces, so
 * joining the pieces gives back the answer exactly. An empty answer is one empty piece.
 */
export function chunkAnswer(text: string, wordsPerChunk = DEFAULT_WORDS_PER_CHUNK): string[] {
  const tokens = text.match(/\S+\s*/g);
  if (!tokens) return [text];
  const per = Math.max(1, Math.floor(wordsPerChunk));
  const lead = text.slice(0, text.length - tokens.join('').length);
  const chunks: string[] = [];
  for (let i = 0; i < tokens.length; i += per) chunks.push(tokens.slice(i, i + per).join(''));
  chunks[0] = lead + chunks[0]!;
  return chunks;
}
