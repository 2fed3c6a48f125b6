// Jest runs each test file in its own realm, with its own Float32Array; onnxruntime-node's
// native binding makes typed arrays of the host realm, and its `instanceof` checks then fail
// ("A float32 tensor's data must be type of Float32Array"). Tests that run onnxruntime use this
// environment (docblock `@jest-environment`), which hands the sandbox the host's typed arrays.
// It is the project's environment otherwise: a failed test's browser pages are printed.
const MeshworkEnvironment = require('../../testkit/jest-environment.cjs');

const SHARED = [
  'ArrayBuffer',
  'SharedArrayBuffer',
  'DataView',
  'Int8Array',
  'Uint8Array',
  'Uint8ClampedArray',
  'Int16Array',
  'Uint16Array',
  'Int32Array',
  'Uint32Array',
  'Float32Array',
  'Float64Array',
  'BigInt64Array',
  'BigUint64Array',
];

class NativeArraysEnvironment extends MeshworkEnvironment {
  constructor(config, context) {
    super(config, context);
    for (const name of SHARED) this.global[name] = globalThis[name];
  }
}

module.exports = NativeArraysEnvironment;
