import { type SseMessage, SseParser } from '../../src/runs/sse/sse-parser.js';

/**
 * Reads SSE messages from `url` until `enough` says stop or the stream ends, then drops the
 * connection (as a viewer that leaves does). A response other than 200 is returned with no messages.
 */
export async function readSse(
  url: string,
  headers: Record<string, string> = {},
  enough: (messages: SseMessage[]) => boolean = () => false,
): Promise<{ status: number; messages: SseMessage[] }> {
  const controller = new AbortController();
  const response = await fetch(url, { headers, signal: controller.signal });
  const messages: SseMessage[] = [];
  if (response.status !== 200 || response.body === null) return { status: response.status, messages };
  const parser = new SseParser();
  const decoder = new TextDecoder();
  const reader = response.body.getReader();
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      messages.push(...parser.push(decoder.decode(read.value, { stream: true })));
      if (enough(messages)) break;
    }
  } catch {}
  controller.abort();
  return { status: response.status, messages };
}
