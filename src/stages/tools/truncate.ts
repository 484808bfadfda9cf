/**
 * A reply fitted to a byte limit: cut at the last whole line that fits (within a line only when
 * not even one fits, and then never inside a UTF-8 character), with a closing marker that says
 * how much was shown and what to ask for instead. The marker is inside the limit.
 */
export function fitToBytes(
  content: string,
  limit: number,
  narrower: string,
): { content: string; truncated: boolean } {
  const bytes = Buffer.from(content, 'utf8');
  if (bytes.length <= limit) return { content, truncated: false };
  const marker = (shown: number): string =>
    `[… truncated: showed ${shown} of ${bytes.length} bytes; ${narrower}]`;
  // The marker's length with the total in both places bounds it for any shown count.
  const budget = limit - Buffer.byteLength(marker(bytes.length)) - 1;
  if (budget <= 0) return { content: prefix(Buffer.from(marker(0)), limit), truncated: true };
  const newline = bytes.subarray(0, budget + 1).lastIndexOf(0x0a);
  const kept = newline >= 0 ? newline : charBoundary(bytes, budget);
  const head = bytes.subarray(0, kept).toString('utf8');
  return { content: `${head}\n${marker(kept)}`, truncated: true };
}

/** The largest cut at or below `at` that starts no UTF-8 continuation byte. */
function charBoundary(bytes: Buffer, at: number): number {
  let cut = Math.min(at, bytes.length);
  while (cut > 0 && (bytes[cut]! & 0xc0) === 0x80) cut--;
  return cut;
}

function prefix(bytes: Buffer, limit: number): string {
  return bytes.subarray(0, charBoundary(bytes, limit)).toString('utf8');
}
