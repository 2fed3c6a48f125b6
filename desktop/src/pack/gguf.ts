/**
 * Reads GGUF (versions 2 and 3): the metadata and the tensor table, not the weights, which
 * `readTensorBytes` reads one tensor at a time. The file is outside input: every count, length
 * and offset is checked against the file's size before it is trusted.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { blockElements, isSupportedType, SUPPORTED_TYPES, tensorBytes, typeName, type GgmlType } from './quant';

export type GgufValue = number | bigint | boolean | string | GgufValue[];

export interface GgufTensorInfo {
  name: string;
  /** ggml order: dims[0] varies fastest (a row's length). */
  dims: number[];
  type: GgmlType;
  /** Absolute offset in the file. */
  offset: number;
  byteLength: number;
}

export interface GgufFile {
  path: string;
  version: number;
  alignment: number;
  dataOffset: number;
  metadata: Map<string, GgufValue>;
  tensors: Map<string, GgufTensorInfo>;
  /** Where tensor bytes come from when not from `path` at their offsets: a Hugging Face folder, converted as read. */
  readTensor?: (info: GgufTensorInfo) => Buffer;
}

const MAGIC = 0x46554747; // "GGUF" read little-endian
const MAX_TENSORS = 100_000;
const MAX_METADATA = 100_000;

/** A forward-only reader over the file that pulls more bytes as the header needs them. */
class Cursor {
  private buffer = Buffer.alloc(0);
  private start = 0; // file offset of buffer[0]
  position = 0;

  constructor(
    private readonly fd: number,
    readonly size: number,
    private readonly path: string,
  ) {}

  fail(what: string): never {
    throw new Error(`${this.path} is not a valid GGUF file: ${what} (at byte ${this.position})`);
  }

  private ensure(bytes: number): number {
    if (this.position + bytes > this.size) this.fail('it ends too soon');
    const end = this.position + bytes;
    if (end > this.start + this.buffer.length) {
      const from = this.position;
      const length = Math.min(this.size - from, Math.max(bytes, 1 << 20));
      const next = Buffer.alloc(length);
      let read = 0;
      while (read < length) read += readSync(this.fd, next, read, length - read, from + read);
      this.buffer = next;
      this.start = from;
    }
    const at = this.position - this.start;
    this.position = end;
    return at;
  }

  /** Reads after `ensure`, which may replace the buffer. */
  private take<T>(bytes: number, read: (at: number) => T): T {
    const at = this.ensure(bytes);
    return read(at);
  }

  u8 = () => this.take(1, (at) => this.buffer.readUInt8(at));
  i8 = () => this.take(1, (at) => this.buffer.readInt8(at));
  u16 = () => this.take(2, (at) => this.buffer.readUInt16LE(at));
  i16 = () => this.take(2, (at) => this.buffer.readInt16LE(at));
  u32 = () => this.take(4, (at) => this.buffer.readUInt32LE(at));
  i32 = () => this.take(4, (at) => this.buffer.readInt32LE(at));
  f32 = () => this.take(4, (at) => this.buffer.readFloatLE(at));
  f64 = () => this.take(8, (at) => this.buffer.readDoubleLE(at));
  u64 = () => this.take(8, (at) => this.buffer.readBigUInt64LE(at));
  i64 = () => this.take(8, (at) => this.buffer.readBigInt64LE(at));

  /** A u64 that must fit a JS number and stay under `limit`. */
  count(what: string, limit: number): number {
    const value = this.u64();
    if (value > BigInt(limit)) this.fail(`${what} ${value} is more than ${limit}`);
    return Number(value);
  }

  string(): string {
    const length = this.count('a string length', this.size - this.position);
    const at = this.ensure(length);
    return this.buffer.toString('utf8', at, at + length);
  }
}

function readValue(cursor: Cursor, type: number): GgufValue {
  switch (type) {
    case 0:
      return cursor.u8();
    case 1:
      return cursor.i8();
    case 2:
      return cursor.u16();
    case 3:
      return cursor.i16();
    case 4:
      return cursor.u32();
    case 5:
      return cursor.i32();
    case 6:
      return cursor.f32();
    case 7: {
      const byte = cursor.u8();
      if (byte > 1) cursor.fail(`a boolean holds ${byte}`);
      return byte === 1;
    }
    case 8:
      return cursor.string();
    case 9: {
      const itemType = cursor.u32();
      // Every element takes at least one byte, so a count beyond the bytes left is a lie.
      const length = cursor.count('an array length', cursor.size - cursor.position);
      const items: GgufValue[] = new Array<GgufValue>(length);
      for (let i = 0; i < length; i++) items[i] = readValue(cursor, itemType);
      return items;
    }
    case 10:
      return cursor.u64();
    case 11:
      return cursor.i64();
    case 12:
      return cursor.f64();
    default:
      return cursor.fail(`unknown metadata value type ${type}`);
  }
}

export async function readGguf(path: string): Promise<GgufFile> {
  const fd = openSync(path, 'r');
  try {
    const cursor = new Cursor(fd, fstatSync(fd).size, path);
    if (cursor.u32() !== MAGIC) cursor.fail('it does not start with GGUF');
    const version = cursor.u32();
    if (version !== 2 && version !== 3) cursor.fail(`version ${version} is not 2 or 3`);
    const tensorCount = cursor.count('the tensor count', MAX_TENSORS);
    const metadataCount = cursor.count('the metadata count', MAX_METADATA);
    const metadata = new Map<string, GgufValue>();
    for (let i = 0; i < metadataCount; i++) {
      const key = cursor.string();
      if (metadata.has(key)) cursor.fail(`the key ${key} appears twice`);
      metadata.set(key, readValue(cursor, cursor.u32()));
    }
    const alignment = metadata.get('general.alignment') ?? 32;
    if (typeof alignment !== 'number' || alignment < 1 || (alignment & (alignment - 1)) !== 0) {
      return cursor.fail('general.alignment is not a power of two');
    }

    const infos: Omit<GgufTensorInfo, 'offset'>[] = [];
    const relative: number[] = [];
    for (let i = 0; i < tensorCount; i++) {
      const name = cursor.string();
      const rank = cursor.u32();
      if (rank < 1 || rank > 4) cursor.fail(`tensor ${name} has ${rank} dimensions`);
      const dims = Array.from({ length: rank }, () => cursor.count(`a dimension of ${name}`, cursor.size * 2));
      const type = cursor.u32();
      // Refused here, before anything is packed or written.
      if (!isSupportedType(type))
        throw new Error(`${path}: tensor ${name} is ${typeName(type)}, a type Meshwork does not read (it reads ${SUPPORTED_TYPES})`);
      const elements = dims.reduce((a, b) => a * b, 1);
      if (elements < 1 || !Number.isSafeInteger(elements)) cursor.fail(`tensor ${name} has dimensions [${dims.join(', ')}]`);
      if (dims[0]! % blockElements(type) !== 0)
        cursor.fail(`tensor ${name}'s rows of ${dims[0]} do not fill whole ${typeName(type)} blocks of ${blockElements(type)}`);
      let byteLength = 0;
      try {
        byteLength = tensorBytes(type, elements);
      } catch (error) {
        cursor.fail(`tensor ${name}: ${(error as Error).message}`);
      }
      relative.push(cursor.count(`the offset of ${name}`, cursor.size));
      infos.push({ name, dims, type, byteLength });
    }
    const dataOffset = Math.ceil(cursor.position / alignment) * alignment;
    const tensors = new Map<string, GgufTensorInfo>();
    // llama.cpp lays tensors out in table order, each after the one before: anything else is a
    // damaged table, refused here, before the packer writes a byte.
    let previousEnd = 0;
    let last = '';
    for (const [i, info] of infos.entries()) {
      const offset = dataOffset + relative[i]!;
      if (relative[i]! % alignment !== 0) cursor.fail(`tensor ${info.name} is not aligned to ${alignment} bytes`);
      if (relative[i]! < previousEnd)
        cursor.fail(`tensor ${info.name} starts at data byte ${relative[i]}, inside or before the tensor listed before it`);
      if (tensors.has(info.name)) cursor.fail(`the tensor ${info.name} appears twice`);
      tensors.set(info.name, { ...info, offset });
      previousEnd = relative[i]! + info.byteLength;
      last = info.name;
    }
    if (dataOffset + previousEnd > cursor.size) {
      throw new Error(
        `${path} is cut short: tensor ${last} runs past the end of the file (it ends at byte ${dataOffset + previousEnd}, the file has ${cursor.size}: an incomplete download or copy?)`,
      );
    }
    return { path, version, alignment, dataOffset, metadata, tensors };
  } finally {
    closeSync(fd);
  }
}

/** One tensor's bytes, read when it is converted: the packer never holds the whole file. */
export function readTensorBytesSync(file: GgufFile, info: GgufTensorInfo): Buffer {
  if (file.readTensor) return file.readTensor(info);
  const fd = openSync(file.path, 'r');
  try {
    const bytes = Buffer.allocUnsafeSlow(info.byteLength);
    for (let read = 0; read < info.byteLength;) {
      const got = readSync(fd, bytes, read, info.byteLength - read, info.offset + read);
      // The file was whole when its header was read: it has shrunk since.
      if (got === 0) throw new Error(`${file.path} is cut short: tensor ${info.name} ends at byte ${info.offset + read}`);
      read += got;
    }
    return bytes;
  } finally {
    closeSync(fd);
  }
}

export async function readTensorBytes(file: GgufFile, info: GgufTensorInfo): Promise<Buffer> {
  if (file.readTensor) return file.readTensor(info);
  const handle = await open(file.path, 'r');
  try {
    const bytes = Buffer.alloc(info.byteLength);
    const { bytesRead } = await handle.read(bytes, 0, info.byteLength, info.offset);
    if (bytesRead !== info.byteLength) throw new Error(`${file.path}: tensor ${info.name} was cut short`);
    return bytes;
  } finally {
    await handle.close();
  }
}

function meta(file: GgufFile, key: string): GgufValue {
  const value = file.metadata.get(key);
  if (value === undefined) throw new Error(`The model's metadata has no ${key}`);
  return value;
}

export function metaString(file: GgufFile, key: string): string {
  const value = meta(file, key);
  if (typeof value !== 'string') throw new Error(`The model's ${key} is not text`);
  return value;
}

export function metaNumber(file: GgufFile, key: string): number {
  const value = meta(file, key);
  if (typeof value === 'bigint' && value <= BigInt(Number.MAX_SAFE_INTEGER)) return Number(value);
  if (typeof value !== 'number') throw new Error(`The model's ${key} is not a number`);
  return value;
}

export function metaArray(file: GgufFile, key: string): GgufValue[] {
  const value = meta(file, key);
  if (!Array.isArray(value)) throw new Error(`The model's ${key} is not a list`);
  return value;
}
