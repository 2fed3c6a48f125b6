// llama.cpp for the inference benchmark's baseline, through node-llama-cpp's prebuilt CPU
// binary for linux-x64. Installed once into the shared cache (<cache>/node-llama-cpp-<version>),
// not as a workspace dependency: node-llama-cpp's optional dependencies would make every
// `npm install` (CI's included) fetch ~700 MB of CUDA and Vulkan builds that nothing else uses.
// Install scripts stay off (they would try to build llama.cpp); the prebuilt binary is enough.
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { paths } from './config.mjs';
import { run } from './proc.mjs';

export const NODE_LLAMA_CPP_VERSION = '3.22.1';

const prefix = path.join(paths.cache, `node-llama-cpp-${NODE_LLAMA_CPP_VERSION}`);
const stamp = path.join(prefix, '.installed');
const entry = path.join(prefix, 'node_modules', 'node-llama-cpp', 'dist', 'index.js');

/** node-llama-cpp's entry module as a file URL when it is installed (tests get it as MESHWORK_NODE_LLAMA_CPP). */
export function installedNodeLlamaCpp() {
  return fs.existsSync(stamp) ? pathToFileURL(entry).href : undefined;
}

/** The file URL of node-llama-cpp's entry module, installing it the first time. */
export async function nodeLlamaCpp() {
  if (!fs.existsSync(stamp)) {
    fs.rmSync(prefix, { recursive: true, force: true });
    fs.mkdirSync(prefix, { recursive: true });
    fs.writeFileSync(path.join(prefix, 'package.json'), '{ "name": "bench-llama-cpp", "private": true }\n');
    console.error(`[infra] installing node-llama-cpp ${NODE_LLAMA_CPP_VERSION} (CPU build only, first time only)...`);
    const args = ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--omit=optional', '--prefix', prefix];
    await run('npm', [...args, `node-llama-cpp@${NODE_LLAMA_CPP_VERSION}`, `@node-llama-cpp/linux-x64@${NODE_LLAMA_CPP_VERSION}`], {
      logFile: paths.log('node-llama-cpp-install'),
    });
    fs.writeFileSync(stamp, `${NODE_LLAMA_CPP_VERSION}\n`);
  }
  return pathToFileURL(entry).href;
}
