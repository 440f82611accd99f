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

/**
 * Opens the microphone and captures it with an AudioWorklet (off the main thread, no deprecated
 * ScriptProcessor), resampling to 16 kHz for the `linear16` stream. Echo cancellation and noise
 * suppression are left on: they help speech engines in a clinic room.
 */
export async function startCapture(options: CaptureOptions): Promise<Capture> {
  if (!navigator.mediaDevices?.getUserMedia) throw new Error('This browser cannot capture audio.');
  const stream = await navigator.mediaDevices.getUserMedia({
    audio: {
      ...(options.deviceId ? { deviceId: { exact: options.deviceId } } : {}),
      channelCount: 1,
      echoCancellation: true,
      noiseSuppression: true,
    },
  });
  const context = new AudioContext({ latencyHint: 'interactive' });
  try {
    await context.audioWorklet.addModule(options.workletUrl ?? '/audio/pcm-capture-worklet.js');
    const source = context.createMediaStreamSource(stream);
    const node = new AudioWorkletNode(context, 'pcm-capture', { numberOfInputs: 1, numberOfOutputs: 0, channelCount: 1 });
    const resampler = createResampler(context.sampleRate, 16_000);
    node.port.onmessage = (event: MessageEvent<Float32Array>) => {
      options.onLevel(levelOf(event.data));
      const out = resampler.push(event.data);
      if (out.length > 0) options.onAudio(out);
    };
    source.connect(node);
    const track = stream.getAudioTracks()[0];
    return {
      sampleRate: context.sampleRate,
      deviceLabel: track?.label ?? 'Microphone',
      async stop() {
        node.port.onmessage = null;
        source.disconnect();
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
