/**
 * An ONNX external-data file written while its graph is built: each large initializer goes to
 * disk when it is added and is not kept, so a block of any size costs the memory of one tensor.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';

// Weights start at page boundaries, so onnxruntime can map them rather than copy them.
const PAGE = 4096;

export class ExternalWeights {
  private readonly fd: number;
  private length = 0;

  /** Creates `location` in `directory`; the graph names it by `location`, relative to itself. */
  constructor(
    directory: string,
    readonly location: string,
  ) {
    this.fd = openSync(join(directory, location), 'w');
  }

  /** Writes `data` at the next page boundary and answers its offset. */
  append(data: Uint8Array): number {
    const offset = Math.ceil(this.length / PAGE) * PAGE;
    if (offset > this.length) this.writeAt(new Uint8Array(offset - this.length), this.length);
    this.writeAt(data, offset);
    this.length = offset + data.byteLength;
    return offset;
  }

  close(): void {
    closeSync(this.fd);
  }

  private writeAt(data: Uint8Array, position: number): void {
    for (let written = 0; written < data.byteLength;) {
      written += writeSync(this.fd, data, written, data.byteLength - written, position + written);
    }
  }
}
