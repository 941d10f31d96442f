export interface JsonResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

/**
 * A plain HTTP call from a test to a platform's API (the local platform's families, or a test's own server):
 * status, headers and the parsed body (or the text when it is not JSON).
 */
export async function call<T = unknown>(
  method: string,
  url: string,
  opts: { headers?: Record<string, string>; body?: unknown; rawBody?: string } = {},
): Promise<JsonResponse<T>> {
  const headers: Record<string, string> = {
    ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
    ...opts.headers,
  };
  const res = await fetch(url, {
    method,
    headers,
    body: opts.rawBody ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    // not JSON: keep the text
  }
  return { status: res.status, headers: res.headers, body: body as T };
}
