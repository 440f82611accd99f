/**
 * Debian's en-us acoustic model ships its mixture weights only as `sendump` (8-bit, -log base
 * 1.0001 shifted by `mixw_shift`, laid out feature × density × senone), which pocketsphinx reads;
 * sphinxtrain's `bw` and `map_adapt` read the float `mixture_weights` file (senone × feature ×
 * density) instead. This rebuilds the latter from the former, as sphinxtrain's own sendump.py does.
 */

/** The float mixture weights (Sphinx-III `s3` binary file) rebuilt from a `sendump` file. */
export function sendumpToMixtureWeights(sendump: Buffer): Buffer {
  let offset = 0;
  const int32 = (): number => {
    const value = sendump.readInt32LE(offset);
    offset += 4;
    return value;
  };
  // Header: length-prefixed strings until a zero length; the first is a title.
  const text = (): string | undefined => {
    const length = int32();
    if (length === 0) return undefined;
    if (length < 0 || length > 65_536) throw new Error('sendump: not a little-endian sendump file');
    const value = sendump.toString('latin1', offset, offset + length - 1);
    offset += length;
    return value;
  };
  text();
  const header = new Map<string, number>();
  for (let line = text(); line !== undefined; line = text()) {
    const [key, value] = line.split(' ');
    if (key && value !== undefined && /^\d+$/.test(value)) header.set(key, Number(value));
  }
  if (header.get('cluster_count')) throw new Error('sendump: clustered (compressed) weights are not supported');
  const features = header.get('feature_count') ?? 1;
  const shift = header.get('mixw_shift') ?? 10;
  const densities = int32();
  const senones = int32();
  if (sendump.length - offset < features * densities * senones) throw new Error('sendump: file is shorter than its header says');
  const weights = new Float32Array(senones * features * densities);
  for (let f = 0; f < features; f++) {
    for (let d = 0; d < densities; d++) {
      const row = offset + (f * densities + d) * senones;
      for (let s = 0; s < senones; s++) weights[(s * features + f) * densities + d] = Math.pow(1.0001, -(sendump[row + s]! << shift));
    }
  }
  return s3File([senones, features, densities], weights);
}

/** A Sphinx-III binary parameter file: text header, byte-order magic, dimensions, floats (4-byte aligned). */
export function s3File(dims: number[], values: Float32Array): Buffer {
  let header = 's3\nversion 1.0\n';
  const misalignment = (header.length + 'endhdr\n'.length) & 3;
  header += `${' '.repeat(misalignment ? 4 - misalignment : 0)}endhdr\n`;
  const head = Buffer.alloc(header.length + 4 * (dims.length + 2));
  head.write(header, 'latin1');
  let at = head.writeInt32LE(0x11223344, header.length);
  for (const d of dims) at = head.writeUInt32LE(d, at);
  head.writeUInt32LE(values.length, at);
  return Buffer.concat([head, Buffer.from(values.buffer, values.byteOffset, values.byteLength)]);
}
