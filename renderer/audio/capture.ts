import { createResampler } from '../../shared/audio/resampler.js';
import { levelOf } from './pcm.js';

export interface Microphone { deviceId: string; label: string }

export interface CaptureOptions {
  deviceId?: string;
  /** 16 kHz mono samples, in order, as they are captured. */
  onAudio(samples: Float32Array): void;
  /** Microphone level 0..1 for the meter. */
  onLevel(level: number): void;
  /** URL of the AudioWorklet module; a file served from 'self' (the CSP forbids blob: scripts). */
  workletUrl?: string;
  /**
   * The browser's echo cancellation, noise suppression and automatic gain control. Off unless
   * asked: they are tuned for calls, clip word onsets and pump the level of dictated speech.
   */
  processing?: boolean;
}

export interface Capture {
  /** The microphone's own sample rate (before resampling). */
  sampleRate: number;
  deviceLabel: string;
  stop(): Promise<void>;
}

/** The audio inputs the browser reports (labels appear once microphone access was granted). */
export async function listMicrophones(): Promise<Microphone[]> {
  if (!navigator.mediaDevices?.enumerateDevices) return [];
  const devices = await navigator.mediaDevices.enumerateDevices();
  return devices
    .filter((d) => d.kind === 'audioinput')
    .map((d, i) => ({ deviceId: d.deviceId, label: d.label || `Microphone ${i + 1}` }));
}

/** The getUserMedia audio constraints for a device and a processing choice. */
export function audioConstraints(deviceId: string | undefined, processing: boolean): MediaTrackConstraints {
  return {
    ...(deviceId ? { deviceId: { exact: deviceId } } : {}),
    channelCount: 1,
    echoCancellation: processing,
    noiseSuppression: processing,
    autoGainControl: processing,
  };
}

/** How long stop() waits for the worklet's last partial block. */
const FLUSH_WAIT_MS = 250;

/**
 * Opens the microphone and captures it with an AudioWorklet (off the main thread, no deprecated
 * ScriptProcessor), resampling to 16 kHz for the `linear16` stream. The browser's call
 * processing is off unless `processing` asks for it. Stopping sends the last samples: the
 * worklet's unfinished block and the resampler's tail.
 */
export async function startCapture(options: CaptureOptions): Promise<Capture> {
  if (!navigator.mediaDevices?.getUserMedia) throw new Error('This browser cannot capture audio.');
  const stream = await navigator.mediaDevices.getUserMedia({ audio: audioConstraints(options.deviceId, options.processing ?? false) });
  const context = new AudioContext({ latencyHint: 'interactive' });
  try {
    await context.audioWorklet.addModule(options.workletUrl ?? '/audio/pcm-capture-worklet.js');
    const source = context.createMediaStreamSource(stream);
    const node = new AudioWorkletNode(context, 'pcm-capture', { numberOfInputs: 1, numberOfOutputs: 0, channelCount: 1 });
    const resampler = createResampler(context.sampleRate, 16_000);
    let flushed: (() => void) | undefined;
    node.port.onmessage = (event: MessageEvent<Float32Array | { flushed: Float32Array }>) => {
      const last = !(event.data instanceof Float32Array);
      const samples = event.data instanceof Float32Array ? event.data : event.data.flushed;
      if (!last) options.onLevel(levelOf(samples));
      const out = resampler.push(samples);
      if (out.length > 0) options.onAudio(out);
      if (last) flushed?.();
    };
    source.connect(node);
    const track = stream.getAudioTracks()[0];
    return {
      sampleRate: context.sampleRate,
      deviceLabel: track?.label ?? 'Microphone',
      async stop() {
        source.disconnect();
        // The worklet posts whole blocks; ask for the unfinished one, then the resampler's tail.
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, FLUSH_WAIT_MS);
          flushed = () => { clearTimeout(timer); resolve(); };
          node.port.postMessage('flush');
        });
        node.port.onmessage = null;
        const tail = resampler.flush();
        if (tail.length > 0) options.onAudio(tail);
        node.disconnect();
        stream.getTracks().forEach((t) => t.stop());
        await context.close();
      },
    };
  } catch (err) {
    stream.getTracks().forEach((t) => t.stop());
    await context.close().catch(() => undefined);
    throw err;
  }
}
