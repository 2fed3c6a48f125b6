/**
 * The few protobuf wire rules an ONNX file needs, for writing only: varints, length-delimited
 * fields and 32-bit floats. Messages are built bottom-up as Buffers, so a field's length is known
 * when it is written; weight tensors are passed through as they are, never copied per byte.
 */

const WIRE_VARINT = 0;
const WIRE_LENGTH_DELIMITED = 2;
const WIRE_FIXED32 = 5;

function varint(value: number | bigint): Buffer {
  let v = BigInt.asUintN(64, BigInt(value));
  const bytes: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v !== 0n) byte |= 0x80;
    bytes.push(byte);
  } while (v !== 0n);
  return Buffer.from(bytes);
}

function key(field: number, wire: number): Buffer {
  return varint((field << 3) | wire);
}

/**
 * A message under construction: fields are appended in any order. Nested messages keep their
 * parts, so a 100 MB graph is concatenated (or streamed to a file) once, not once per level.
 */
export class Message {
  readonly parts: Buffer[] = [];
  byteLength = 0;

  private push(...buffers: readonly Buffer[]): void {
    this.pushAll(buffers);
  }

  private pushAll(buffers: readonly Buffer[]): void {
    for (const buffer of buffers) {
      this.parts.push(buffer);
      this.byteLength += buffer.byteLength;
    }
  }

  int(field: number, value: number | bigint): this {
    this.push(key(field, WIRE_VARINT), varint(value));
    return this;
  }

  float(field: number, value: number): this {
    const bytes = Buffer.alloc(4);
    bytes.writeFloatLE(value);
    this.push(key(field, WIRE_FIXED32), bytes);
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    const view = Buffer.from(value.buffer, value.byteOffset, value.byteLength);
    this.push(key(field, WIRE_LENGTH_DELIMITED), varint(view.byteLength), view);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, Buffer.from(value, 'utf8'));
  }

  message(field: number, value: Message): this {
    this.push(key(field, WIRE_LENGTH_DELIMITED), varint(value.byteLength));
    this.pushAll(value.parts);
    return this;
  }

  /** Repeated scalars, packed (proto3's default and what onnx's readers accept). */
  packedInts(field: number, values: readonly (number | bigint)[]): this {
    return this.bytes(field, Buffer.concat(values.map(varint)));
  }

  packedFloats(field: number, values: readonly number[]): this {
    return this.bytes(field, Buffer.from(Float32Array.from(values).buffer));
  }

  toBuffer(): Buffer {
    return Buffer.concat(this.parts);
  }
}
