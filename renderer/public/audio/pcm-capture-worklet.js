// AudioWorklet processor: copies microphone frames off the audio thread in ~43 ms blocks
// (2048 frames at 48 kHz). Resampling to 16 kHz happens on the main thread (shared/audio/
// resampler.ts, the same code the local API uses) where it is unit-tested. A separate file served from 'self', as the CSP requires.
class PcmCaptureProcessor extends AudioWorkletProcessor {
  constructor() {
    super();
    this.block = new Float32Array(2048);
    this.filled = 0;
    // 'flush' (on stop): send the unfinished block so the last words are not cut off.
    this.port.onmessage = (event) => {
      if (event.data !== 'flush') return;
      this.port.postMessage({ flushed: this.block.slice(0, this.filled) });
      this.filled = 0;
    };
  }
  process(inputs) {
    const channels = inputs[0];
    if (channels && channels.length > 0) {
      const frames = channels[0].length;
      for (let i = 0; i < frames; i++) {
        let s = 0;
        for (let c = 0; c < channels.length; c++) s += channels[c][i];
        this.block[this.filled++] = s / channels.length;
        if (this.filled === this.block.length) {
          this.port.postMessage(this.block, [this.block.buffer]);
          this.block = new Float32Array(2048);
          this.filled = 0;
        }
      }
    }
    return true;
  }
}
registerProcessor('pcm-capture', PcmCaptureProcessor);
