/**
 * Server-sent events reader for OpenAI-compatible streaming answers (`stream: true`).
 * Yields the `data:` payload of each event; comments and other fields are ignored.
 */

/**
 * Reads a fetch body as server-sent events and yields each event's data (multi-line data joined).
 * @param body the response body stream
 */
export async function* readSseData(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  let data: string[] = [];
  const reader = body.getReader();
  try {
    for (;;) {
      const { value, done } = await reader.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      // Events end at a blank line; lines may end in \n, \r\n or \r.
      let newline: RegExpExecArray | null;
      const lineEnd = /\r\n|\r|\n/g;
      let consumed = 0;
      while ((newline = lineEnd.exec(buffer)) !== null) {
        // A lone \r at the very end may be the first half of \r\n: wait for more bytes.
        if (newline[0] === '\r' && newline.index === buffer.length - 1 && !done) break;
        const line = buffer.slice(consumed, newline.index);
        consumed = newline.index + newline[0].length;
        if (line === '') {
          if (data.length > 0) yield data.join('\n');
          data = [];
        } else if (line.startsWith('data:')) {
          data.push(line.slice(line.startsWith('data: ') ? 6 : 5));
        }
      }
      buffer = buffer.slice(consumed);
      if (done) {
        if (buffer.startsWith('data:')) data.push(buffer.slice(buffer.startsWith('data: ') ? 6 : 5));
        if (data.length > 0) yield data.join('\n');
        return;
      }
    }
  } finally {
    reader.releaseLock();
  }
}
