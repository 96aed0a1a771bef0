/**
 * The layout Trove's shipped model files share (language-model.bin, code-embedding.bin): a
 * four-letter magic, a uint32 (little-endian) header length, a JSON header, then the arrays the
 * header describes, read in order with `floats` (copied: a Float32Array view needs 4-byte
 * alignment the Buffer may not have) and `int8` (a view on the file's bytes, no copy).
 */
export class ModelFile<H> {
  readonly header: H;
  private offset: number;

  constructor(
    private readonly buffer: Buffer,
    magic: string,
    what: string,
  ) {
    if (buffer.toString('latin1', 0, 4) !== magic) throw new Error(`not a Trove ${what} (bad magic)`);
    const headerLength = buffer.readUInt32LE(4);
    this.header = JSON.parse(buffer.toString('utf8', 8, 8 + headerLength)) as H;
    this.offset = 8 + headerLength;
  }

  /** Bytes not read yet. */
  get remaining(): number {
    return this.buffer.length - this.offset;
  }

  floats(n: number): Float32Array {
    const out = new Float32Array(n);
    for (let i = 0; i < n; i++) out[i] = this.buffer.readFloatLE(this.offset + 4 * i);
    this.offset += 4 * n;
    return out;
  }

  int8(n: number): Int8Array {
    const out = new Int8Array(this.buffer.buffer, this.buffer.byteOffset + this.offset, n);
    this.offset += n;
    return out;
  }
}
