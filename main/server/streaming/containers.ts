/**
 * Recognises container audio from its first bytes. ffmpeg, when it cannot identify a stream,
 * waits for more input until the stream ends, so junk sent without `encoding` would be
 * silently swallowed; checking the head first turns it into an immediate `error` message.
 */

/** The container of a stream's first chunk, or null when it is none that the socket takes. */
export function sniffContainer(head: Buffer): string | null {
  const ascii = (at: number, s: string): boolean => head.length >= at + s.length && head.toString('latin1', at, at + s.length) === s;
  if (ascii(0, 'RIFF') && (head.length < 12 || ascii(8, 'WAVE'))) return 'wav';
  if (ascii(0, 'RF64') || ascii(0, 'BW64')) return 'wav';
  if (ascii(0, 'OggS')) return 'ogg';
  if (ascii(0, 'fLaC')) return 'flac';
  if (ascii(0, '#!AMR')) return 'amr';
  if (ascii(0, 'ID3')) return 'mp3';
  if (ascii(0, '.snd')) return 'au';
  if (ascii(0, 'FORM') && (ascii(8, 'AIFF') || ascii(8, 'AIFC'))) return 'aiff';
  if (ascii(4, 'ftyp')) return 'mp4';
  if (head.length >= 4 && head.readUInt32BE(0) === 0x1a45dfa3) return 'webm';
  // MPEG audio frame sync (MP3) or ADTS (AAC): 11 / 12 set bits.
  if (head.length >= 2 && head[0] === 0xff && (head[1]! & 0xe0) === 0xe0) return (head[1]! & 0xf6) === 0xf0 ? 'aac' : 'mp3';
  return null;
}
