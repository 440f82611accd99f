/**
 * Downloads one model file over HTTP(S) with Node's fetch (undici), appending to a partial file:
 * an interrupted download asks for the rest with `Range: bytes=N-`, so a dropped connection, a
 * killed process or a cancelled pull loses nothing already on disk. Before writing it checks the
 * announced length against the free space of the target disk (fs.statfs).
 */
import { open, stat, statfs } from 'node:fs/promises';
import { dirname } from 'node:path';
import { DownloadError, type DownloadRequest, type ModelDownloader } from '../../services/models/ports.js';

/** Free space of the disk holding a path, as fs.statfs reports it. */
export type StatFs = (path: string) => Promise<{ bavail: number | bigint; bsize: number | bigint }>;

export interface HttpDownloaderOptions {
  /** fs.statfs by default; tests report a nearly full disk through it. */
  statfs?: StatFs;
  fetch?: typeof fetch;
  /** Failed attempts in a row that received nothing before giving up (the job runner tries again later). Default 3. */
  maxStalls?: number;
  /** A response that sends nothing for this long is dropped and resumed. Default 60 s. */
  idleTimeoutMs?: number;
}

/** Bytes free for an unprivileged writer on the disk holding `path`. */
export async function freeBytesAt(path: string, fsStat: StatFs = statfs as unknown as StatFs): Promise<number> {
  const s = await fsStat(path);
  return Number(s.bavail) * Number(s.bsize);
}

const sizeOf = async (path: string): Promise<number> => {
  try {
    return (await stat(path)).size;
  } catch {
    return 0;
  }
};

/** `https://host/path` without query or credentials, for messages. */
const where = (url: string): string => {
  const u = new URL(url);
  return `${u.host}${u.pathname}`;
};

/** System error codes that mean the host cannot be reached at all, with the words a user needs. */
const OFFLINE_CODES: Record<string, string> = {
  ENOTFOUND: 'cannot look up', EAI_AGAIN: 'cannot look up', ECONNREFUSED: 'connection refused by', ENETUNREACH: 'no network route to',
  EHOSTUNREACH: 'no network route to', ECONNRESET: 'connection reset by', ETIMEDOUT: 'no answer from', UND_ERR_CONNECT_TIMEOUT: 'no answer from',
};

/** A fetch failure ("fetch failed") turned into what happened, from its cause's system code. */
function unreachable(err: unknown, url: string): DownloadError {
  const cause = (err as { cause?: { code?: string } }).cause;
  const words = cause?.code ? OFFLINE_CODES[cause.code] : undefined;
  const host = new URL(url).host;
  if (words) return new DownloadError(`no connection: ${words} ${host} (${cause!.code})`, true, 'offline');
  return new DownloadError(`connection to ${where(url)} failed (${(err as Error).message})`, true);
}

export function createHttpDownloader(options: HttpDownloaderOptions = {}): ModelDownloader {
  const doFetch = options.fetch ?? fetch;
  const maxStalls = options.maxStalls ?? 3;
  const idleMs = options.idleTimeoutMs ?? 60_000;

  /** One request: appends what it receives; true when the file is complete. */
  const attempt = async (req: DownloadRequest, have: number): Promise<boolean> => {
    const idle = new AbortController();
    let timer = setTimeout(() => idle.abort(), idleMs);
    const signal = req.signal ? AbortSignal.any([req.signal, idle.signal]) : idle.signal;
    try {
      const res = await doFetch(req.url, { headers: have > 0 ? { Range: `bytes=${have}-` } : {}, signal, redirect: 'follow' });
      if (res.status === 416 && have > 0) {
        // Asked for bytes past the end: complete when the server's total is what we hold.
        const total = Number(/\/(\d+)$/.exec(res.headers.get('content-range') ?? '')?.[1]);
        await res.body?.cancel();
        if (total === have) return true;
        await truncate(req.partFile);
        return false;
      }
      if (!res.ok) {
        await res.body?.cancel();
        throw new DownloadError(`HTTP ${res.status} from ${where(req.url)}`, res.status >= 500 || res.status === 429 || res.status === 408);
      }
      let offset = have;
      if (res.status === 206) {
        const start = Number(/^bytes (\d+)-/.exec(res.headers.get('content-range') ?? '')?.[1]);
        if (start !== have) {
          await res.body?.cancel();
          await truncate(req.partFile);
          return false;
        }
      } else offset = 0; // 200: the server sent the whole file, ignoring Range
      const length = Number(res.headers.get('content-length'));
      if (Number.isFinite(length) && length > 0) {
        const free = await freeBytesAt(dirname(req.partFile), options.statfs);
        if (free < length) {
          await res.body?.cancel();
          throw new DownloadError(`not enough free disk space: ${Math.ceil(length / 1e6)} MB to write, ${Math.floor(free / 1e6)} MB free`, false, 'disk_full');
        }
      }
      // Owner-only, like every file in the data folder (issue 29: model files were world-readable).
      const file = await open(req.partFile, offset === 0 ? 'w' : 'a', 0o600);
      let written = offset;
      try {
        if (res.body) {
          for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
            clearTimeout(timer);
            timer = setTimeout(() => idle.abort(), idleMs);
            await file.write(chunk);
            written += chunk.length;
            req.onBytes?.(written);
          }
        }
        await file.sync();
      } finally {
        await file.close();
      }
      if (Number.isFinite(length) && length > 0 && written !== offset + length) return false; // short body: resume
      return true;
    } finally {
      clearTimeout(timer);
    }
  };

  const truncate = async (path: string): Promise<void> => {
    await (await open(path, 'w', 0o600)).close();
  };

  return {
    async download(req) {
      let stalls = 0;
      for (;;) {
        const before = await sizeOf(req.partFile);
        try {
          if (await attempt(req, before)) return { bytes: await sizeOf(req.partFile) };
        } catch (err) {
          if (req.signal?.aborted) throw req.signal.reason ?? err;
          if (err instanceof DownloadError && !err.retryable) throw err;
          if ((await sizeOf(req.partFile)) > before) stalls = 0; // it made progress: resume at once
          else if (++stalls >= maxStalls) {
            throw err instanceof DownloadError ? err : unreachable(err, req.url);
          }
          continue;
        }
        // Incomplete without an error (short body, mismatched range): ask again for the rest.
        if ((await sizeOf(req.partFile)) <= before && ++stalls >= maxStalls) throw new DownloadError(`${where(req.url)} keeps ending early`, true);
      }
    },
  };
}
