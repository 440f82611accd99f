/**
 * Microphone capture: the constraints asked of the browser (no call processing unless the
 * physician turns it on) and the worklet handing over its unfinished block when capture stops,
 * so the last words reach the recogniser.
 */
import { describe, it, expect } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { audioConstraints, type CaptureOptions } from '../../renderer/audio/capture.js';
import { createDictationStore } from '../../renderer/state/dictation-store.js';

describe('microphone constraints', () => {
  it('asks for the raw microphone unless processing is turned on', () => {
    expect(audioConstraints(undefined, false)).toEqual({ channelCount: 1, echoCancellation: false, noiseSuppression: false, autoGainControl: false });
    expect(audioConstraints('usb-1', true)).toEqual({ deviceId: { exact: 'usb-1' }, channelCount: 1, echoCancellation: true, noiseSuppression: true, autoGainControl: true });
  });

  it('dictation opens the microphone with the Settings choice', async () => {
    const asked: CaptureOptions[] = [];
    const store = createDictationStore({
      client: () => ({ streamUrl: async () => 'ws://127.0.0.1:9/' }) as never,
      listMicrophones: async () => [],
      now: () => 0,
      startCapture: async (o) => {
        asked.push(o);
        return { sampleRate: 48_000, deviceLabel: 'test', stop: async () => undefined };
      },
      createStream: () => ({ start: () => undefined, sendAudio: () => undefined, stop: async () => undefined, state: () => 'open' }),
    });
    await store.getState().start();
    await store.getState().stop();
    store.getState().setMicProcessing(true);
    await store.getState().start();
    await store.getState().stop();
    expect(asked.map((o) => o.processing)).toEqual([false, true]);
  });
});

describe('capture worklet', () => {
  it('posts whole blocks while capturing and its unfinished block when asked to flush', async () => {
    type Processor = { port: MessagePort; process(inputs: Float32Array[][]): boolean };
    let Registered: (new () => Processor) | undefined;
    const channel = new MessageChannel();
    const g = globalThis as Record<string, unknown>;
    g.AudioWorkletProcessor = class { port = channel.port1; };
    g.registerProcessor = (_name: string, ctor: new () => Processor) => { Registered = ctor; };
    const source = readFileSync(join(import.meta.dirname, '..', '..', 'renderer', 'public', 'audio', 'pcm-capture-worklet.js'), 'utf8');
    new Function(source)();
    const proc = new Registered!();
    const got: unknown[] = [];
    const arrived = (n: number) => new Promise<void>((resolve) => {
      channel.port2.onmessage = (e) => { got.push(e.data); if (got.length === n) resolve(); };
    });
    const frames = (n: number, v: number) => [[new Float32Array(n).fill(v)]];
    const whole = arrived(1);
    for (let i = 0; i < 16; i++) proc.process(frames(128, 0.5)); // 2048 frames: one whole block
    await whole;
    proc.process(frames(128, 0.25)); // 128 frames left over
    const last = arrived(2);
    channel.port2.postMessage('flush');
    await last;
    channel.port1.close();
    channel.port2.close();
    expect((got[0] as Float32Array).length).toBe(2048);
    const flushed = (got[1] as { flushed: Float32Array }).flushed;
    expect(flushed.length).toBe(128);
    expect(flushed[127]).toBe(0.25);
    delete g.AudioWorkletProcessor;
    delete g.registerProcessor;
  });
});
