/**
 * A live session's one queue: everything the session still has to do, in the order the client
 * asked for it. Decoded audio waits here for the recogniser; a final (Finalize, CloseStream, a
 * server-side end) waits behind the audio decoded before it; encoded audio that arrives behind a
 * final waits here for the decoder until that final is done (with no final ahead it goes to the
 * decoder at once). So the queue always reads: decoded audio first, then finals and the encoded
 * audio behind them. One item runs at a time, so a session never has two recogniser calls in
 * flight; sessions are independent of each other, so with a stream that offers async calls
 * (pocketsphinx on libuv's thread pool) they recognise in parallel.
 *
 * A final can first wait for the decoder (`prepare`: an external decoder still holds audio it was
 * given); that wait starts once everything before the final has been handed to the decoder, runs
 * beside the recogniser, and what the decoder hands over meanwhile still goes ahead of the final.
 */
import { createSegmenter, type SegmenterDeps } from './segments.js';

export interface SessionQueueDeps extends SegmenterDeps {
  /** Hands encoded audio to the session's decoder, whose output comes back through `pushAudio`. */
  decode(bytes: Buffer): void;
  /** After each chunk: back-pressure and the session's duration limit. */
  afterChunk(): void;
  /** Recognising a chunk failed; the queue goes on with what comes next (a final, usually). */
  onFailure(err: unknown): void;
}

export interface SessionQueue {
  /** Encoded audio from the client: decoded now, or once the finals queued before it are done. */
  pushEncoded(bytes: Buffer): void;
  /** Decoded audio (16 kHz mono PCM; not to be changed afterwards): recognised before any waiting final. */
  pushAudio(pcm: Int16Array): void;
  /**
   * Ends the current segment once everything queued before has been recognised. `always`: send a
   * final even without words when audio was heard (Finalize, endpoint); otherwise only when
   * words were heard or a partial was shown. Resolves true once done, false when it was dropped
   * or the queue stopped before it ran; rejects when the recogniser or `prepare` fails.
   */
  finalize(always: boolean, prepare?: () => Promise<void>): Promise<boolean>;
  /** Forgets everything not yet running: audio, encoded audio, finals that have not started. */
  drop(): void;
  /** Stops for good: waiting finals resolve false without running, the running item finishes alone. */
  stop(): void;
  /** True while an item runs or waits. */
  readonly busy: boolean;
  /** Decoded samples waiting for the recogniser. */
  readonly queuedSamples: number;
  /** Encoded bytes waiting behind a final. */
  readonly pendingBytes: number;
  /** Samples handed to the recogniser so far. */
  readonly fedSamples: number;
  readonly partials: number;
  readonly finals: number;
}

type Outcome = { ok: true } | { ok: false; error: unknown };

interface FinalItem {
  kind: 'final';
  always: boolean;
  prepare?: () => Promise<void>;
  /** Set once the wait for the decoder has started. */
  prepared?: Promise<Outcome>;
  /** Set once the segment is being ended: no longer dropped. */
  started?: boolean;
  settle(ran: boolean): void;
  fail(err: unknown): void;
}

type Item = { kind: 'audio'; pcm: Int16Array } | { kind: 'encoded'; bytes: Buffer } | FinalItem;

/** Starts a final's wait for the decoder (once); its failure is kept for when the final's turn comes. */
function startPreparing(item: FinalItem): Promise<Outcome> {
  item.prepared ??= (item.prepare?.() ?? Promise.resolve()).then(
    (): Outcome => ({ ok: true }),
    (error: unknown): Outcome => ({ ok: false, error }),
  );
  return item.prepared;
}

/** The queue's items, kept in order: decoded audio first, then finals and the encoded audio behind them. */
function createItems() {
  let items: Item[] = [];
  const held = { samples: 0, bytes: 0 };
  /** Where decoded audio goes: after the audio already decoded, before every final. */
  const firstWaiting = (): number => {
    const i = items.findIndex((item) => item.kind !== 'audio');
    return i < 0 ? items.length : i;
  };
  return {
    held,
    get length() {
      return items.length;
    },
    head: (): Item | undefined => items[0],
    /** The first item that is not decoded audio. */
    waiting: (): Item | undefined => items[firstWaiting()],
    add(item: Item): void {
      if (item.kind === 'audio') {
        items.splice(firstWaiting(), 0, item);
        held.samples += item.pcm.length;
        return;
      }
      items.push(item);
      if (item.kind === 'encoded') held.bytes += item.bytes.length;
    },
    take(item: Item): void {
      const i = items.indexOf(item);
      if (i < 0) return;
      items.splice(i, 1);
      if (item.kind === 'audio') held.samples -= item.pcm.length;
      else if (item.kind === 'encoded') held.bytes -= item.bytes.length;
    },
    /** Takes out everything `keep` does not hold; finals taken out resolve false. */
    clear(keep: (item: Item) => boolean): void {
      const out = items.filter((item) => !keep(item));
      items = items.filter(keep);
      held.samples = 0;
      held.bytes = 0;
      for (const item of out) if (item.kind === 'final') item.settle(false);
    },
  };
}

/** Creates a session's queue. */
export function createSessionQueue(deps: SessionQueueDeps): SessionQueue {
  const segments = createSegmenter(deps);
  const items = createItems();
  let running = false;
  let stopped = false;

  /** Hands encoded audio with no final ahead of it to the decoder, and starts the next final's wait. */
  const advance = (): void => {
    for (let next = items.waiting(); next; next = items.waiting()) {
      if (next.kind === 'final') {
        void startPreparing(next);
        return;
      }
      if (next.kind !== 'encoded') return;
      items.take(next);
      deps.decode(next.bytes);
    }
  };

  const runChunk = async (pcm: Int16Array): Promise<void> => {
    try {
      await segments.recognise(pcm);
    } catch (err) {
      deps.onFailure(err);
    }
    if (!stopped) deps.afterChunk();
  };

  const runFinal = async (item: FinalItem): Promise<void> => {
    const prepared = await startPreparing(item);
    if (!prepared.ok) {
      items.take(item);
      return item.fail(prepared.error);
    }
    // Dropped meanwhile, or audio the decoder handed over meanwhile goes first.
    if (items.head() !== item) return;
    item.started = true;
    try {
      await segments.finalize(item.always);
      item.settle(true);
    } catch (err) {
      item.fail(err);
    }
    items.take(item);
    if (!stopped) advance();
  };

  const run = async (): Promise<void> => {
    if (running) return;
    running = true;
    try {
      for (let head = items.head(); head && !stopped; head = items.head()) {
        if (head.kind === 'audio') {
          items.take(head);
          await runChunk(head.pcm);
        } else if (head.kind === 'final') await runFinal(head);
        else advance();
      }
    } finally {
      running = false;
    }
  };
  const started = (item: Item): boolean => item.kind === 'final' && item.started === true;

  return {
    pushEncoded(bytes) {
      if (stopped) return;
      items.add({ kind: 'encoded', bytes });
      advance();
    },
    pushAudio(pcm) {
      if (stopped) return;
      items.add({ kind: 'audio', pcm });
      void run();
    },
    finalize(always, prepare) {
      if (stopped) return Promise.resolve(false);
      return new Promise((settle, fail) => {
        items.add({ kind: 'final', always, ...(prepare ? { prepare } : {}), settle, fail });
        advance();
        void run();
      });
    },
    drop: () => items.clear(started),
    stop() {
      stopped = true;
      segments.stop();
      // The running final (if any) finishes alone and settles itself.
      items.clear(started);
    },
    get busy() {
      return running || items.length > 0;
    },
    get queuedSamples() {
      return items.held.samples;
    },
    get pendingBytes() {
      return items.held.bytes;
    },
    get fedSamples() {
      return segments.fedSamples;
    },
    get partials() {
      return segments.partials;
    },
    get finals() {
      return segments.finals;
    },
  };
}
