/** Audio decoding adapters: ffmpeg for files, in-process or ffmpeg streaming for live sessions. */
export { createFfmpegDecoder, type FfmpegDecoderOptions } from './ffmpeg-decoder.js';
export {
  createStreamDecoder,
  STREAM_ENCODINGS,
  type StreamDecoder,
  type StreamDecoderOptions,
} from './stream-decoder.js';
export { alawToLinear, mulawToLinear } from './pcm-codecs.js';
