/**
 * 1-bit sign codes for vectors and a Hamming-distance scan over them, for the `binary-rescore`
 * vector index (see `OpenIndexOptions.vectorIndex`). Pure: the store reads and writes the codes.
 */

/** 32-bit words needed for a code of `dimensions` bits. */
export function codeWords(dimensions: number): number {
  return Math.ceil(dimensions / 32);
}

/** Bit d is set when component d is positive (sqlite-vec's `vec_quantize_binary` rule). */
export function signCode(vector: Float32Array): Int32Array {
  const code = new Int32Array(codeWords(vector.length));
  for (let index = 0; index < vector.length; index++) if (vector[index]! > 0) code[index >> 5]! |= 1 << (index & 31);
  return code;
}

/** A code as a BLOB (little-endian words) and back. */
export function codeToBlob(code: Int32Array): Buffer {
  return Buffer.from(code.buffer, code.byteOffset, code.byteLength);
}

/** Every stored code in one flat array, scanned without allocation per row. */
export class HammingIndex {
  readonly words: number;
  private rowids: Float64Array;
  private codes: Int32Array;
  private size = 0;

  constructor(dimensions: number, capacity = 1024) {
    this.words = codeWords(dimensions);
    this.rowids = new Float64Array(Math.max(1, capacity));
    this.codes = new Int32Array(Math.max(1, capacity) * this.words);
  }

  get count(): number {
    return this.size;
  }

  add(rowid: number, blob: Uint8Array): void {
    if (blob.byteLength !== this.words * 4) throw new Error(`code for row ${rowid} has ${blob.byteLength} bytes; expected ${this.words * 4}`);
    if (this.size === this.rowids.length) this.grow();
    this.rowids[this.size] = rowid;
    const view = new Int32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength));
    this.codes.set(view, this.size * this.words);
    this.size += 1;
  }

  /**
   * Row ids of the `count` codes nearest to `query` by Hamming distance (ties broken by storage
   * order). One pass computes every distance and a histogram of them; a second pass keeps the rows
   * under the cut-off, so the cost is O(rows) whatever `count` is.
   */
  nearest(query: Int32Array, count: number): number[] {
    const rows = this.size;
    const words = this.words;
    const wanted = Math.min(count, rows);
    if (wanted <= 0) return [];
    const distances = new Uint16Array(rows);
    const histogram = new Uint32Array(words * 32 + 1);
    const codes = this.codes;
    for (let row = 0; row < rows; row++) {
      let distance = 0;
      const offset = row * words;
      for (let word = 0; word < words; word++) {
        let bits = codes[offset + word]! ^ query[word]!;
        bits -= (bits >>> 1) & 0x55555555;
        bits = (bits & 0x33333333) + ((bits >>> 2) & 0x33333333);
        distance += (Math.imul((bits + (bits >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24);
      }
      distances[row] = distance;
      histogram[distance]! += 1;
    }
    let cutoff = 0;
    let below = 0;
    while (below + histogram[cutoff]! < wanted) below += histogram[cutoff++]!;
    let ties = wanted - below;
    const result: number[] = [];
    for (let row = 0; row < rows; row++) {
      const distance = distances[row]!;
      if (distance < cutoff) result.push(this.rowids[row]!);
      else if (distance === cutoff && ties > 0) {
        result.push(this.rowids[row]!);
        ties -= 1;
      }
    }
    return result;
  }

  private grow(): void {
    const rowids = new Float64Array(this.rowids.length * 2);
    rowids.set(this.rowids);
    const codes = new Int32Array(rowids.length * this.words);
    codes.set(this.codes);
    this.rowids = rowids;
    this.codes = codes;
  }
}
