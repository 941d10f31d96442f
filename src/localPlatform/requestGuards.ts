/**
 * True when the path of a request line has a `.` or `..` segment, written plainly or percent-encoded
 * (`%2e%2e`). The URL parser would resolve them, so they are checked on the raw request line.
 */
export function hasDotSegment(rawUrl: string | undefined): boolean {
  const path = (rawUrl ?? '/').split(/[?#]/, 1)[0]!;
  return path.split('/').some((seg) => /^(?:\.|%2e){1,2}$/i.test(seg));
}
