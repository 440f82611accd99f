/** 16-bit mono PCM WAV, the form enrollment recordings are kept in (sphinx_fe reads it; the measure decodes it back). */
export function wavFromPcm(pcm: Int16Array, sampleRate = 16000): Buffer {
  const data = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  const head = Buffer.alloc(44);
  head.write('RIFF', 0, 'latin1');
  head.writeUInt32LE(36 + data.length, 4);
  head.write('WAVEfmt ', 8, 'latin1');
  head.writeUInt32LE(16, 16);
  head.writeUInt16LE(1, 20);
  head.writeUInt16LE(1, 22);
  head.writeUInt32LE(sampleRate, 24);
  head.writeUInt32LE(sampleRate * 2, 28);
  head.writeUInt16LE(2, 32);
  head.writeUInt16LE(16, 34);
  head.write('data', 36, 'latin1');
  head.writeUInt32LE(data.length, 40);
  return Buffer.concat([head, data]);
}

/** The samples of a WAV written by {@link wavFromPcm}. */
export function pcmFromWav(wav: Buffer): Int16Array {
  const bytes = wav.subarray(44);
  const copy = new Int16Array(bytes.length >> 1);
  for (let i = 0; i < copy.length; i++) copy[i] = bytes.readInt16LE(2 * i);
  return copy;
}
